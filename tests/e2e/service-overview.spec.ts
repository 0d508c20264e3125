/**
 * Issue 36, item 3: a client of the demo (whose role holds portal.reports.index) opens the portal's
 * service overview from the menu and reads its three charts with their tables, the tickets' total
 * equal to what the API counts, picks last year, and turns the monthly mail on and off again; axe-core at
 * 1280 and 375 px, where the page fits the screen. A client whose role lacks the permission has no menu
 * entry, and the page's address is 'page not found'. In Dutch; the words in all three languages are
 * typed against the English file (src/i18n/nl/serviceOverview.ts) and swept by the translation sweep.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';
import { expectAccessible, inLanguage, signIn, startIn } from './support.ts';
import { SEEDED_DIR_ENV, startServer } from './server.ts';
import { openDatabase } from '../../server/db/database.ts';
import { SERVICE_OVERVIEW_PERMISSION } from '../../common/service-overview.ts';

const CLIENT = 'client@example.com';

test(inLanguage('nl', 'a client reads the service overview as charts and tables'), async ({ page }) => {
  await startIn(page, 'nl');
  const token = await signIn(page, CLIENT, 'portal', { to: '/app/tickets' });
  await page.getByRole('menuitem', { name: 'Serviceoverzicht', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Serviceoverzicht' })).toBeVisible();
  await expect(page).toHaveURL(/\/app\/service-overview$/);

  const tickets = page.getByRole('table', { name: 'Geopende en opgeloste tickets per maand, en in totaal' });
  await expect(tickets).toBeVisible();
  // A header row, twelve months and the total; the total is the API's.
  await expect(tickets.getByRole('row')).toHaveCount(14);
  const api = await page.request.get('/api/portal/service-overview', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(api.status(), await api.text()).toBe(200);
  const answer = (await api.json()) as { total: { opened: number; solved: number }; contracts: unknown[] };
  const total = tickets.getByRole('row', { name: /^Totaal/ });
  await expect(total.getByRole('cell')).toHaveText([
    String(answer.total.opened),
    String(answer.total.solved),
  ]);
  await expect(
    page.getByRole('table', {
      name: 'Mediane tijden in werkuren en het deel binnen de SLA-termijn, per maand',
    }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Onze belofte' })).toBeVisible();
  // The demo's company has a contract with hours per month and a prepaid card.
  expect(answer.contracts.length).toBeGreaterThan(0);
  const contracts = page.getByRole('table', { name: 'Uw lopende contractperiodes en strippenkaarten' });
  await expect(contracts.getByRole('row')).toHaveCount(answer.contracts.length + 2);
  // Three charts, each a figure named by its heading and drawn as an SVG.
  const figures = page.getByRole('figure');
  await expect(figures).toHaveCount(3);
  for (const figure of await figures.all()) await expect(figure.locator('svg').first()).toBeAttached();

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
    await expect(tickets).toBeVisible();
    await expectAccessible(page, `service overview, ${width} px, nl`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `the page fits ${width} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Last year: its twelve months.
  const lastYear = String(new Date().getFullYear() - 1);
  await page.getByRole('combobox', { name: 'Periode Afgelopen 12 maanden' }).click();
  await page.getByRole('option', { name: lastYear }).click();
  await expect(tickets.getByRole('row').nth(1)).toContainText(`jan ${lastYear}`);
  await expect(tickets.getByRole('row')).toHaveCount(14);

  // The monthly mail: on, kept on the server (with the language it is written in), and off again.
  const optIn = page.getByRole('switch', { name: 'Mail mij deze cijfers elke maand' });
  await expect(optIn).not.toBeChecked();
  const kept = async () => {
    const me = await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
    const configs = ((await me.json()) as { user: { configs: { name: string; value: unknown }[] } }).user
      .configs;
    return Object.fromEntries(configs.map((c) => [c.name, c.value]));
  };
  await optIn.click();
  await expect(optIn).toBeChecked();
  await expect.poll(kept).toMatchObject({ service_overview_mail: true, language: 'nl' });
  await optIn.click();
  await expect(optIn).not.toBeChecked();
  await expect.poll(kept).toMatchObject({ service_overview_mail: false });
});

test(inLanguage('nl', 'a client without the permission has no service overview'), async ({ browser }) => {
  test.setTimeout(180_000);
  // A server of its own, on the demo with the permission taken from the client role.
  const seeded = mkdtempSync(join(tmpdir(), 'sd-e2e-overview-'));
  cpSync(process.env[SEEDED_DIR_ENV]!, seeded, { recursive: true });
  const database = await openDatabase({ dataDir: join(seeded, 'pglite') });
  await database.db
    .deleteFrom('permission_role')
    .where('permission_id', '=', (eb) =>
      eb.selectFrom('permissions').select('id').where('name', '=', SERVICE_OVERVIEW_PERMISSION),
    )
    .execute();
  await database.close();
  const server = await startServer({}, { seeded });
  const page = await browser.newPage({ baseURL: server.baseURL });
  try {
    await startIn(page, 'nl');
    const token = await signIn(page, CLIENT, 'portal', { to: '/app/tickets' });
    await expect(page.getByRole('menuitem', { name: 'Tickets' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Serviceoverzicht' })).toHaveCount(0);
    await page.goto('/app/service-overview');
    await expect(page.getByRole('heading', { level: 1, name: 'Pagina niet gevonden' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Serviceoverzicht' })).toHaveCount(0);
    const api = await page.request.get('/api/portal/service-overview', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(api.status()).toBe(403);
  } finally {
    await page.close();
    await server.stop();
    rmSync(seeded, { recursive: true, force: true });
  }
});
