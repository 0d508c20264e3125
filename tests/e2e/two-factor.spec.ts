/**
 * Two-factor sign-in in Chromium (issue 38, item 1): a user opens 'Two-factor sign-in' from the user
 * menu, scans (reads) the secret on screen, turns it on with a real RFC 6238 code computed here with
 * otpauth, sees the ten recovery codes, signs out and signs in again through the code step: with a code
 * (the portal, Dutch, 1280 px) and with a recovery code (the back office, English, 375 px). axe-core on
 * each screen.
 */
import { Secret, TOTP } from 'otpauth';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { DEMO_PASSWORD, expectAccessible, inLanguage, signIn } from './support.ts';

/** The code an authenticator app shows for `secret`, `steps` 30-second steps from now. */
function codeOf(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

const TEXT = {
  nl: {
    userMenu: 'Profiel',
    item: 'Tweestapsaanmelding',
    start: 'Tweestapsaanmelding instellen',
    code: 'Code',
    turnOn: 'Aanzetten',
    codes: 'Je herstelcodes',
    on: 'Tweestapsaanmelding staat aan.',
    logout: 'Uitloggen',
    email: 'E-mailadres',
    password: 'Wachtwoord',
    signIn: 'Inloggen',
    codeTitle: 'Voer je code in',
    verify: 'Controleren',
    recovery: 'Een herstelcode gebruiken',
    recoveryCode: 'Herstelcode',
  },
  en: {
    userMenu: 'Profile',
    item: 'Two-factor sign-in',
    start: 'Set up two-factor sign-in',
    code: 'Code',
    turnOn: 'Turn on',
    codes: 'Your recovery codes',
    on: 'Two-factor sign-in is on.',
    logout: 'Logout',
    email: 'Email address',
    password: 'Password',
    signIn: 'Sign in',
    codeTitle: 'Enter your code',
    verify: 'Verify',
    recovery: 'Use a recovery code',
    recoveryCode: 'Recovery code',
  },
} as const;

/**
 * The worker's server serves the spec files after this one too: every demo account leaves as it came,
 * without a second factor, and the first-line role requires none.
 */
test.afterAll(async ({ playwright, demoServer }) => {
  const request = await playwright.request.newContext({ baseURL: demoServer.baseURL });
  try {
    const login = await request.post('/api/auth/login', {
      data: { username: 'admin@example.com', password: DEMO_PASSWORD },
    });
    const auth = {
      authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
    };
    for (const [resource, email] of [
      ['clients', 'client@example.com'],
      ['clients', 'other@example.com'],
      ['operators', 'operator@example.com'],
    ] as const) {
      const found = await request.get(
        `/api/${resource}?builder[0][where][0]=email&builder[0][where][1]==&builder[0][where][2]=${email}`,
        { headers: auth },
      );
      const [user] = ((await found.json()) as { data: { id: number; role_id: number }[] }).data;
      await request.post(`/api/${resource}/${user!.id}/reset-two-factor`, { headers: auth });
      if (resource === 'operators')
        await request.put(`/api/roles/${user!.role_id}`, {
          headers: auth,
          data: { requires_two_factor: false },
        });
    }
  } finally {
    await request.dispose();
  }
});

/** From the user menu to a confirmed enrolment: the secret read off the screen, and the recovery codes. */
async function enrol(page: Page, t: (typeof TEXT)['nl' | 'en']) {
  await page.getByRole('button', { name: t.userMenu }).click();
  await page.getByRole('menuitem', { name: t.item }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.item })).toBeVisible();
  await page.getByRole('button', { name: t.start }).click();
  const key = page.locator('code[data-secret]');
  await expect(key).toBeVisible();
  await expect(page.getByRole('img', { name: /QR/ })).toBeVisible();
  // The key as a person would type it: what the screen shows, without its spaces.
  const secret = (await key.innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessible(page, 'two-factor enrolment');
  const field = page.getByRole('textbox', { name: t.code });
  await expect(field).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(field).toHaveAttribute('inputmode', 'numeric');
  await field.fill(codeOf(secret));
  await page.getByRole('button', { name: t.turnOn }).click();
  const list = page.getByRole('list', { name: t.codes });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  await expect(page.getByRole('status').filter({ hasText: t.on })).toBeVisible();
  await expect(page.getByText(`${t.on} 10 `)).toBeVisible();
  await expectAccessible(page, 'two-factor recovery codes');
  const codes = await list.getByRole('listitem').allInnerTexts();
  return { secret, codes };
}

async function passwordStep(page: Page, t: (typeof TEXT)['nl' | 'en'], email: string) {
  await page.getByRole('button', { name: t.userMenu }).click();
  await page.getByRole('menuitem', { name: t.logout }).click();
  await page.getByLabel(t.email).fill(email);
  await page.getByLabel(t.password).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: t.signIn, exact: true }).click();
  await expect(page.getByRole('heading', { name: t.codeTitle })).toBeVisible();
  // No session before the code: nothing stored yet.
  expect(await page.evaluate(() => localStorage.getItem('APP_PORTAL_TOKEN'))).toBeNull();
}

