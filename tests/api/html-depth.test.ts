/**
 * Message HTML nested deeper than MAX_HTML_DEPTH is refused before the sanitiser reads it (issue 31):
 * its parser's work grows with the square of the depth, and 1 MB of `<div>` (the body limit) held the
 * process for about 17 s. The refusal is the 422 naming the field; ordinary rich HTML still passes, and
 * an edit is held to the same rule. The database does not matter here: PGlite only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HTML_DEPTH } from '../../server/html/nesting.ts';
import { buildTestApp, firstClientTicketId, type TestApp } from './harness.ts';

const TOO_DEEP = `The message nests its HTML more than ${MAX_HTML_DEPTH} levels deep.`;

describe('message HTML depth', () => {
  let t: TestApp;
  let client: Record<string, string>;
  let admin: Record<string, string>;
  let ticketId: number;

  const post = (message: string, headers = client) =>
    t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers,
      payload: { morphable_type: 'ticket', morphable_id: ticketId, message },
    });

  beforeAll(async () => {
    t = await buildTestApp({ name: 'pglite' });
    client = await t.as('client@example.com');
    admin = await t.as('admin@example.com');
    ticketId = await firstClientTicketId(t.db);
  });
  afterAll(() => t.close());

  it('refuses 1 MB of nested <div> with a 422 on message, before sanitising', async () => {
    const open = '<div>'.repeat(200_000); // 1,000,000 characters, just under the body limit
    const res = await post(open);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ message: [TOO_DEEP] });
  });

  it('refuses depth hidden behind close tags that close nothing', async () => {
    // The parser ignores </span> with no open span, so every <div> stays open.
    const res = await post('<div>x</span>'.repeat(MAX_HTML_DEPTH + 1));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ message: [TOO_DEEP] });
  });

  it('takes HTML exactly at the limit, and ordinary rich HTML', async () => {
    const atLimit = '<div>'.repeat(MAX_HTML_DEPTH) + 'diep' + '</div>'.repeat(MAX_HTML_DEPTH);
    expect((await post(atLimit)).statusCode).toBe(201);
    const rich =
      '<h2>Kop</h2><p>Goed <strong>vet</strong> <em>schuin</em></p><ul><li>een<ul><li>twee</li></ul></li></ul>' +
      '<blockquote><p>citaat</p></blockquote><table><tbody><tr><td>1</td></tr></tbody></table>' +
      '<p><a href="https://example.com">link</a><br><img src="https://evil.example/a.png">x</p>';
    const res = await post(rich);
    expect(res.statusCode).toBe(201);
    const stored = await t.db
      .selectFrom('messages')
      .select('message')
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(stored.message).toContain('<li>een<ul><li>twee</li></ul></li>');
    expect(stored.message).toContain(
      '<p><a href="https://example.com" rel="noopener noreferrer" target="_blank">link</a><br />x</p>',
    );
  });

  it('holds an operator’s edit to the same rule', async () => {
    const created = await post('<p>eerst</p>', admin);
    expect(created.statusCode).toBe(201);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/messages/${created.json().id}`,
      headers: admin,
      payload: { message: '<blockquote>'.repeat(MAX_HTML_DEPTH + 1) },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ message: [TOO_DEEP] });
  });
});
