/**
 * The translation sweep (docs/translation-sweep.md): every screen of both apps that the demo reaches, in
 * Dutch, English and German, at 1280 and 375 px. The screens come from the schemas and the menus
 * (./sweep/screens.ts planOf): each resource's list, its first record's detail, the detail's edit form
 * and the create form, as the app's actions allow; the list's dialogs and menu (columns, new view, order,
 * views) and the delete confirmation on one resource, since they are the same components everywhere; the
 * login page signed out and with its empty-field errors, the portal's password-reset pages, the back
 * office's dashboard, exports and reports pages (both tabs, and the dialog that subscribes to a report by
 * mail), the portal's service overview, and the 404 and 403 pages of both apps; a detail that
 * does not exist returns to its list (SPEC 8).
 *
 * On each screen, at each width: no raw message key, no '@@react-admin@@', and on an English or German
 * screen no Dutch text of the catalogue (./sweep/texts.ts). Demo data is Dutch and may show anywhere.
 *
 * axe: each screen has a number (its place in the app's plan); the language pass whose index equals the
 * number modulo 3 (nl 0, en 1, de 2) scans it, at 1280 and at 375 px. So every screen is scanned once per
 * width over the three passes, and each pass does a third of the scans.
 *
 * The back-office pass is also the operator's walk through every list (it was backoffice-walk.spec.ts):
 * every list opens with its title and its counter or empty text, its first row opens a detail whose
 * heading is 'record - type', a list without a show action has no rows that open, and more than three
 * quarters of the lists have a record to open.
 *
 * Not reached here, and where it is tested: a detail's load failure (journeys-errors.spec.ts), a 422
 * in a form (forms.spec.ts), the first-run and setup pages (first-run.spec.ts), screens of a record in a
 * particular state (a quote to accept: portal-details.spec.ts; a ticket's tabs and thread:
 * ticket-tabs.spec.ts, thread-portal.spec.ts, thread-backoffice.spec.ts), header filter menus
 * (journeys-lists.spec.ts), the user menu (user-menu.spec.ts), the shortcuts help and global search
 * (workspace.spec.ts), mailbox and mail failure screens (mailboxes.spec.ts, mail-failures.spec.ts), the
 * quote link (journeys-quote-link.spec.ts).
 */
import { expect, test as base } from './fixtures.ts';
import { startServer, type E2eServer } from './server.ts';
import { signIn, type App } from './support.ts';
import { DELETE_DIALOG, DIALOGS, planOf, Sweep, type AppPlan, type ResourcePlan } from './sweep/screens.ts';
import { catalogue, LANGUAGES, type Language } from './sweep/texts.ts';

/**
 * A server of the sweep's own on a fresh copy of the demo seed: on the worker's shared server, records
 * other specs made (a ticket 'Snelle acties en geschiedenis') would show on its lists, and the Dutch
 * of their subjects would read as catalogue text on an English screen, depending on which files ran first.
 */
const test = base.extend<object, { sweepServer: E2eServer }>({
  sweepServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ sweepServer }, use) => use(sweepServer.baseURL),
});

const ACCOUNTS: Record<App, string> = { backoffice: 'admin@example.com', portal: 'client@example.com' };
/** Where each app lives in the address: the portal under /app. */
const BASE: Record<App, string> = { backoffice: '', portal: '/app' };
/** The back office's resources in parts, side by side on the workers; the portal's few in one. */
const PARTS: Record<App, number> = { backoffice: 4, portal: 1 };

test.describe.configure({ mode: 'parallel' });

const plans: Record<App, AppPlan> = { backoffice: planOf('backoffice'), portal: planOf('portal') };

test('the sweep has every list of the schemas: the back office more than 30, the portal its menu', () => {
  expect(plans.backoffice.resources.length).toBeGreaterThan(30);
  expect(plans.portal.resources.map((p) => p.resource.name)).toEqual([
    'tickets',
    'quotes',
    'subscriptions',
    'assets',
    'contracts',
    'invoices',
    'knowledge-articles',
    'company-user',
  ]);
});

