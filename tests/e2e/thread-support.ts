/**
 * What the message thread's specs share (thread-portal, thread-backoffice and thread-mail): the demo
 * users, the API as a user sees it, the tickets picked by what the API says (other test files share the
 * server), and the thread's parts on the page.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

export const CLIENT = 'client@example.com';
export const ADMIN = 'admin@example.com';

export async function token(request: APIRequestContext, username: string): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { username, password: 'demo' } });
  expect(res.ok()).toBe(true);
  return (await res.json()).access_token;
}

export async function api(request: APIRequestContext, username: string, path: string): Promise<any> {
  const res = await request.get(`/api${path}`, {
    headers: { authorization: `Bearer ${await token(request, username)}` },
  });
  expect(res.ok()).toBe(true);
  return res.json();
}

export const threadPath = (type: string, id: number) =>
  `/messages?builder[0][where][0]=morphable_type&builder[0][where][1]=${type}` +
  `&builder[1][where][0]=morphable_id&builder[1][where][1]=${id}&builder[2][paginate]=100&with[0]=attachments`;

export async function thread(request: APIRequestContext, username: string, ticketId: number): Promise<any[]> {
  return (await api(request, username, threadPath('ticket', ticketId))).data;
}

/**
 * A ticket of the client with a client that has an e-mail address (the operator may send to the client)
 * and a thread with an internal note and a file, as the operator sees it. Asked for, not taken from the
 * top of the list: specs before this one on the same server add notes and files to other tickets.
 */
export async function ticketWithInternalNote(request: APIRequestContext) {
  const tickets = (await api(request, CLIENT, '/tickets?builder[0][paginate]=100')).data as any[];
  for (const ticket of tickets) {
    if (ticket.client_id === null) continue;
    const { client } = await api(request, ADMIN, `/tickets/${ticket.id}?with[]=client`);
    if (!client?.email) continue;
    const messages = await thread(request, ADMIN, ticket.id);
    const internal = messages.filter((m) => !m.visible_to_client);
    const files = messages.filter(
      (m) => m.visible_to_client && m.attachments.some((a: any) => !a.is_embedded),
    );
    if (internal.length && files.length) return { ticket, messages };
  }
  throw new Error('no ticket of the client with an internal note and a file');
}

/** Any ticket of the client (the first of its list). */
export async function anyTicket(request: APIRequestContext, index = 0, { own = false } = {}) {
  const tickets = (await api(request, CLIENT, '/tickets?builder[0][paginate]=100')).data as any[];
  if (!own) return tickets[index]!;
  // The client's own tickets only: a mail to the client goes to the ticket's client, and the company
  // has other clients' tickets too.
  const me = (await api(request, CLIENT, '/auth/me')) as { user: { id: number } };
  return tickets.filter((t) => t.client_id === me.user.id)[index]!;
}

/**
 * A ticket of the client whose thread shows the client at least one message. Not the top of the list:
 * other files on the same server create tickets (an operator's, without a message yet) that sort first.
 */
export async function ticketWithMessages(request: APIRequestContext) {
  const tickets = (await api(request, CLIENT, '/tickets?builder[0][paginate]=100')).data as any[];
  for (const ticket of tickets) {
    if ((await thread(request, CLIENT, ticket.id)).length > 0) return ticket;
  }
  throw new Error('no ticket of the client has a message');
}

export const editor = (page: Page) => page.getByRole('textbox', { name: 'Schrijf een bericht…' });
export const messagesOf = (page: Page) => page.getByTestId('message');
export const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

/** Before each test: a clear storage on the test's first page load only, not on a reload within it. */
export async function clearStorageOnFirstLoad({ page }: { page: Page }) {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('e2e-started')) {
      localStorage.clear();
      sessionStorage.setItem('e2e-started', '1');
    }
  });
}
