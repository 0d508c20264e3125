/**
 * No side door through a route of its own (issue 39, item 1): every `{id}` route the OpenAPI document
 * lists (the generic record routes and each resource's actions: files, PDFs, the invoicing file,
 * accept, buy, a ticket's balance and SLA…) is called by a member and by a finance client of Jansen BV
 * with the id of a record her company admin sees and she does not. Each answer must be exactly what the
 * same route answers for a record that does not exist, 404 (not hers to see) or 403 (not hers to do):
 * a 200, a 422 that reads the body of a record she may not see, or an answer that tells the record
 * exists is a door. The routes come from the document, so a route added later is probed too.
 * And the portal's writes that name a record (a message on a ticket, a file on a message, a checklist
 * item ticked) refuse one of a colleague's ticket the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/schema/registry.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { FINANCE, makeFinanceClient } from './finance-client.ts';
import { multipart } from './multipart.ts';

const ADMIN = 'client@example.com';
const MEMBER = 'lotte.smit@jansenbv.nl';
const OPERATOR = 'admin@example.com';
/** Route prefixes that are no resource's name but take one's id: SPEC 7's invoicing file is an invoice's. */
const ID_OF: Record<string, string> = { invoicing: 'invoices' };
/** An id no record has. */
const MISSING = 2_147_483_647;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

describe.each(targets)('company roles: every {id} route on $name', (target) => {
  let t: TestApp;
  const routes: { method: Method; path: string; resource: string }[] = [];

  const list = async (email: string, resource: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/${resource}?builder[0][paginate]=100`,
      headers: await t.as(email),
    });
    return res.statusCode === 200 ? (res.json().data as { id: number }[]).map((r) => r.id) : [];
  };

  beforeAll(async () => {
    t = await buildTestApp(target, { logger: { level: 'error' } });
    await makeFinanceClient(t);
    const doc = await t.app.inject({
      method: 'GET',
      url: '/api/docs/openapi.json',
      headers: await t.as(OPERATOR),
    });
    expect(doc.statusCode).toBe(200);
    for (const [path, operations] of Object.entries<Record<string, unknown>>(doc.json().paths)) {
      if (!path.includes('{id}')) continue;
      const first = path.split('/')[1]!;
      const resource = ID_OF[first] ?? first;
      if (!registry().resources.get(resource)?.portal) continue;
      for (const method of Object.keys(operations))
        routes.push({ method: method.toUpperCase() as Method, path, resource });
    }
  });
  afterAll(() => t?.close());

  it.each([MEMBER, FINANCE])(
    '%s gets from every {id} route for a record only her admin sees what a missing record gets (404, or 403)',
    async (email) => {
      const problems: string[] = [];
      const beyond = new Map<string, number>();
      for (const resource of new Set(routes.map((r) => r.resource))) {
        const hers = new Set(await list(email, resource));
        const id = (await list(ADMIN, resource)).find((i) => !hers.has(i));
        if (id !== undefined) beyond.set(resource, id);
      }
      let probed = 0;
      for (const { method, path, resource } of routes) {
        const id = beyond.get(resource);
        if (id === undefined) continue;
        probed += 1;
        const call = async (recordId: number) =>
          t.app.inject({
            method,
            url: `/api${path.replace('{id}', String(recordId))}`,
            headers: await t.as(email),
            ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
          });
        const res = await call(id);
        // Exactly as for a record that does not exist: 404 where she may call the route, 403 where not.
        const expected = (await call(MISSING)).statusCode;
        if (res.statusCode !== expected || (expected !== 404 && expected !== 403))
          problems.push(
            `${method} ${path}: ${res.statusCode}, a missing record ${expected}: ${res.body.slice(0, 100)}`,
          );
      }
      expect(problems).toEqual([]);
      // The probe probed: records of the role-narrowed resources, through their actions too.
      expect([...beyond.keys()]).toEqual(expect.arrayContaining(['tickets', 'messages', 'attachments']));
      expect(probed).toBeGreaterThan(20);
    },
  );

  it('the same ids open for her admin: the probe asked for real records', async () => {
    const member = new Set(await list(MEMBER, 'tickets'));
    const id = (await list(ADMIN, 'tickets')).find((i) => !member.has(i))!;
    for (const path of routes
      .filter((r) => r.resource === 'tickets' && r.method === 'GET')
      .map((r) => r.path)) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api${path.replace('{id}', String(id))}`,
        headers: await t.as(ADMIN),
      });
      expect(res.statusCode, `${path}: ${res.body.slice(0, 100)}`).toBe(200);
    }
  });

  it("a member's writes that name a colleague's unshared ticket, its message or its checklist are 404", async () => {
    const member = await t.as(MEMBER);
    const hers = new Set(await list(MEMBER, 'tickets'));
    const ticket = (await list(ADMIN, 'tickets')).find((i) => !hers.has(i))!;
    const item = await t.app.inject({
      method: 'POST',
      url: '/api/checklist-items',
      headers: await t.as(OPERATOR),
      payload: { ticket_id: ticket, text: 'Stap', visible_to_client: true },
    });
    expect(item.statusCode, item.body).toBe(201);
    // The ticket's message the client sees, written here: which of the seed's tickets comes first
    // in the list moves with the date, and not every one has a message for the client.
    const message = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: await t.as(OPERATOR),
      payload: {
        message: '<p>Wij kijken ernaar</p>',
        morphable_type: 'ticket',
        morphable_id: ticket,
        visible_to_client: true,
      },
    });
    expect(message.statusCode, message.body).toBe(201);
    const file = multipart(
      [['message_id', String(message.json().id)]],
      [{ field: 'file', name: 'notitie.txt', content: Buffer.from('hallo') }],
    );
    const writes = [
      {
        method: 'POST' as const,
        url: '/api/messages',
        headers: member,
        payload: { message: '<p>Ook van mij</p>', morphable_type: 'ticket', morphable_id: ticket },
      },
      {
        method: 'PUT' as const,
        url: `/api/checklist-items/${item.json().id}`,
        headers: member,
        payload: { done: true },
      },
      {
        method: 'POST' as const,
        url: '/api/attachments',
        headers: { ...member, ...file.headers },
        payload: file.payload,
      },
    ];
    for (const write of writes) {
      const res = await t.app.inject(write);
      expect(res.statusCode, `${write.method} ${write.url}: ${res.body.slice(0, 100)}`).toBe(404);
    }
    // Her admin may tick the same item: the refusal is the role's.
    const ticked = await t.app.inject({
      method: 'PUT',
      url: `/api/checklist-items/${item.json().id}`,
      headers: await t.as(ADMIN),
      payload: { done: true },
    });
    expect(ticked.statusCode, ticked.body).toBe(200);
  });
});