for (const app of ['backoffice', 'portal'] as const) {
  for (const language of LANGUAGES) {
    for (let part = 0; part < PARTS[app]; part += 1) {
      const resources = plans[app].resources.filter((_, i) => i % PARTS[app] === part);
      const names = resources.map((p) => p.resource.name).join(', ');
      test(`${app} in ${language}, part ${part + 1} of ${PARTS[app]}: ${names}`, async ({ page }) => {
        test.setTimeout(300_000);
        const sweep = new Sweep(page, language, await catalogue());
        // The first part also visits the app's pages besides the resources.
        if (part === 0) await signedOut(sweep, app, plans[app]);
        const first = `${BASE[app]}/${resources[0]!.resource.name}`;
        await signIn(page, ACCOUNTS[app], app, { to: first, locale: language });
        let details = 0;
        for (const [i, plan] of resources.entries()) {
          if (i > 0) await sweep.open(`${BASE[app]}/${plan.resource.name}`);
          if (await visitResource(sweep, app, plan)) details += 1;
        }
        if (part === 0) await signedIn(sweep, app, plans[app]);
        test.info().annotations.push({ type: 'sweep', description: sweep.account() });
        expect(sweep.problems).toEqual([]);
        // Most lists have demo records to open (in the back office some 40 of 48).
        expect(details).toBeGreaterThan(resources.length * 0.75);
      });
    }
  }
}

/**
 * A resource's list, its first record's detail and edit form, its create form (and the dialogs where
 * the plan puts them), each at both widths. Returns whether a detail opened.
 */
async function visitResource(sweep: Sweep, app: App, plan: ResourcePlan): Promise<boolean> {
  const { resource } = plan;
  const name = resource.name;
  const listPath = `${BASE[app]}/${name}`;
  const state = await sweep.listDrawn(resource);
  await sweep.both(`${name} list`, plan.list, () => sweep.listDrawn(resource).then(() => undefined));
  if (plan.dialogs) await listDialogs(sweep, plan);
  let opened = false;
  if (state === 'rows' && plan.detail === undefined) {
    // A list without a detail screen (a ticket's history): its rows are no links to a page refused.
    if (await sweep.firstRecordOpens())
      sweep.problems.push(`${name}: a row opens a detail the schema does not offer`);
  } else if (state === 'rows' && plan.detail !== undefined) {
    await sweep.openFirstRecord();
    try {
      await expect(sweep.heading).toHaveText(/ - /, { timeout: 15_000 });
      opened = true;
    } catch {
      sweep.problems.push(`${name}: the first record did not open a detail (at ${sweep.page.url()})`);
    }
  }
  if (opened) {
    const detailDrawn = () => expect(sweep.heading).toHaveText(/ - /);
    await sweep.both(`${name} detail`, plan.detail!, detailDrawn);
    if (plan.dialogs?.[DELETE_DIALOG] !== undefined) {
      await sweep.page.getByRole('button', { name: sweep.t('ra.action.delete'), exact: true }).click();
      await sweep.popupDrawn();
      await sweep.both(`${name} ${DELETE_DIALOG}`, plan.dialogs[DELETE_DIALOG], () => sweep.popupDrawn());
      await sweep.page
        .getByRole('dialog')
        .getByRole('button', { name: sweep.t('ra.action.cancel') })
        .click();
      await expect(sweep.page.getByRole('dialog')).toHaveCount(0);
    }
    if (plan.edit !== undefined) {
      // The header's button, first on the page (a ticket's thread has an edit button per message).
      const edit = sweep.page.getByRole('button', { name: sweep.t('ra.action.edit'), exact: true }).first();
      try {
        await edit.click({ timeout: 10_000 });
        await sweep.formDrawn();
        await sweep.both(`${name} edit form`, plan.edit, () => sweep.formDrawn());
      } catch {
        sweep.problems.push(`${name}: the detail has no edit form though the schema offers update`);
      }
    }
  }
  if (plan.create !== undefined) {
    await sweep.open(`${listPath}/create`);
    await sweep.formDrawn();
    await sweep.both(`${name} create form`, plan.create, () => sweep.formDrawn());
  }
  return opened;
}

/**
 * The list toolbar's dialogs and menu, at the wide width only: the narrow list has no toolbar (its cards
 * have a reset button and a views selector), and turning the viewport closes them with the toolbar.
 */
async function listDialogs(sweep: Sweep, plan: ResourcePlan) {
  await sweep.setWidth('wide');
  await sweep.listDrawn(plan.resource);
  for (const [name, key] of Object.entries(DIALOGS)) {
    const index = plan.dialogs![name];
    if (index === undefined) continue;
    await sweep.page.getByRole('button', { name: sweep.t(key), exact: true }).click();
    await sweep.popupDrawn();
    await sweep.look(`${plan.resource.name} ${name}`, index);
    await sweep.page.keyboard.press('Escape');
    await expect(sweep.popup()).toHaveCount(0);
  }
}

