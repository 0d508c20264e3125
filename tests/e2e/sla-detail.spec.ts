/**
 * Issue 35, item 4: a ticket's SLA clock on its back-office detail (the applied SLA and why, each target
 * with its due time, the business time left and its state, read again when the ticket changes
 * elsewhere) and the promise on the client's ticket in the portal ("Our promise": response and
 * resolution, within how long, met or not), which the tenant setting `portal_show_sla` hides. Each
 * panel in Dutch and English, at 1280 and 375 px, axe-clean. The demo has no SLA-governed tickets of
 * the client's, so each test makes its own through the API: an SLA of 60 and 480 minutes without a
 * calendar (business time is real time) and a ticket of the client's company under it.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, inLanguage, signIn, startIn } from './support.ts';

const ADMIN = 'admin@example.com';
const CLIENT = 'client@example.com';

const TEXT = {
  nl: {
    panel: 'SLA',
    ownSla: 'ingesteld op dit ticket',
    first: 'Eerste reactie',
    resolution: 'Oplossing',
    met: 'Gehaald',
    running: 'Loopt',
    paused: /Gepauzeerd sinds/,
    left: /^nog (7 u 5\d min|8 u)$/,
    breached: 'Overschreden',
    overdue: /^(< 1|\d+) min te laat$/,
    promise: 'Onze belofte',
    response: 'Reactie',
    within: 'binnen 1 u',
    expected: /verwacht uiterlijk/,
  },
  en: {
    panel: 'SLA',
    ownSla: 'set on this ticket',
    first: 'First response',
    resolution: 'Resolution',
    met: 'Met',
    running: 'Running',
    paused: /Paused since/,
    left: /^(7 h 5\d min|8 h) left$/,
    breached: 'Breached',
    overdue: /^overdue by (< 1|\d+) min$/,
    promise: 'Our promise',
    response: 'Response',
    within: 'within 1 h',
    expected: /expected by/,
  },
} as const;

interface Api {
  call: (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown) => Promise<any>;
}

/** The API as the holder of `token`. An operator has one session: a new login ends the one before. */
function apiWith(request: APIRequestContext, token: string): Api {
  const headers = { authorization: `Bearer ${token}` };
  return {
    call: async (method, path, data) => {
      const res = await request.fetch(`/api/${path}`, { method, headers, data });
      expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
      return res.status() === 204 ? null : res.json();
    },
  };
}

async function apiAs(request: APIRequestContext, email: string): Promise<Api> {
  const auth = await request.post('/api/auth/login', { data: { username: email, password: 'demo' } });
  expect(auth.ok()).toBe(true);
  return apiWith(request, (await auth.json()).access_token);
}

/**
 * A ticket of the client's company under a new SLA of its own (60 minutes to respond, 480 to solve),
 * created now; `answered`: an operator replied to the client at once, so the first response is met.
 * `responseTime` 0: the first response is breached from the start (its due is the creation).
 */
