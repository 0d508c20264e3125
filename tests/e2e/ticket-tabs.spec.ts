import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, storeSession } from './support.ts';

/** The API as the signed-in page: the same bearer token the app stores (storeSession's). */
async function api(page: Page, token: string, path: string) {
  const res = await page.request.get(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/**
 * The newest time registration that is on a ticket (the demo has them): another test on this worker's
 * server may have booked time on no ticket, which sorts first (a detail of ticket "null" is a 422, and
 * the screen said it could not be loaded).
 */
const ON_A_TICKET = '/time-registrations?builder[0][whereNotNull]=ticket_id&builder[1][paginate]=1';

test('the ticket tab bar shows badges in minutes and euros, lists the related rows and opens them', async ({
  page,
}) => {
  const token = await storeSession(page, 'admin@example.com');
  // A ticket with time registrations (the demo has them) and what the API says they add up to.
  const registrations = await api(page, token, ON_A_TICKET);
  const ticketId = registrations.data[0].ticket_id as number;
  const ticket = await api(
    page,
    token,
    `/tickets/${ticketId}?withSum[]=timeRegistrations.time_spent&withSum[]=usedProducts.total&withCount[]=messages`,
  );
  const minutes = ticket.timeRegistrations_sum_time_spent as number;
  const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

  await page.goto(`/tickets/${ticketId}`);
  const tabs = page.getByRole('tablist', { name: 'Tabbladen van het record' });
  await expect(tabs.getByRole('tab')).toHaveText([
    /^Berichten/,
    /^Urenregistraties/,
    /^Gebruikte producten/,
    /^Assets van het bedrijf/,
    /^Andere tickets van het bedrijf/,
    /^Geschiedenis/,
  ]);
  await expect(page.getByTestId('tab-badge-messages')).toHaveText(String(ticket.messages_count));
  await expect(page.getByTestId('tab-badge-timeRegistrations')).toHaveText(hhmm);
  await expect(page.getByTestId('tab-badge-usedProducts')).toHaveText(/^€\s\d+,\d{2}$/);
  // The messages tab is first and holds the thread.
  await expect(page.getByTestId('message-thread')).toBeVisible();

  await tabs.getByRole('tab', { name: /^Urenregistraties/ }).click();
  const panel = page.getByRole('tabpanel');
  const rows = panel.getByRole('row');
  await expect(rows.first()).toBeVisible();
  // The ticket's own column is left out: every row is this ticket's.
  await expect(panel.getByRole('columnheader', { name: 'Ticket', exact: true })).toHaveCount(0);
  await expectAccessible(page, 'ticket detail, time registrations tab');

  // The other tickets of the company never include this one; a row opens its ticket.
  await tabs.getByRole('tab', { name: /^Andere tickets van het bedrijf/ }).click();
  const related = panel.getByRole('link').first();
  await expect(related).toBeVisible();
  await expect(panel.getByRole('link', { name: String(ticketId), exact: true })).toHaveCount(0);
  // The link may read the ticket's id or its reference; its address names the ticket's id.
  const href = (await related.getAttribute('href'))!;
  const id = /\/tickets\/(\d+)$/.exec(href)?.[1];
  expect(id, href).toBeDefined();
  expect(id).not.toBe(String(ticketId));
  await related.click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/ - Ticket$/);
});

for (const { lang, width, timeLabel } of [
  { lang: 'nl', width: 1280, timeLabel: 'Tijd op dit ticket' },
  { lang: 'en', width: 375, timeLabel: 'Time on this ticket' },
] as const) {
  test(`(${lang}, ${width} px) a ticket's detail shows whole: its tab bar never moves once it is there`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const token = await storeSession(page, 'admin@example.com', { locale: lang });
    const registrations = await api(page, token, ON_A_TICKET);
    // Where the tab bar is, each frame from the first in which it is there.
    await page.addInitScript(() => {
      const tops: number[] = [];
      (window as unknown as { tabBarTops: number[] }).tabBarTops = tops;
      const sample = () => {
        const bar = document.querySelector('[role="tablist"]');
        if (bar) tops.push(Math.round(bar.getBoundingClientRect().top + window.scrollY));
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    await page.goto(`/tickets/${registrations.data[0].ticket_id}`);
    // The parts that used to arrive one by one after the tab bar: the ticket's own buttons, the time
    // chips (their own requests) and the custom fields in the card (theirs).
    await expect(page.getByRole('group', { name: timeLabel })).toBeVisible();
    await expect(page.getByTestId(/^custom-field-/).first()).toBeVisible();
    await expect(page.getByRole('tab').first()).toBeVisible();
    // Two more frames, so that a move caused by what just arrived would be sampled.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    const tops = await page.evaluate(() => (window as unknown as { tabBarTops: number[] }).tabBarTops);
    expect(tops.length).toBeGreaterThan(2);
    expect([...new Set(tops)]).toEqual([tops[0]]);
  });
}

test('on a phone the tabs scroll with arrows, 100 px a click', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const token = await storeSession(page, 'admin@example.com');
  const registrations = await api(page, token, ON_A_TICKET);
  await page.goto(`/tickets/${registrations.data[0].ticket_id}`);
  const scroller = page.locator('[role="tablist"]').locator('xpath=..');
  const right = page.getByRole('button', { name: 'Naar rechts scrollen' });
  await expect(right).toBeVisible();
  await expect(page.getByRole('button', { name: 'Naar links scrollen' })).toHaveCount(0);
  await right.click();
  await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBe(100);
  await expect(page.getByRole('button', { name: 'Naar links scrollen' })).toBeVisible();
  await expectAccessible(page, 'ticket detail tabs at 375 px');
});

test("an asset's back-office detail lives at /assets/{id} beside the build's files, with its thread and tickets", async ({
  page,
}) => {
  const token = await storeSession(page, 'admin@example.com');
  const assets = await api(page, token, '/assets?builder[0][paginate]=1&withCount[0]=tickets');
  const asset = assets.data[0];
  await page.goto(`/assets/${asset.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${asset.name} - Asset`);
  const tabs = page.getByRole('tablist', { name: 'Tabbladen van het record' });
  await expect(tabs.getByRole('tab')).toHaveText([/^Berichten/, /^Tickets/]);
  await expect(page.getByTestId('tab-badge-tickets')).toHaveText(String(asset.tickets_count));
  await expect(page.getByTestId('message-thread')).toBeVisible();
  await expectAccessible(page, 'asset detail with tabs');
});
