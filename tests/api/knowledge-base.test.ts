/**
 * Knowledge base (issue 39, item 4): articles written through the generic routes (rich text
 * sanitised, tags tidied), ranked by PostgreSQL full-text search in each article's language on both
 * engines, and visible to the right readers on every path: a list, one record, a relation loaded,
 * filtered through and counted, the search, images, the public pages and the sitemap. An internal
 * article never reaches a client or the public; one for chosen companies never reaches another
 * company's client. "This solved it" is counted per client and on the article.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPng } from '../../server/db/seed/demo-files.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { multipart } from './multipart.ts';

const PNG = demoPng(8, 8, [[10, 20, 30]]);
/** A word no demo row holds, in every test article: a search for it finds exactly what a reader may see. */
const MARK = 'zwavelkwartel';

type Headers = Record<string, string>;

describe.each(targets)('knowledge base on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let client: Headers; // Jansen BV
  let other: Headers; // De Vries Installaties
  const a = {} as Record<'pub' | 'portal' | 'mine' | 'theirs' | 'internal', number>;
  let secretCategory: number;
  let internalImage: number;
  let publicImage: number;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers = {}, payload?: object) =>
    t.app.inject({ method, url, headers, payload });
  const list = async (headers: Headers, url: string) => {
    const res = await call('GET', url, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as ({ id: number } & Record<string, any>)[];
  };
  const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort((x, y) => x - y);
  const sorted = (...values: number[]) => [...values].sort((x, y) => x - y);

  const upload = async () => {
    const form = multipart([['is_embedded', '1']], [{ field: 'file', name: 'shot.png', content: PNG }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/attachments',
      payload: form.payload,
      headers: { ...b.admin, ...form.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };

  const article = async (payload: object) => {
    const res = await call('POST', '/api/knowledge-articles', b.admin, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Record<string, any>;
  };

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, []);
    client = b.client;
    other = await t.as('other@example.com');
    const category = await call('POST', '/api/knowledge-categories', b.admin, { name: 'Geheim' });
    expect(category.statusCode, category.body).toBe(201);
    secretCategory = category.json().id;
    internalImage = await upload();
    publicImage = await upload();
    a.pub = (
      await article({
        title: `Openbaar ${MARK}`,
        body: `<p>Voor iedereen.</p><img src="/api/attachments/${publicImage}/file" alt="scherm">`,
        visibility: 'public',
      })
    ).id;
    a.portal = (
      await article({ title: `Portaal ${MARK}`, body: '<p>Alle klanten.</p>', visibility: 'portal' })
    ).id;
    a.mine = (
      await article({ title: `Jansen ${MARK}`, body: '<p>Alleen Jansen.</p>', visibility: 'companies' })
    ).id;
    a.theirs = (
      await article({ title: `De Vries ${MARK}`, body: '<p>Alleen De Vries.</p>', visibility: 'companies' })
    ).id;
    a.internal = (
      await article({
        title: `Intern ${MARK}`,
        body: `<p>Operators.</p><img src="/api/attachments/${internalImage}/file">`,
        visibility: 'internal',
        category_id: secretCategory,
      })
    ).id;
    for (const [id, company] of [
      [a.mine, b.ownCompanyId],
      [a.theirs, b.otherCompanyId],
    ]) {
      const link = await call('POST', '/api/knowledge-article-companies', b.admin, {
        knowledge_article_id: id,
        company_id: company,
      });
      expect(link.statusCode, link.body).toBe(201);
    }
  });
  afterAll(() => t?.close());

  describe('writing', () => {
    it('sanitises the body, tidies the tags and refuses an unknown language or visibility', async () => {
      const made = await article({
        title: 'Opgeruimd',
        body: '<p onclick="x()">Tekst<script>alert(1)</script></p>',
        tags: ' VPN , printer,vpn,, Thuis  Werken ',
        language: 'en',
      });
      expect(made.body).toBe('<p>Tekst</p>');
      expect(made.tags).toBe('vpn, printer, thuis werken');
      expect(made.visibility).toBe('internal');
      expect(made.author_id).toBeGreaterThan(0);
      const bad = await call('POST', '/api/knowledge-articles', b.admin, {
        title: 'x',
        body: '<p>x</p>',
        language: 'fr',
        visibility: 'secret',
      });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors).sort()).toEqual(['language', 'visibility']);
    });

    it('filters the list on a tag', async () => {
      const found = await list(
        b.admin,
        `/api/knowledge-articles?builder=${encodeURIComponent(JSON.stringify([{ where: ['tags', 'like', 'thuis werken'] }]))}`,
      );
      expect(found.map((r) => r.title)).toEqual(['Opgeruimd']);
    });
  });

  describe('search ranking', () => {
    const search = async (headers: Headers, q: string) =>
      (await list(headers, `/api/knowledge-articles/search?q=${encodeURIComponent(q)}`)) as {
        id: number;
        title: string;
        rank: number;
      }[];

    it('ranks the clearly matching Dutch article first, through the Dutch dictionary', async () => {
      const match = await article({
        title: 'Scanner scant niet naar e-mail',
        body: '<p>Controleer bij de scanners het e-mailadres van de ontvanger en de SMTP-instellingen.</p>',
        tags: 'scanner, e-mail',
        language: 'nl',
        visibility: 'portal',
      });
      await article({
        title: 'Nieuwe medewerker aanmelden',
        body: '<p>Maak een account aan. Een scanner volgt later.</p>',
        language: 'nl',
        visibility: 'portal',
      });
      // "scanners" and "scannen" are stemmed to the articles' "scanner"/"scant" only by the dutch dictionary.
      const found = await search(client, 'Onze scanners scannen niet meer naar de e-mail');
      expect(found.length).toBeGreaterThanOrEqual(2);
      expect(found[0]!.id).toBe(match.id);
      expect(found[0]!.rank).toBeGreaterThan(found[1]!.rank);
    });

    it('ranks the clearly matching English article first, through the English dictionary', async () => {
      const match = await article({
        title: 'Teams meeting has no sound',
        body: '<p>Check the speakers chosen in Teams under Settings, Devices, and restart the meeting.</p>',
        language: 'en',
        visibility: 'portal',
      });
      await article({
        title: 'Booking a meeting room',
        body: '<p>Rooms are booked in the calendar.</p>',
        language: 'en',
        visibility: 'portal',
      });
      const found = await search(client, 'My meetings in Teams have no sounds from the speaker');
      expect(found[0]!.id).toBe(match.id);
      expect(found.map((f) => f.title)).toContain('Booking a meeting room');
      expect(found[0]!.rank).toBeGreaterThan(found[1]!.rank);
    });

    it('finds nothing for stop words or punctuation alone', async () => {
      expect(await search(client, 'de het een')).toEqual([]);
      expect(await search(client, '&|!():*')).toEqual([]);
    });
  });

  describe('visibility', () => {
    const base = '/api/knowledge-articles';
    const marked = async (headers: Headers) =>
      ids(await list(headers, `${base}?builder=${encodeURIComponent(JSON.stringify([{ s: MARK }]))}`));

    it('lists to each reader only what they may read', async () => {
      expect(await marked(b.admin)).toEqual(sorted(a.pub, a.portal, a.mine, a.theirs, a.internal));
      expect(await marked(client)).toEqual(sorted(a.pub, a.portal, a.mine));
      expect(await marked(other)).toEqual(sorted(a.pub, a.portal, a.theirs));
    });

    it('shows a record a client may not read as a 404', async () => {
      for (const id of [a.pub, a.portal, a.mine])
        expect((await call('GET', `${base}/${id}`, client)).statusCode).toBe(200);
      for (const id of [a.internal, a.theirs])
        expect((await call('GET', `${base}/${id}`, client)).statusCode).toBe(404);
      expect((await call('GET', `${base}/${a.mine}`, other)).statusCode).toBe(404);
      const shown = (await call('GET', `${base}/${a.portal}`, client)).json();
      expect(Object.keys(shown)).not.toContain('visibility');
      expect(Object.keys(shown)).not.toContain('deflections');
    });

    it('loads, filters through and counts a category’s articles within the client’s scope', async () => {
      // Every test article into the secret category, which then holds the internal one too.
      for (const id of Object.values(a))
        expect(
          (await call('PUT', `${base}/${id}`, b.admin, { category_id: secretCategory })).statusCode,
        ).toBe(200);
      const categories = '/api/knowledge-categories';
      const loaded = await list(
        client,
        `${categories}?builder=${encodeURIComponent(JSON.stringify([{ where: ['id', secretCategory] }]))}&with[]=articles&withCount[]=articles`,
      );
      expect(ids(loaded[0]!.articles)).toEqual(sorted(a.pub, a.portal, a.mine));
      expect(loaded[0]!.articles_count).toBe(3);
      const through = (id: number) =>
        `${categories}?builder=${encodeURIComponent(JSON.stringify([{ whereHas: ['articles', [{ where: ['id', id] }]] }]))}`;
      expect(ids(await list(client, through(a.internal)))).toEqual([]);
      expect(ids(await list(client, through(a.theirs)))).toEqual([]);
      expect(ids(await list(client, through(a.mine)))).toEqual([secretCategory]);
      expect(ids(await list(other, through(a.theirs)))).toEqual([secretCategory]);
      // The admin sees the internal one through the same call.
      expect(ids(await list(b.admin, through(a.internal)))).toEqual([secretCategory]);
    });

    it('searches within the reader’s scope', async () => {
      const found = async (headers: Headers) => ids(await list(headers, `${base}/search?q=${MARK}&limit=20`));
      expect(await found(b.admin)).toEqual(sorted(a.pub, a.portal, a.mine, a.theirs, a.internal));
      expect(await found(client)).toEqual(sorted(a.pub, a.portal, a.mine));
      expect(await found(other)).toEqual(sorted(a.pub, a.portal, a.theirs));
    });

    it('keeps an internal article’s image from clients and the public, and serves a public one', async () => {
      const file = (id: number) => `/api/attachments/${id}/file`;
      expect((await call('GET', file(internalImage), b.admin)).statusCode).toBe(200);
      expect((await call('GET', file(internalImage), client)).statusCode).toBe(404);
      expect((await call('GET', `/kb/files/${internalImage}`)).statusCode).toBe(404);
      expect((await call('GET', file(publicImage), client)).statusCode).toBe(200);
      const pub = await call('GET', `/kb/files/${publicImage}`);
      expect(pub.statusCode).toBe(200);
      expect(pub.headers['content-type']).toBe('image/png');
      // The client's copy of the public article carries a signed address of the image; opened without a bearer.
      const body = (await call('GET', `${base}/${a.pub}`, client)).json().body as string;
      const signed = /src="([^"]+)"/.exec(body)![1]!.replace(/&amp;/g, '&');
      expect(signed).toContain('token=');
      expect((await call('GET', signed)).statusCode).toBe(200);
    });

    it('shows the public pages and the sitemap public articles only', async () => {
      const index = await call('GET', `/kb?q=${MARK}`);
      expect(index.statusCode).toBe(200);
      expect(index.headers['content-type']).toContain('text/html');
      expect(index.body).toContain(`Openbaar ${MARK}`);
      for (const title of ['Portaal', 'Jansen', 'De Vries', 'Intern'])
        expect(index.body).not.toContain(`${title} ${MARK}`);
      const all = await call('GET', '/kb');
      expect(all.body).toContain(`/kb/${a.pub}-openbaar-${MARK}`);
      expect(all.body).not.toContain(`Intern ${MARK}`);
      const page = await call('GET', `/kb/${a.pub}-openbaar-${MARK}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`src="/kb/files/${publicImage}"`);
      for (const id of [a.portal, a.mine, a.theirs, a.internal, 999999])
        expect((await call('GET', `/kb/${id}`)).statusCode).toBe(404);
      const map = await call('GET', '/kb/sitemap.xml');
      expect(map.statusCode).toBe(200);
      expect(map.headers['content-type']).toContain('application/xml');
      expect(map.body).toContain(`/kb/${a.pub}-openbaar-${MARK}</loc>`);
      for (const id of [a.portal, a.mine, a.theirs, a.internal]) expect(map.body).not.toContain(`/kb/${id}-`);
    });

    it('keeps another tenant’s public pages apart', async () => {
      const slug = (
        await t.db
          .selectFrom('tenants')
          .select('slug')
          .where('id', '=', b.otherTenantId)
          .executeTakeFirstOrThrow()
      ).slug;
      const res = await t.app.inject({ method: 'GET', url: '/kb', headers: { host: `${slug}.localhost` } });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(MARK);
      const page = await t.app.inject({
        method: 'GET',
        url: `/kb/${a.pub}`,
        headers: { host: `${slug}.localhost` },
      });
      expect(page.statusCode).toBe(404);
    });
  });

  describe('deflections', () => {
    const deflect = (id: number, headers: Headers) =>
      call('POST', `/api/knowledge-articles/${id}/deflect`, headers);

    it('counts “this solved it” per client and on the article', async () => {
      expect((await deflect(a.portal, client)).statusCode).toBe(204);
      expect((await deflect(a.portal, client)).statusCode).toBe(204);
      expect((await deflect(a.portal, other)).statusCode).toBe(204);
      const rows = await t.db
        .selectFrom('knowledge_deflections')
        .select(['user_id', 'count'])
        .where('knowledge_article_id', '=', a.portal)
        .orderBy('count', 'desc')
        .execute();
      expect(rows.map((r) => r.count)).toEqual([2, 1]);
      expect((await call('GET', `/api/knowledge-articles/${a.portal}`, b.admin)).json().deflections).toBe(3);
    });

    it('is a 404 on an article the client may not read, and a 403 for an operator', async () => {
      expect((await deflect(a.internal, client)).statusCode).toBe(404);
      expect((await deflect(a.theirs, client)).statusCode).toBe(404);
      expect((await deflect(a.portal, b.admin)).statusCode).toBe(403);
      const row = await t.db
        .selectFrom('knowledge_articles')
        .select('deflections')
        .where('id', 'in', [a.internal, a.theirs])
        .execute();
      expect(row.map((r) => r.deflections)).toEqual([0, 0]);
    });
  });
});
