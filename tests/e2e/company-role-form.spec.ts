/**
 * A company role in the back office (issue 39): what it sees company-wide and only where its own are the
 * portal's resources by their translated names, never the stored names ('companies', 'invoices'). The
 * detail shows them as chips; the form offers one checkbox per resource that fits (own: only resources
 * that know what a client's own record is); saving sends the names, and the detail and the list show the
 * new chips. nl at 1280 px and en at 375 px, axe-clean, with screenshots.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { api, expectAccessible, inLanguage, startIn, storeSession } from './support.ts';

const WORDS = {
  nl: {
    edit: 'Bewerken',
    save: 'Opslaan',
    companyWide: 'Ziet van het hele bedrijf',
    own: 'Ziet alleen eigen en gedeelde',
    companies: 'Bedrijven',
    tickets: 'Tickets',
    invoices: 'Facturen',
    contracts: 'Contracten',
  },
  en: {
    edit: 'Edit',
    save: 'Save',
    companyWide: 'Sees company-wide',
    own: 'Sees own and shared only',
    companies: 'Companies',
    tickets: 'Tickets',
    invoices: 'Invoices',
    contracts: 'Contracts',
  },
} as const;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots-company-roles/${name}.png`, fullPage: true });
}

/** The chips of the detail's field, by their text. */
const chips = (page: Page) => page.locator('.MuiChip-root');

for (const [lang, width] of [
  ['nl', 1280],
  ['en', 375],
] as const) {
  test(inLanguage(lang, `a company role's resources by their names, at ${width} px`), async ({ page }) => {
    const w = WORDS[lang];
    await page.setViewportSize({ width, height: 900 });
    await startIn(page, lang);
    const token = await storeSession(page, 'admin@example.com', { locale: lang });
    const name = `Inkoop ${lang} ${Date.now()}`;
    const role = (await api(page, token, 'POST', '/company-roles', {
      name,
      company_resources: ['companies'],
      own_resources: ['tickets'],
    })) as { id: number };
    try {
      await page.goto(`/company-roles/${role.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
      await expect(chips(page)).toHaveText([w.companies, w.tickets]);
      await expect(page.getByText('companies', { exact: true })).toHaveCount(0);

      await page.getByRole('button', { name: w.edit }).click();
      const companyWide = page.getByRole('group', { name: w.companyWide });
      const own = page.getByRole('group', { name: w.own });
      await expect(companyWide.getByRole('checkbox', { name: w.companies })).toBeChecked();
      await expect(companyWide.getByRole('checkbox', { name: w.invoices })).not.toBeChecked();
      // Only tickets know what a client's own record is: the one choice there.
      await expect(own.getByRole('checkbox')).toHaveCount(1);
      await expect(own.getByRole('checkbox', { name: w.tickets })).toBeChecked();
      await companyWide.getByRole('checkbox', { name: w.invoices }).check();
      await companyWide.getByRole('checkbox', { name: w.contracts }).check();
      await expectAccessible(page, `company role form, ${width} px, ${lang}`);
      await shot(page, `form-${lang}-${width}`);

      const put = page.waitForRequest(
        (r) => r.url().endsWith(`/api/company-roles/${role.id}`) && ['PUT', 'PATCH'].includes(r.method()),
      );
      const answered = page.waitForResponse(
        (r) => r.url().endsWith(`/api/company-roles/${role.id}`) && r.request().method() !== 'GET',
      );
      await page.getByRole('button', { name: w.save }).click();
      expect((await put).postDataJSON().company_resources).toEqual(['companies', 'invoices', 'contracts']);
      expect((await answered).status()).toBe(200);

      await expect(chips(page)).toHaveText([w.companies, w.invoices, w.contracts, w.tickets]);
      await expectAccessible(page, `company role detail, ${width} px, ${lang}`);
      await shot(page, `detail-${lang}-${width}`);

      // The list (a table at 1280 px, cards at 375 px) names them the same way.
      await page.goto('/company-roles');
      // A card: the innermost box that holds the role's heading and chips.
      const row =
        width > 600
          ? page.getByRole('row').filter({ hasText: name })
          : page
              .locator('div')
              .filter({ has: page.getByRole('heading', { level: 2, name }) })
              .filter({ has: page.locator('.MuiChip-root') })
              .last();
      await expect(row.locator('.MuiChip-root')).toHaveText([
        w.companies,
        w.invoices,
        w.contracts,
        w.tickets,
      ]);
      await expectAccessible(page, `company roles list, ${width} px, ${lang}`);
      await shot(page, `list-${lang}-${width}`);
    } finally {
      await api(page, token, 'DELETE', `/company-roles/${role.id}`);
    }
  });
}
