/**
 * Knowledge base in the portal (issue 39, item 4): typing a new ticket's description suggests the
 * matching knowledge articles (full-text, in the article's language); opening one shows it in a dialog;
 * "This solved it" counts a deflection and leaves the form without creating a ticket. Dutch and English,
 * at 1280 and 375 px, axe-clean (screenshots in /tmp/shots-kb/). The operator's "Article link" in the
 * message editor inserts a link to an article. The public pages (/kb) without a sign-in: in Dutch, and
 * for an English reader an English article, its search, its page and its sitemap entry, and the words
 * in German for a German browser.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { api, expectAccessible, inLanguage, signIn, startIn, storeSession, type Lang } from './support.ts';

const CLIENT = 'client@example.com';

const WORDS = {
  nl: {
    typed: 'Mijn printer drukt niets meer af, alles blijft in de wachtrij staan',
    article: 'Printer drukt niet af: wachtrij leegmaken',
    suggestions: 'Deze artikelen beantwoorden misschien uw vraag',
    description: 'Omschrijving',
    solved: 'Dit heeft het opgelost',
    back: 'Terug naar mijn ticket',
    thanks: 'Fijn dat het geholpen heeft. Er is geen ticket aangemaakt.',
  },
  en: {
    typed: 'Outlook keeps asking for my password every morning',
    article: 'Outlook asks for the password again and again',
    suggestions: 'These articles may answer your question',
    description: 'Description',
    solved: 'This solved it',
    back: 'Back to my ticket',
    thanks: 'Glad it helped. No ticket was created.',
  },
} as const;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots-kb/${name}.png`, fullPage: true });
}

/** Counts POST /api/tickets calls the page makes. */
function countTicketPosts(page: Page): () => number {
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/tickets') posts += 1;
  });
  return () => posts;
}

for (const lang of ['nl', 'en'] as const satisfies readonly Lang[]) {
  for (const width of [1280, 375]) {
    test(
      inLanguage(lang, `an article is suggested while typing a new ticket, and opened at ${width} px`),
      async ({ page }) => {
        const t = WORDS[lang];
        const posts = countTicketPosts(page);
        await page.setViewportSize({ width, height: 900 });
        await startIn(page, lang);
        await signIn(page, CLIENT, 'portal', { to: '/app/tickets/create', locale: lang });
        const description = page.getByLabel(t.description);
        await description.fill(t.typed);
        const suggestions = page.getByRole('region', { name: t.suggestions });
        await expect(suggestions).toBeVisible();
        const first = suggestions.getByRole('button').first();
        await expect(first).toContainText(t.article);
        await expectAccessible(page, `suggestions ${lang} ${width}`);
        await shot(page, `suggest-${lang}-${width}`);

        await first.click();
        const dialog = page.getByRole('dialog', { name: t.article });
        await expect(dialog).toBeVisible();
        await expect(dialog.locator('.article-body')).not.toBeEmpty();
        await expectAccessible(page, `article ${lang} ${width}`);
        await shot(page, `article-${lang}-${width}`);

        if (width === 375) {
          // Not solved: back to the form, what was typed kept.
          await dialog.getByRole('button', { name: t.back }).click();
          await expect(dialog).toBeHidden();
          await expect(description).toHaveValue(t.typed);
        } else {
          // Solved: counted, and the form is left without a ticket.
          await dialog.getByRole('button', { name: t.solved }).click();
          await expect(page.getByText(t.thanks)).toBeVisible();
          await expect(page).toHaveURL(/\/app\/tickets$/);
        }
        expect(posts()).toBe(0);
      },
    );
  }
}

test(inLanguage('en', 'the operator inserts an article link into a reply'), async ({ page }) => {
  await startIn(page, 'en');
  const token = await signIn(page, 'admin@example.com', 'backoffice', { to: '/tickets', locale: 'en' });
  const tickets = (await api(page, token, 'GET', '/tickets')) as { data: { id: number }[] };
  await page.goto(`/tickets/${tickets.data[0]!.id}`);
  await page.getByRole('button', { name: 'Article link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Insert a link to an article' });
  await dialog.getByLabel('Search articles').fill('outlook password');
  await dialog.getByRole('button', { name: /Outlook asks for the password/ }).click();
  await expect(dialog).toBeHidden();
  const link = page.locator('.message-editor-content a', {
    hasText: 'Outlook asks for the password again and again',
  });
  await expect(link).toHaveAttribute('href', /\/app\/knowledge-articles\/\d+$/);
  await expectAccessible(page, 'reply with an article link');
  await shot(page, 'link-en-1280');
});

