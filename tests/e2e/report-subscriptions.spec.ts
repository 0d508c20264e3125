/**
 * Issue 36, item 4: a second-line operator subscribes to the service report as the page shows it (per
 * month, broken down per company, one company's tickets) by mail, monthly with a link; the subscription
 * shows in their list with those settings (and the API keeps them), is paused and deleted there. The
 * dialog and the page are axe-clean at 1280 and 375 px. One language (Dutch); the translation sweep
 * reads the dialog and the list in all three.
 */
import { expect, test } from './fixtures.ts';
import { expectAccessible, inLanguage, signIn, startIn } from './support.ts';

test(
  inLanguage('nl', 'a second-line operator subscribes to the report by mail and manages it'),
  async ({ page }) => {
    await startIn(page, 'nl');
    const token = await signIn(page, 'admin@example.com', 'backoffice', { to: '/' });
    const auth = { authorization: `Bearer ${token}` };
    const company = (await (
      await page.request.get('/api/companies?builder[0][where][0]=name&builder[0][where][1]=Jansen BV', {
        headers: auth,
      })
    ).json()) as { data: { id: number }[] };
    const companyId = company.data[0]!.id;
    const filter = encodeURIComponent(JSON.stringify({ company_id: [companyId] }));
    await page.goto(
      `/reports?tab=tickets&period=last_month&group=month&line=2&by=company_id&filter=${filter}`,
    );
    await expect(page.getByRole('heading', { level: 1, name: 'Rapportages' })).toBeVisible();
    const list = page.getByRole('list', { name: 'Je rapporten per mail' });
    // The demo's own subscription, paused.
    await expect(list.getByRole('listitem')).toHaveCount(1);

    await page.getByRole('button', { name: 'Abonneren per mail' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dit rapport per mail ontvangen' });
    await expect(dialog).toBeVisible();
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await expect(dialog).toBeVisible();
      await expectAccessible(page, `subscribe dialog at ${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await dialog.getByRole('radio', { name: /^Maandelijks/ }).check();
    await dialog.getByRole('radio', { name: 'Een link naar deze pagina' }).check();
    await dialog.getByRole('button', { name: 'Abonneren' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByText('Geabonneerd: de eerste mail komt als de huidige periode voorbij is.'),
    ).toBeVisible();

    const name = 'Tickets, maandelijks, Een link naar deze pagina';
    const item = list.getByRole('listitem').filter({ hasText: name });
    await expect(item).toContainText('Per maand, Tweede lijn, uitsplitsing: Bedrijf; 1 filter');
    // What the server keeps: the page's settings, not its dates.
    const kept = (await (await page.request.get('/api/report-subscriptions', { headers: auth })).json()) as {
      data: Record<string, unknown>[];
    };
    expect(kept.data.at(-1)).toMatchObject({
      report: 'tickets',
      frequency: 'monthly',
      delivery: 'link',
      group: 'month',
      line: 2,
      by: 'company_id',
      filters: { company_id: [companyId] },
      paused: false,
    });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await expect(item).toBeVisible();
      await expectAccessible(page, `reports with subscriptions at ${width}`);
    }

    await item.getByRole('button', { name: `Pauzeren: ${name}` }).click();
    await expect(item.getByText('Gepauzeerd')).toBeVisible();
    await item.getByRole('button', { name: `Verwijderen: ${name}` }).click();
    await expect(page.getByText('Abonnement verwijderd.')).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);
  },
);