/** The login page (and the portal's password-reset pages) before signing in, in the pass's language. */
async function signedOut(sweep: Sweep, app: App, plan: AppPlan) {
  const { page, language } = sweep;
  await page.addInitScript((locale: Language) => {
    if (!sessionStorage.getItem('sweep-locale')) {
      localStorage.clear();
      localStorage.setItem('locale', locale);
      sessionStorage.setItem('sweep-locale', '1');
    }
  }, language);
  await page.goto(`${BASE[app]}/login`);
  await sweep.formDrawn();
  await sweep.both('login', plan.pages.login!, () => sweep.formDrawn());
  await page.getByRole('button', { name: sweep.t('app.auth.sign_in'), exact: true }).click();
  const errors = () => expect(page.locator('[aria-invalid="true"]')).toHaveCount(2);
  await errors();
  await sweep.both('login errors', plan.pages['login errors']!, errors);
  if (app !== 'portal') return;
  await sweep.open('/app/password-reset');
  await sweep.formDrawn();
  await sweep.both('password reset request', plan.pages['password reset request']!, () => sweep.formDrawn());
  // The reset form has the request's heading: it has drawn when its new-password field is there.
  await sweep.navigate('/app/password/reset/not-a-token');
  const resetDrawn = () => expect(page.locator('input[type="password"]').first()).toBeVisible();
  await resetDrawn();
  await sweep.both('password reset', plan.pages['password reset']!, resetDrawn);
}

/** The reports page's dialog that subscribes to the report by mail (issue 36, item 4), then closed. */
async function subscribeDialog(sweep: Sweep, plan: AppPlan) {
  await sweep.page.getByRole('button', { name: sweep.t('reports.subscriptions.subscribe') }).click();
  await sweep.popupDrawn();
  await sweep.both('reports subscribe', plan.pages['reports subscribe']!, () => sweep.popupDrawn());
  await sweep.page
    .getByRole('dialog')
    .getByRole('button', { name: sweep.t('reports.subscriptions.cancel') })
    .click();
  await expect(sweep.page.getByRole('dialog')).toHaveCount(0);
}

/** The signed-in app's pages besides the resources, and a detail that does not exist. */
async function signedIn(sweep: Sweep, app: App, plan: AppPlan) {
  const base = BASE[app];
  const pages: [string, string][] = [
    ['not found', `${base}/does-not-exist`],
    ['access denied', `${base}/403`],
  ];
  if (app === 'backoffice')
    // The reports' tabs apart: a screen is drawn once its heading differs from the one before.
    pages.push(
      ['reports satisfaction', '/reports?tab=satisfaction&period=this_year'],
      ['dashboard', '/'],
      ['reports time', '/reports?tab=time&period=this_year'],
      ['exports', '/exports'],
      ['reports', '/reports'],
    );
  // The portal's service overview (issue 36, item 3): the demo's client role holds its permission.
  else pages.unshift(['service overview', '/app/service-overview']);
  for (const [name, path] of pages) {
    await sweep.open(path);
    // A report has drawn once its tables are there: the period's and the breakdown's at least.
    // The satisfaction tab has one table, or its empty text where the period has no ratings.
    const drawn =
      name === 'reports satisfaction'
        ? () =>
            expect(
              sweep.page.getByRole('table').or(sweep.page.getByText(sweep.t('reports.satisfaction.empty'))),
            ).toBeVisible()
        : name.startsWith('reports') || name === 'service overview'
          ? () => expect(sweep.page.getByRole('table').nth(1)).toBeVisible()
          : () => expect(sweep.heading).toBeVisible();
    await sweep.both(name, plan.pages[name]!, drawn);
    if (name === 'reports') await subscribeDialog(sweep, plan);
  }
  // A record that does not exist (or is not the caller's) returns to its list without a word (SPEC 8).
  const first = plan.resources[0]!;
  await sweep.navigate(`${base}/${first.resource.name}/999999`);
  await expect(sweep.page).toHaveURL(new RegExp(`${base}/${first.resource.name}$`));
  await sweep.listDrawn(first.resource);
}