test(
  inLanguage('nl', 'the portal’s knowledge base lists and shows the client’s articles at 375 px'),
  async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 900 });
    await startIn(page, 'nl');
    await signIn(page, CLIENT, 'portal', { to: '/app/knowledge-articles', locale: 'nl' });
    await expect(page.getByText('VPN verbinden bij Jansen BV').first()).toBeVisible();
    // Operators only: never in a client's list.
    await expect(page.getByText('Firewall-beheer: beheerwachtwoorden')).toHaveCount(0);
    await expectAccessible(page, 'portal knowledge base');
    await shot(page, 'portal-list-nl-375');
    await page.getByText('VPN verbinden bij Jansen BV').first().click();
    await expect(page).toHaveURL(/\/app\/knowledge-articles\/\d+/);
    await expect(page.getByRole('heading', { level: 1, name: 'VPN verbinden bij Jansen BV' })).toBeVisible();
    // The text as HTML, not its markup.
    await expect(page.locator('.article-body em')).toHaveText('Jansen BV');
    await expectAccessible(page, 'portal knowledge article');
    await shot(page, 'portal-show-nl-375');
  },
);

test(
  inLanguage('en', 'the back office lists the articles with their visibility at 1280 px'),
  async ({ page }) => {
    await startIn(page, 'en');
    await signIn(page, 'admin@example.com', 'backoffice', { to: '/knowledge-articles', locale: 'en' });
    await expect(page.getByText('Firewall-beheer: beheerwachtwoorden')).toBeVisible();
    await expect(page.getByText('Internal (operators)').first()).toBeVisible();
    await expectAccessible(page, 'back office knowledge base');
    await shot(page, 'backoffice-list-en-1280');
  },
);

