/**
 * The thread the message tests share (tests/api/messages-reading.test.ts and
 * tests/api/messages-writing.test.ts): the demo's users signed in, a quote link's holder, the first
 * tickets of Jansen BV (the demo client's) and of De Vries Installaties (the other client's), and on
 * the client's ticket an internal note with a file and an operator reply with a file.
 */
import { expect } from 'vitest';
import { createRecordToken } from '../../server/auth/plugin.ts';
import { demoPdf } from '../../server/db/seed/demo-files.ts';
import { buildTestApp, type Target } from './harness.ts';
import { multipart, type FormFile } from './multipart.ts';

export type MessagesDesk = Awaited<ReturnType<typeof startMessagesDesk>>;

/** The form fields that put a message on ticket `id`. */
export const onTicket = (id: number): [string, string][] => [
  ['morphable_type', 'ticket'],
  ['morphable_id', String(id)],
];
export const threadUrl = (id: number) =>
  `/api/messages?builder[0][where][0]=morphable_type&builder[0][where][1]=ticket` +
  `&builder[1][where][0]=morphable_id&builder[1][where][1]=${id}&builder[2][paginate]=100&with[0]=attachments`;

export async function startMessagesDesk(target: Target) {
  const t = await buildTestApp(target);
  const inject = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: object,
    payload?: object,
  ) => t.app.inject({ method, url, headers: headers as Record<string, string>, payload: payload as never });
  /** POST `url` as a multipart form. */
  const postForm =
    (url: string) =>
    (headers: Record<string, string>, fields: [string, string][], files: FormFile[] = []) => {
      const form = multipart(fields, files);
      return t.app.inject({
        method: 'POST',
        url,
        payload: form.payload,
        headers: { ...headers, ...form.headers },
      });
    };
  const post = postForm('/api/messages');

  const admin = await t.as('admin@example.com');
  const ticketOf = async (company: string) =>
    Number(
      (
        await t.db
          .selectFrom('tickets')
          .innerJoin('companies', 'companies.id', 'tickets.company_id')
          .select('tickets.id')
          .where('companies.name', '=', company)
          .where('tickets.is_template', '=', false)
          .orderBy('tickets.id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  const ticketId = await ticketOf('Jansen BV');
  const quote = await t.db
    .selectFrom('quotes')
    .select(['id', 'tenant_id'])
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const create = async (visible: boolean, text: string) => {
    const res = await post(
      admin,
      [...onTicket(ticketId), ['message', text], ['visible_to_client', visible ? '1' : '0']],
      [{ field: 'file[0]', name: visible ? 'antwoord.pdf' : 'intern.pdf', content: demoPdf([text]) }],
    );
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().id as number, attachmentId: res.json().attachments[0].id as number };
  };

  return {
    t,
    inject,
    post,
    /** POST /api/attachments as a multipart form. */
    upload: postForm('/api/attachments'),
    admin,
    firstLine: await t.as('operator@example.com'),
    client: await t.as('client@example.com'),
    other: await t.as('other@example.com'),
    quoteLink: {
      'x-quote-token': await createRecordToken(t.db, Number(quote.tenant_id), 'quotes', Number(quote.id)),
    },
    ticketId,
    otherTicketId: await ticketOf('De Vries Installaties'),
    clientId: Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'client@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    ),
    /** An internal note with a file, and an operator reply with a file, on the client's ticket. */
    note: await create(false, '<p>Interne notitie: klant belt vaak.</p>'),
    reply: await create(true, '<p>Wij komen morgen langs.</p>'),
    close: () => t.close(),
  };
}
