/**
 * Issue 36, item 1: a second-line operator reads the time logged: a year per month as a chart and
 * its table, per activity, and each contract period's consumption with its bar; the table's totals are
 * the API's, the per-activity file reads back as CSV, and the tab is axe-clean at 1280 and 375 px where
 * it fits the screen. One language (Dutch); the translation sweep reads the tab in all three.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';
import { expectAccessible, inLanguage, signIn, startIn } from './support.ts';

/** Minutes as the page writes them: h:mm. */
const hm = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

test(
  inLanguage('nl', 'a second-line operator reads the time logged and the contracts’ consumption'),
  async ({ page }) => {
    await startIn(page, 'nl');
    const token = await signIn(page, 'admin@example.com', 'backoffice', { to: '/reports' });
    const auth = { authorization: `Bearer ${token}` };
    await page.getByRole('tab', { name: 'Bestede tijd' }).click();
    // The last 365 days: the demo's time lies in them whenever it is made.
    const day = (d: Date) => d.toLocaleDateString('sv');
    const from = day(new Date(Date.now() - 364 * 86_400_000));
    const to = day(new Date());
    await page.getByRole('combobox', { name: 'Periode Deze maand' }).click();
    await page.getByRole('option', { name: 'Eigen periode' }).click();
    await page.getByLabel('Van', { exact: true }).fill(from);
    await page.getByLabel('Tot en met', { exact: true }).fill(to);
    await page.getByRole('combobox', { name: 'Per Week' }).click();
    await page.getByRole('option', { name: 'Maand' }).click();
    await expect(page).toHaveURL(/tab=time/);

    const range = `from=${from}&to=${to}`;
    const api = async <T>(path: string) =>
      (await (await page.request.get(`/api/reports/${path}`, { headers: auth })).json()) as T;
    type Figures = { rounded_minutes: number; billable_minutes: number; registrations: number };
    const months = await api<{ rows: unknown[]; total: Figures }>(`time?${range}&group=month`);
    expect(months.total.registrations).toBeGreaterThan(0);

    // The months and the total, whose rounded time and registrations are the API's.
    const table = page.getByRole('table', {
      name: 'Bestede tijd per periode, en in totaal (uren:minuten, afgerond zoals gefactureerd)',
    });
    await expect(table.getByRole('row')).toHaveCount(months.rows.length + 2);
    const total = table.getByRole('row', { name: /^Totaal/ });
    await expect(total.getByRole('cell').nth(1)).toHaveText(hm(months.total.rounded_minutes));
    await expect(total.getByRole('cell').nth(2)).toHaveText(hm(months.total.billable_minutes));
    await expect(total.getByRole('cell').last()).toHaveText(String(months.total.registrations));

    // Per activity: a row per activity the API names, and its CSV file says the same.
    await page.getByRole('combobox', { name: 'Per Operator' }).click();
    await page.getByRole('option', { name: 'Activiteit' }).click();
    const perActivity = await api<{ rows: { name: string | null; rounded_minutes: number }[] }>(
      `time/breakdown?${range}&group=month&by=activity_id`,
    );
    const activities = page.getByRole('table', { name: 'Bestede tijd per activiteit, en in totaal' });
    await expect(activities.getByRole('row')).toHaveCount(perActivity.rows.length + 2);
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('button', { name: 'Bestede tijd per activiteit, en in totaal downloaden als CSV' })
        .click(),
    ]);
    expect(csv.suggestedFilename()).toBe(`time-activity_id-${from}-${to}.csv`);
    const lines = readFileSync((await csv.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(';'));
    expect(lines[0]!.slice(0, 3)).toEqual(['Activiteit', 'Bestede tijd', 'Tijd afgerond']);
    const first = perActivity.rows[0]!;
    expect(lines[1]!.slice(0, 1)).toEqual([first.name ?? '(geen)']);
    expect(lines[1]![2]).toBe(hm(first.rounded_minutes).padStart(5, '0'));

    // Each contract period of the range with a bar of the share of its hours used.
    const contracts = await api<{
      rows: { contract_name: string; registered_time: number; minutes_total: number }[];
    }>(`contracts?${range}`);
    expect(contracts.rows.length).toBeGreaterThan(0);
    const consumption = page.getByRole('table', {
      name: 'Elke contractperiode van de periode: wat de periode ervan afnam, en wat er nu in staat',
    });
    await expect(consumption.getByRole('row')).toHaveCount(contracts.rows.length + 2);
    const row = contracts.rows[0]!;
    const used = Math.round((100 * row.registered_time) / row.minutes_total);
    await expect(
      consumption.getByRole('progressbar', { name: `${row.contract_name}: ${used}% verbruikt` }).first(),
    ).toBeVisible();

    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(consumption).toBeVisible();
      await expectAccessible(page, `reports, time logged, ${width} px, nl`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `the page fits ${width} px`).toBeLessThanOrEqual(0);
    }
  },
);