test(
  inLanguage('nl', 'a client turns two-factor on in the portal and signs in with a code, at 1280 px'),
  async ({ page }) => {
    const t = TEXT.nl;
    await signIn(page, 'client@example.com', 'portal', { locale: 'nl' });
    const { secret } = await enrol(page, t);
    await passwordStep(page, t, 'client@example.com');
    await expectAccessible(page, 'login code step');
    // The code of the next step: the one that turned it on is spent.
    await page.getByRole('textbox', { name: t.code }).fill(codeOf(secret, 1));
    await page.getByRole('button', { name: t.verify }).click();
    await expect(page).toHaveURL(/\/app\/tickets$/);
    await expect(page.getByRole('button', { name: t.userMenu })).toBeVisible();
  },
);

test(
  inLanguage('en', 'an operator turns two-factor on and signs in with a recovery code, at 375 px'),
  async ({ page }) => {
    const t = TEXT.en;
    await page.setViewportSize({ width: 375, height: 760 });
    await signIn(page, 'operator@example.com', 'backoffice', { locale: 'en' });
    const { codes } = await enrol(page, t);
    await passwordStep(page, t, 'operator@example.com');
    await page.getByRole('button', { name: t.recovery }).click();
    await page.getByRole('textbox', { name: t.recoveryCode }).fill(codes[0]!);
    await expectAccessible(page, 'login recovery code step');
    await page.getByRole('button', { name: t.verify }).click();
    await expect(page).not.toHaveURL(/\/login/);
    await expect(page.getByRole('button', { name: t.userMenu })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('APP_PORTAL_TOKEN'))).toBeTruthy();
  },
);

test(
  inLanguage('nl', "second line resets a client's two-factor from the client's record, at 1280 px"),
  async ({ page }) => {
    // Another client than the first test's turns two-factor on through the API: 202 at sign-in.
    const plain = await page.request.post('/api/auth/login', {
      data: { username: 'other@example.com', password: DEMO_PASSWORD },
    });
    if (plain.status() === 200) {
      const auth = {
        authorization: `Bearer ${((await plain.json()) as { access_token: string }).access_token}`,
      };
      const start = await page.request.post('/api/auth/two-factor/start', { headers: auth });
      const { secret } = (await start.json()) as { secret: string };
      const confirm = await page.request.post('/api/auth/two-factor/confirm', {
        headers: auth,
        data: { code: codeOf(secret, 1) },
      });
      expect(confirm.status()).toBe(200);
    }
    const before = await page.request.post('/api/auth/login', {
      data: { username: 'other@example.com', password: DEMO_PASSWORD },
    });
    expect(before.status()).toBe(202);
    const token = await signIn(page, 'admin@example.com', 'backoffice', { locale: 'nl' });
    const clients = await page.request.get(
      '/api/clients?builder[0][where][0]=email&builder[0][where][1]==&builder[0][where][2]=other@example.com',
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(clients.status()).toBe(200);
    const [{ id }] = ((await clients.json()) as { data: { id: number }[] }).data as [{ id: number }];
    await page.goto(`/clients/${id}`);
    await page.getByRole('button', { name: 'Tweestapsaanmelding resetten' }).click();
    await expectAccessible(page, 'reset two-factor confirmation');
    await page.getByRole('dialog').getByRole('button', { name: 'Tweestapsaanmelding resetten' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Tweestapsaanmelding is gereset.' }),
    ).toBeVisible();
    const after = await page.request.post('/api/auth/login', {
      data: { username: 'other@example.com', password: DEMO_PASSWORD },
    });
    expect(after.status()).toBe(200);
  },
);

test(
  inLanguage('nl', 'a role that requires two-factor makes its operator enrol at sign-in, at 1280 px'),
  async ({ page }) => {
    const t = TEXT.nl;
    const admin = await page.request.post('/api/auth/login', {
      data: { username: 'admin@example.com', password: DEMO_PASSWORD },
    });
    const auth = {
      authorization: `Bearer ${((await admin.json()) as { access_token: string }).access_token}`,
    };
    const operators = await page.request.get(
      '/api/operators?builder[0][where][0]=email&builder[0][where][1]==&builder[0][where][2]=operator@example.com',
      { headers: auth },
    );
    const [operator] = ((await operators.json()) as { data: { id: number; role_id: number }[] }).data;
    // Whatever an earlier test left: no second factor, and the role requires one.
    const reset = await page.request.post(`/api/operators/${operator!.id}/reset-two-factor`, {
      headers: auth,
    });
    expect(reset.status()).toBe(200);
    const role = await page.request.put(`/api/roles/${operator!.role_id}`, {
      headers: auth,
      data: { requires_two_factor: true },
    });
    expect(role.status()).toBe(200);

    await page.goto('/login');
    await page.getByLabel(t.email).fill('operator@example.com');
    await page.getByLabel(t.password).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: t.signIn, exact: true }).click();
    await expect(
      page.getByText('Je rol vereist tweestapsaanmelding. Stel die in om verder te gaan.'),
    ).toBeVisible();
    const key = page.locator('code[data-secret]');
    await expect(key).toBeVisible();
    const secret = (await key.innerText()).replace(/\s/g, '');
    await expectAccessible(page, 'enrolment at sign-in');
    await page.getByRole('textbox', { name: t.code }).fill(codeOf(secret));
    await page.getByRole('button', { name: t.verify }).click();
    await expect(page.getByRole('list', { name: t.codes }).getByRole('listitem')).toHaveCount(10);
    await expectAccessible(page, 'recovery codes at sign-in');
    await page.getByRole('button', { name: 'Verder' }).click();
    await expect(page.getByRole('button', { name: t.userMenu })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('APP_PORTAL_TOKEN'))).toBeTruthy();
  },
);