test(
  inLanguage('nl', 'the public knowledge base needs no sign-in and shows public articles only'),
  async ({ page }) => {
    await startIn(page, 'nl');
    await page.setViewportSize({ width: 375, height: 800 });
    // The browser's language (the tests' locale is Dutch) picks the page's words.
    await page.goto('/kb');
    await expect(page.getByRole('heading', { level: 1, name: 'Kennisbank' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Printer drukt niet af: wachtrij leegmaken' })).toBeVisible();
    await expect(page.getByText('Outlook asks for the password')).toHaveCount(0);
    await expectAccessible(page, 'public knowledge base');
    await shot(page, 'public-list-nl-375');
    await page.getByRole('link', { name: 'Printer drukt niet af: wachtrij leegmaken' }).click();
    await expect(page).toHaveURL(/\/kb\/\d+-printer-drukt-niet-af-wachtrij-leegmaken$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Printer drukt niet af: wachtrij leegmaken',
    );
    await expectAccessible(page, 'public knowledge article');
    await shot(page, 'public-show-nl-375');
  },
);

// The public pages speak the browser's language (Accept-Language, from the browser's locale; the
// tests' own is Dutch).
test.describe('an English browser', () => {
  test.use({ locale: 'en-GB' });
  test(
    inLanguage('en', 'an English reader finds a public English article, its page and its sitemap entry'),
    async ({ page }) => {
      await startIn(page, 'en');
      await page.setViewportSize({ width: 375, height: 800 });
      const token = await storeSession(page, 'admin@example.com', { locale: 'en' });
      const title = `Resetting a forgotten VPN passphrase ${Date.now()}`;
      const article = (await api(page, token, 'POST', '/knowledge-articles', {
        title,
        body: '<p>Open the VPN client, choose <strong>Forgot passphrase</strong> and follow the mail.</p>',
        language: 'en',
        visibility: 'public',
      })) as { id: number };
      try {
        await page.goto('/kb');
        await expect(page.getByRole('heading', { level: 1, name: 'Knowledge base' })).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('lang', 'en');
        await expect(page.getByRole('link', { name: title })).toBeVisible();
        // Each line in its article's own language, whatever the page's words are in.
        await expect(page.getByRole('listitem').filter({ hasText: title })).toHaveAttribute('lang', 'en');
        await expect(
          page.getByRole('listitem').filter({ hasText: 'Printer drukt niet af: wachtrij leegmaken' }),
        ).toHaveAttribute('lang', 'nl');
        await expectAccessible(page, 'public knowledge base in English');
        await shot(page, 'public-list-en-375');

        // Searched in English words (the English dictionary stems "passphrases" to "passphrase").
        await page
          .getByRole('searchbox', { name: 'Search the knowledge base' })
          .fill('forgotten passphrases');
        await page.getByRole('button', { name: 'Search' }).click();
        await expect(page).toHaveURL(/\/kb\?q=forgotten\+passphrases/);
        await expect(page.getByRole('listitem').first().getByRole('link')).toHaveText(title);
        await page.getByRole('searchbox', { name: 'Search the knowledge base' }).fill('zqxwv');
        await page.getByRole('button', { name: 'Search' }).click();
        await expect(page.getByText('No articles found.')).toBeVisible();

        await page.goto('/kb');
        await page.getByRole('link', { name: title }).click();
        await expect(page).toHaveURL(
          new RegExp(`/kb/${article.id}-resetting-a-forgotten-vpn-passphrase-\\d+$`),
        );
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
        await expect(page.getByText(/^Updated on \d{4}-\d{2}-\d{2}$/)).toBeVisible();
        await expect(page.locator('article')).toHaveAttribute('lang', 'en');
        await expectAccessible(page, 'public knowledge article in English');
        await shot(page, 'public-show-en-375');
        await expect(page.getByRole('link', { name: 'All articles' })).toHaveAttribute('href', '/kb');

        // An address that is no public article: the same words, and a 404.
        const missing = await page.goto('/kb/999999999-nothing');
        expect(missing?.status()).toBe(404);
        await expect(page.getByRole('link', { name: 'All articles' })).toBeVisible();

        // The sitemap lists the article's address, as its link on the list says it.
        const sitemap = await page.request.get('/kb/sitemap.xml');
        expect(sitemap.headers()['content-type']).toContain('application/xml');
        const path = new URL(page.url()).origin;
        expect(await sitemap.text()).toMatch(
          new RegExp(
            `<loc>${path.replace(/[.]/g, '\\.')}/kb/${article.id}-resetting-a-forgotten-vpn-passphrase-\\d+</loc>`,
          ),
        );

        // A German browser gets the page's own words in German.
        const german = await page.request.get('/kb', { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
        const html = await german.text();
        expect(html).toContain('<html lang="de">');
        expect(html).toContain('<h1>Wissensdatenbank</h1>');
        expect(html).toContain('>Suchen</button>');
      } finally {
        await api(page, token, 'DELETE', `/knowledge-articles/${article.id}`);
      }
    },
  );
});

test(inLanguage('en', 'an operator writes an article with the rich text editor'), async ({ page }) => {
  await startIn(page, 'en');
  const token = await signIn(page, 'admin@example.com', 'backoffice', {
    to: '/knowledge-articles/create',
    locale: 'en',
  });
  await page.getByLabel('Title').fill('Resetting the office router');
  const editor = page.getByRole('textbox', { name: 'Text' });
  await editor.click();
  await page.keyboard.type('Pull the plug, wait ten seconds, ');
  await page.keyboard.press('Control+b');
  await page.keyboard.type('plug it back in');
  await expectAccessible(page, 'new article');
  await shot(page, 'backoffice-create-en-1280');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Resetting the office router').first()).toBeVisible();
  // Stored as the editor's HTML, the bold kept.
  const builder = encodeURIComponent(JSON.stringify([{ where: ['title', 'Resetting the office router'] }]));
  const saved = (await api(page, token, 'GET', `/knowledge-articles?builder=${builder}`)) as {
    data: { body: string }[];
  };
  expect(saved.data[0]!.body).toContain('<strong>plug it back in</strong>');
});