async function slaTicket(request: APIRequestContext, answered: boolean, responseTime = 60) {
  const admin = await apiAs(request, ADMIN);
  const client = await apiAs(request, CLIENT);
  const stamp = Date.now();
  const sla = await admin.call('POST', 'slas', {
    name: `Belofte ${stamp}`,
    name_en: `Promise ${stamp}`,
    response_time: responseTime,
    resolution_time: 480,
  });
  const company = (await client.call('GET', 'companies')).data[0];
  const ticket = await admin.call('POST', 'tickets', {
    description: `SLA op het scherm ${stamp}`,
    company_id: company.id,
    sla_id: sla.id,
  });
  if (answered) {
    await admin.call('POST', 'messages', {
      morphable_type: 'ticket',
      morphable_id: ticket.id,
      message: '<p>We kijken ernaar.</p>',
      visible_to_client: true,
    });
  }
  return { admin, id: ticket.id as number, sla: { nl: sla.name as string, en: sla.name_en as string } };
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/sla-detail-${name}.png`, fullPage: true });
}

for (const [lang, width] of [
  ['nl', 1280],
  ['en', 375],
] as const) {
  test(
    inLanguage(lang, `the back office shows the SLA panel at ${width} px and follows the ticket`),
    async ({ page }) => {
      const t = TEXT[lang];
      await page.setViewportSize({ width, height: 900 });
      await startIn(page, lang);
      const { id, sla } = await slaTicket(page.request, true);
      const late = await slaTicket(page.request, false, 0);
      const token = await signIn(page, ADMIN, 'backoffice', { to: `/tickets/${id}`, locale: lang });
      const admin = apiWith(page.request, token);

      const panel = page.getByRole('region', { name: t.panel, exact: true });
      await expect(panel).toBeVisible();
      await expect(panel.getByTestId('sla-applied')).toHaveText(`${sla[lang]} · ${t.ownSla}`);
      const first = panel.locator('[data-sla-target="first_response"]');
      await expect(first.getByRole('heading', { name: t.first })).toBeVisible();
      await expect(first.locator('[data-sla-pill="green"]')).toHaveText(t.met);
      const resolution = panel.locator('[data-sla-target="resolution"]');
      await expect(resolution.getByRole('heading', { name: t.resolution })).toBeVisible();
      await expect(resolution).toContainText(t.running);
      await expect(resolution.getByText(t.left)).toBeVisible();
      // No client reply yet: no next-response cycle to show.
      await expect(panel.locator('[data-sla-target="next_response"]')).toHaveCount(0);
      await expectAccessible(page, `SLA panel, ${width} px (${lang})`);
      await shoot(page, `backoffice-${lang}-${width}`);

      // A colleague sets the ticket to a pausing status elsewhere: the panel hears of it and pauses.
      const statuses = await admin.call('GET', 'ticket-statuses?builder[0][paginate]=100');
      const pausing = statuses.data.find((s: { pauses_sla?: boolean }) => s.pauses_sla === true);
      expect(pausing, 'a status that pauses the clock').toBeTruthy();
      await admin.call('PUT', `tickets/${id}`, { status_id: pausing.id });
      await expect(resolution.getByText(t.paused)).toBeVisible();
      await expect(resolution).toHaveAttribute('data-sla-state', 'paused');
      await expectAccessible(page, `SLA panel paused, ${width} px (${lang})`);
      await shoot(page, `backoffice-paused-${lang}-${width}`);

      // A first response due at creation and not given: breached, overdue, in the red of a past due date.
      await page.goto(`/tickets/${late.id}`);
      const lateFirst = page
        .getByRole('region', { name: t.panel, exact: true })
        .locator('[data-sla-target="first_response"]');
      await expect(lateFirst.locator('[data-sla-pill="red"]')).toHaveText(t.breached);
      await expect(lateFirst.getByText(t.overdue)).toBeVisible();
      await expectAccessible(page, `SLA panel breached, ${width} px (${lang})`);
      await shoot(page, `backoffice-breached-${lang}-${width}`);
    },
  );
}

for (const [lang, width] of [
  ['en', 1280],
  ['nl', 375],
] as const) {
  test(
    inLanguage(lang, `the portal shows the client our promise at ${width} px, unless hidden`),
    async ({ page }) => {
      const t = TEXT[lang];
      await page.setViewportSize({ width, height: 900 });
      await startIn(page, lang);
      const { admin, id } = await slaTicket(page.request, true);
      await signIn(page, CLIENT, 'portal', { to: `/app/tickets/${id}`, locale: lang });

      const promise = page.getByRole('region', { name: t.promise });
      await expect(promise).toBeVisible();
      const response = promise.locator('[data-sla-target="first_response"]');
      await expect(response.locator('dt')).toHaveText(`${t.response} ${t.within}`);
      await expect(response.locator('[data-sla-pill="green"]')).toHaveText(t.met);
      const resolution = promise.locator('[data-sla-target="resolution"]');
      await expect(resolution.locator('dt')).toContainText(t.resolution);
      await expect(resolution.locator('dd')).toHaveText(t.expected);
      // The promise only: no SLA name, no figures of the back office.
      await expect(promise).not.toContainText(/Belofte|Promise \d/);
      await expectAccessible(page, `portal promise, ${width} px (${lang})`);
      await shoot(page, `portal-${lang}-${width}`);

      // The tenant hides the promise: the ticket shows without it.
      const setting = await admin.call('POST', 'config', { name: 'portal_show_sla', value: '0' });
      try {
        await page.reload();
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByTestId('sla-promise')).toHaveCount(0);
      } finally {
        await admin.call('DELETE', `config/${setting.id}`);
      }
    },
  );
}
