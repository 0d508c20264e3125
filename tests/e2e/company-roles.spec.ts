/**
 * Company roles in the portal (issue 39): Pieter, the company admin of Jansen BV, creates a ticket for his
 * colleague Lotte, a member; she then sees it in her list and opens it. A member is offered no colleague
 * picker. Dutch and English, at 1280 and 375 px; axe-core on the form and on her ticket.
 */
import { expect, test } from './fixtures.ts';
import { expectAccessible, inLanguage, signIn, startIn, storeSession, type Lang } from './support.ts';

const ADMIN = 'client@example.com';
const MEMBER = 'lotte.smit@jansenbv.nl';

const WORDS = {
  nl: {
    create: 'Aanmaken',
    for: 'Voor',
    description: 'Omschrijving',
    priority: 'Prioriteit',
    high: 'Hoog',
    save: 'Opslaan',
    created: 'Ticket aangemaakt',
  },
  en: {
    create: 'Create',
    for: 'For',
    description: 'Description',
    priority: 'Priority',
    high: 'High',
    save: 'Save',
    created: 'Ticket created',
  },
} as const;

for (const lang of ['nl', 'en'] as const satisfies readonly Lang[]) {
  for (const width of [1280, 375]) {
    test(
      inLanguage(lang, `a company admin creates a ticket for a colleague, who sees it, at ${width} px`),
      async ({ page }) => {
        const w = WORDS[lang];
        await page.setViewportSize({ width, height: 900 });
        await startIn(page, lang);
        await signIn(page, ADMIN, 'portal', { to: '/app/tickets/create', locale: lang });
        const description = `Nieuwe laptop voor Lotte (${lang} ${width} ${Date.now()})`;
        await page.getByLabel(w.description).fill(description);
        const priority = page.getByRole('combobox', { name: w.priority });
        await priority.click();
        await priority.pressSequentially(w.high.slice(0, 3), { delay: 50 });
        await page.getByRole('option', { name: w.high }).click();
        await page.getByRole('combobox', { name: 'Impact' }).click();
        await page.getByRole('option', { name: 'Afdeling' }).click();
        await page.getByRole('combobox', { name: w.for }).click();
        await page.getByRole('option', { name: 'Lotte Smit' }).click();
        await expectAccessible(page, 'new ticket for a colleague');
        if (process.env.ROLES_SHOTS)
          await page.screenshot({
            path: `${process.env.ROLES_SHOTS}/create-${lang}-${width}.png`,
            fullPage: true,
          });
        await page.getByRole('button', { name: w.save }).click();
        await expect(page.getByText(w.created)).toBeVisible();
        await expect(page).toHaveURL(/\/app\/tickets\/\d+$/);
        const id = /\/app\/tickets\/(\d+)$/.exec(page.url())![1];

        // Lotte, a member: the ticket made for her is in her list and opens; she is offered no colleague.
        await storeSession(page, MEMBER, { locale: lang });
        await page.goto('/app/tickets');
        await expect(page.getByText(description).first()).toBeVisible();
        await page.goto(`/app/tickets/${id}`);
        await expect(page.getByText(description).first()).toBeVisible();
        await expectAccessible(page, 'the member sees the ticket made for her');
        if (process.env.ROLES_SHOTS)
          await page.screenshot({
            path: `${process.env.ROLES_SHOTS}/member-${lang}-${width}.png`,
            fullPage: true,
          });
        await page.goto('/app/tickets/create');
        await expect(page.getByLabel(w.description)).toBeVisible();
        await expect(page.getByRole('combobox', { name: w.for })).toHaveCount(0);
      },
    );
  }
}
