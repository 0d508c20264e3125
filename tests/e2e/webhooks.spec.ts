/**
 * Webhooks in the back office (issue 38, item 4), against a server of its own that allows private
 * targets (WEBHOOKS_ALLOW_PRIVATE), with a real HTTP receiver on loopback: second line creates a webhook
 * (the signing secret is shown once, in a dialog), sends a test event (the receiver gets it, signed with
 * that secret; the toast says it was delivered) and reads the delivery in the webhook's deliveries tab;
 * in Dutch at 1280 px and in English at 375 px, axe-clean (screenshots in /tmp/shots-webhooks/). The
 * delivery rules themselves are tested at the API (tests/api/webhooks-delivery.test.ts).
 */
import { createHmac } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test as base } from './fixtures.ts';
import { startServer, type E2eServer } from './server.ts';
import { startReceiver, type Receiver } from '../api/webhook-receiver.ts';
import { expectAccessible, inLanguage, startIn, storeSession } from './support.ts';

const test = base.extend<object, { desk: { server: E2eServer; receiver: Receiver } }>({
  desk: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const receiver = await startReceiver();
      const server = await startServer({ WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '250' });
      await use({ server, receiver });
      await server.stop();
      await receiver.close();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ desk }, use) => use(desk.server.baseURL),
});

const TEXT = {
  nl: {
    name: 'Naam',
    url: 'Adres (URL)',
    save: 'Opslaan',
    secretTitle: 'Ondertekeningsgeheim',
    copied: 'Ik heb het gekopieerd',
    test: 'Testgebeurtenis versturen',
    delivered: /De testgebeurtenis is afgeleverd \(status 200, \d+ ms\)\./,
    deliveries: 'Afleveringen',
    ticketCreated: 'Ticket aangemaakt',
    deliveredStatus: 'Afgeleverd',
  },
  en: {
    name: 'Name',
    url: 'Address (URL)',
    save: 'Save',
    secretTitle: 'Signing secret',
    copied: 'I have copied it',
    test: 'Send test event',
    delivered: /The test event was delivered \(status 200, \d+ ms\)\./,
    deliveries: 'Deliveries',
    ticketCreated: 'Ticket created',
    deliveredStatus: 'Delivered',
  },
} as const;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots-webhooks/${name}.png`, fullPage: true });
}

for (const [lang, width] of [
  ['nl', 1280],
  ['en', 375],
] as const) {
  test(
    inLanguage(lang, `creating a webhook, sending a test event and reading its delivery, at ${width} px`),
    async ({ page, desk }) => {
      const t = TEXT[lang];
      const path = `/e2e-${lang}`;
      await page.setViewportSize({ width, height: 900 });
      await startIn(page, lang);
      await storeSession(page, 'admin@example.com', { locale: lang });
      await page.goto('/webhooks/create');
      await page.getByRole('textbox', { name: new RegExp(`^${t.name}`) }).fill(`Webhook ${lang}`);
      await page
        .getByRole('textbox', { name: new RegExp(`^${t.url.replace(/[()]/g, '\\$&')}`) })
        .fill(`${desk.receiver.url}${path}`);
      await page.getByRole('checkbox', { name: t.ticketCreated }).check();
      await expectAccessible(page, `webhook form ${lang} ${width}`);
      await shot(page, `create-${lang}-${width}`);
      await page.getByRole('button', { name: t.save }).click();

      // The secret, once, in a dialog.
      const dialog = page.getByRole('dialog', { name: t.secretTitle });
      await expect(dialog).toBeVisible();
      const secret = await dialog.getByRole('textbox').inputValue();
      expect(secret).toMatch(/^whsec_/);
      await expectAccessible(page, `webhook secret ${lang} ${width}`);
      await shot(page, `secret-${lang}-${width}`);
      await dialog.getByRole('button', { name: t.copied }).click();
      await expect(dialog).toBeHidden();

      // A test event: delivered to the receiver, signed with that secret.
      await page.getByRole('button', { name: t.test }).click();
      await expect(page.getByRole('status').filter({ hasText: t.delivered })).toBeVisible();
      const request = desk.receiver.received.find((r) => r.path === path);
      expect(request?.headers['x-webhook-event']).toBe('ping');
      const timestamp = String(request!.headers['x-webhook-timestamp']);
      const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${request!.body}`).digest('hex')}`;
      expect(request!.headers['x-webhook-signature']).toBe(expected);

      // The delivery log: the webhook's tab.
      await page.getByRole('tab', { name: new RegExp(`^${t.deliveries}`) }).click();
      const panel = page.getByRole('tabpanel');
      await expect(panel.getByText('ping').first()).toBeVisible();
      await expect(panel.getByText(t.deliveredStatus).first()).toBeVisible();
      await expect(panel.getByText('200').first()).toBeVisible();
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(sideways).toBeLessThanOrEqual(0);
      await expectAccessible(page, `webhook deliveries ${lang} ${width}`);
      await shot(page, `deliveries-${lang}-${width}`);
    },
  );
}
