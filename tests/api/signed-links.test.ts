/**
 * Signed file links (issue 12, finding 3): a reader gets a signed link only for a file the
 * attachment's own route would give them, and a client's link is checked again when it is used:
 * against the client's current companies and whether the account still exists and is active.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPng } from '../../server/db/seed/demo-files.ts';
import { signedFileUrl, signingKey } from '../../server/files/signed-urls.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { multipart, type FormFile } from './multipart.ts';

const PNG = demoPng(8, 8, [[10, 200, 10]]);

describe.each(targets)('signed file links on $name', (target) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let client: Record<string, string>;
  let other: Record<string, string>;
  let tenantId: number;
  let clientId: number;
  let adminId: number;
  let jansenId: number;
  let jansenTicket: number;
  /** A De Vries Installaties file on a message its client sees: foreign to Jansen BV's client. */
  let foreign: number;
  /** A Jansen BV file on a message its clients see. */
  let jansenFile: number;

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const postMessage = (
    headers: Record<string, string>,
    fields: [string, string][],
    files: FormFile[] = [],
  ) => {
    const form = multipart(fields, files);
    return t.app.inject({
      method: 'POST',
      url: '/api/messages',
      payload: form.payload,
      headers: { ...headers, ...form.headers },
    });
  };
  const upload = async (headers: Record<string, string>) => {
    const form = multipart([['is_embedded', '1']], [{ field: 'file', name: 'plak.png', content: PNG }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/attachments',
      payload: form.payload,
      headers: { ...headers, ...form.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; url: string };
  };
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
  const userId = async (email: string) =>
    Number(
      (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id,
    );
  /** A message with one file on a ticket, as `headers` writes it; the file's id. */
  const fileOnTicket = async (headers: Record<string, string>, ticket: number) => {
    const res = await postMessage(
      headers,
      [
        ['morphable_type', 'ticket'],
        ['morphable_id', String(ticket)],
        ['message', '<p>Bijlage</p>'],
      ],
      [{ field: 'file[0]', name: 'foto.png', content: PNG }],
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json().attachments[0].id as number;
  };

  beforeAll(async () => {
    t = await buildTestApp(target);
    admin = await t.as('admin@example.com');
    client = await t.as('client@example.com');
    other = await t.as('other@example.com');
    tenantId = Number((await t.db.selectFrom('tenants').select('id').executeTakeFirstOrThrow()).id);
    clientId = await userId('client@example.com');
    adminId = await userId('admin@example.com');
    jansenId = Number(
      (
        await t.db
          .selectFrom('companies')
          .select('id')
          .where('name', '=', 'Jansen BV')
          .executeTakeFirstOrThrow()
      ).id,
    );
    jansenTicket = await ticketOf('Jansen BV');
    foreign = await fileOnTicket(other, await ticketOf('De Vries Installaties'));
    jansenFile = await fileOnTicket(client, jansenTicket);
  });
  afterAll(() => t?.close());

  describe('an <img> of another company’s file', () => {
    it('gets no signed link, while the writer’s own image in the same message does', async () => {
      const own = await upload(client);
      const othersUpload = await upload(other);
      const res = await postMessage(client, [
        ['morphable_type', 'ticket'],
        ['morphable_id', String(jansenTicket)],
        [
          'message',
          `<p><img src="/api/attachments/${foreign}/file"><img src="/api/attachments/${othersUpload.id}/file">` +
            `<img src="${own.url}"></p>`,
        ],
      ]);
      expect(res.statusCode, res.body).toBe(201);
      const answered = res.json().message as string;
      const thread = await get(
        `/api/messages?builder[0][where][0]=morphable_type&builder[0][where][1]=ticket` +
          `&builder[1][where][0]=morphable_id&builder[1][where][1]=${jansenTicket}&builder[2][paginate]=100`,
        client,
      );
      expect(thread.statusCode).toBe(200);
      const listed = thread.json().data.find((m: { id: number }) => m.id === res.json().id).message;

      for (const html of [answered, listed]) {
        // The foreign files keep their bare address: without a token it opens nothing in an <img>.
        expect(html).toContain(`<img src="/api/attachments/${foreign}/file" />`);
        expect(html).toContain(`<img src="/api/attachments/${othersUpload.id}/file" />`);
        expect(html).toMatch(
          new RegExp(`src="/api/attachments/${own.id}/file\\?token=\\d+\\.c${clientId}\\.`),
        );
      }
      expect((await get(`/api/attachments/${foreign}/file`)).statusCode).toBe(401);
    });

    it('an operator reading the same thread gets links for every file of the tenant', async () => {
      const res = await postMessage(client, [
        ['morphable_type', 'ticket'],
        ['morphable_id', String(jansenTicket)],
        ['message', `<p><img src="/api/attachments/${foreign}/file"></p>`],
      ]);
      expect(res.statusCode, res.body).toBe(201);
      const shown = await get(`/api/messages/${res.json().id}`, admin);
      expect(shown.json().message).toMatch(
        new RegExp(`src="/api/attachments/${foreign}/file\\?token=\\d+\\.o${adminId}\\.`),
      );
    });
  });

  describe('the signed-link route', () => {
    it('refuses a link minted for a client who may not open the file', async () => {
      const key = await signingKey(t.db);
      const own = signedFileUrl(key, tenantId, jansenFile, { kind: 'client', userId: clientId });
      expect((await get(own)).statusCode).toBe(200);
      const minted = signedFileUrl(key, tenantId, foreign, { kind: 'client', userId: clientId });
      expect((await get(minted)).statusCode).toBe(404);
    });

    /**
     * A new account made like a demo one (same role, staff flags), so the demo accounts stay as they
     * are for the other tests; a client joins Jansen BV.
     */
    const newAccount = async (like: number, email: string, names: [string, string]) => {
      const demo = await t.db
        .selectFrom('users')
        .select(['role_id', 'is_staff', 'is_operator'])
        .where('id', '=', like)
        .executeTakeFirstOrThrow();
      const row = await t.db
        .insertInto('users')
        .values({
          tenant_id: tenantId,
          first_name: names[0],
          last_name: names[1],
          email,
          is_staff: demo.is_staff,
          is_operator: demo.is_operator,
          role_id: demo.role_id,
          created_at: new Date(),
          updated_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      if (!demo.is_staff) {
        // A company admin (issue 39), who sees every ticket of the company and so the file's.
        const admin = await t.db
          .selectFrom('company_roles')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('grants_all', '=', true)
          .executeTakeFirstOrThrow();
        await t.db
          .insertInto('company_user')
          .values({
            tenant_id: tenantId,
            company_id: jansenId,
            user_id: id,
            company_role_id: admin.id,
            created_at: new Date(),
          })
          .execute();
      }
      return id;
    };

    describe('a link minted for a client', () => {
      const newClient = async (email: string) => {
        const id = await newAccount(clientId, email, ['Tijdelijke', 'Klant']);
        const key = await signingKey(t.db);
        const link = signedFileUrl(key, tenantId, jansenFile, { kind: 'client', userId: id });
        expect((await get(link)).statusCode).toBe(200);
        return { id, link };
      };

      it('stops working once the client is no longer in the company', async () => {
        const { id, link } = await newClient('weg-uit-bedrijf@example.com');
        await t.db.deleteFrom('company_user').where('user_id', '=', id).execute();
        expect((await get(link)).statusCode).toBe(404);
      });

      it('stops working once the client is archived', async () => {
        const { id, link } = await newClient('gearchiveerd@example.com');
        await t.db.updateTable('users').set({ archived_at: new Date() }).where('id', '=', id).execute();
        expect((await get(link)).statusCode).toBe(404);
      });

      it('stops working once the client is deleted', async () => {
        const { id, link } = await newClient('verwijderd@example.com');
        await t.db.deleteFrom('company_user').where('user_id', '=', id).execute();
        await t.db.deleteFrom('users').where('id', '=', id).execute();
        expect((await get(link)).statusCode).toBe(404);
      });
    });

    describe('a link minted for an operator', () => {
      const newOperator = async (email: string) => {
        const id = await newAccount(adminId, email, ['Tijdelijke', 'Collega']);
        const key = await signingKey(t.db);
        const link = signedFileUrl(key, tenantId, foreign, { kind: 'operator', userId: id });
        expect((await get(link)).statusCode).toBe(200);
        return { id, link };
      };

      it('stops working once the operator is archived', async () => {
        const { id, link } = await newOperator('collega-gearchiveerd@example.com');
        await t.db.updateTable('users').set({ archived_at: new Date() }).where('id', '=', id).execute();
        expect((await get(link)).statusCode).toBe(404);
      });

      it('stops working once the operator is deleted', async () => {
        const { id, link } = await newOperator('collega-verwijderd@example.com');
        await t.db.deleteFrom('users').where('id', '=', id).execute();
        expect((await get(link)).statusCode).toBe(404);
      });

      it('does not open as a client link of the same user, nor a client link as an operator one', async () => {
        const key = await signingKey(t.db);
        expect(
          (await get(signedFileUrl(key, tenantId, foreign, { kind: 'client', userId: adminId }))).statusCode,
        ).toBe(404);
        expect(
          (await get(signedFileUrl(key, tenantId, jansenFile, { kind: 'operator', userId: clientId })))
            .statusCode,
        ).toBe(404);
      });
    });
  });
});
