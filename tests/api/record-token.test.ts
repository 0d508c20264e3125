/**
 * A quote link (record token) opens exactly one quote through the generic API, and nothing else
 * (issue 12, finding 4): its lines, and the names of its company and client, load; every other
 * relation, every chain through the allowed ones, whereHas, withCount and withSum answer 422; no
 * other record and no list opens but the quote's own lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordToken } from '../../server/auth/plugin.ts';
import { registry } from '../../server/schema/registry.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

const quotes = registry().require('quotes');
const opened = quotes.recordLink;

/** What the portal's quote detail asks for its lines (react-admin getManyReference, sorted by order). */
const linesUrl = (quoteId: number, extra = '') =>
  `/api/quote-lines?builder[0][orderBy][0]=order&builder[0][orderBy][1]=asc` +
  `&builder[1][where][0]=quote_id&builder[1][where][1]=%3D&builder[1][where][2]=${quoteId}` +
  `&builder[2][paginate]=100&page=1${extra}`;

describe.each(targets)('quote token on $name', (target) => {
  let t: TestApp;
  let quote: { id: number; tenant_id: number; company_id: number; client_id: number };
  let otherQuote: { id: number };
  let headers: Record<string, string>;
  let lineIds: number[];

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    t = await buildTestApp(target);
    const sent = await t.db
      .selectFrom('quotes')
      .select(['id', 'tenant_id', 'company_id', 'client_id'])
      .where('status_id', '=', 2)
      .where('client_id', 'is not', null)
      .orderBy('id')
      .execute();
    quote = sent[0] as typeof quote;
    otherQuote = sent.find((q) => q.id !== quote.id) as typeof otherQuote;
    headers = { 'x-quote-token': await createRecordToken(t.db, quote.tenant_id, 'quotes', quote.id) };
    lineIds = (
      await t.db
        .selectFrom('quote_lines')
        .select('id')
        .where('quote_id', '=', quote.id)
        .orderBy('id')
        .execute()
    ).map((l) => Number(l.id));
  });
  afterAll(() => t?.close());

  it('the quote schema says which relations a link opens', () => {
    expect(opened).toEqual(['lines', 'company', 'client']);
  });

  it('opens its quote, with the quote lines', async () => {
    const res = await get(`/api/quotes/${quote.id}?with[]=lines`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().id).toBe(quote.id);
    expect(
      res
        .json()
        .lines.map((l: { id: number }) => l.id)
        .sort((a: number, b: number) => a - b),
    ).toEqual(lineIds);
    expect(lineIds.length).toBeGreaterThan(0);
  });

  it('answers every call of the portal’s quote page with the token alone', async () => {
    const [company, client] = await Promise.all([
      t.db
        .selectFrom('companies')
        .select('name')
        .where('id', '=', quote.company_id)
        .executeTakeFirstOrThrow(),
      t.db
        .selectFrom('users')
        .select('full_name')
        .where('id', '=', quote.client_id)
        .executeTakeFirstOrThrow(),
    ]);
    // The detail: the quote with its references (DetailScreen's referencesOf for the portal).
    const shown = await get(`/api/quotes/${quote.id}?with[0]=company&with[1]=client`);
    expect(shown.statusCode, shown.body).toBe(200);
    // Only the names: nothing further of the company or the client opens through the quote.
    expect(shown.json().company).toEqual({ id: quote.company_id, name: company.name });
    expect(shown.json().client).toEqual({ id: quote.client_id, full_name: client.full_name });

    const lines = await get(linesUrl(quote.id));
    expect(lines.statusCode, lines.body).toBe(200);
    expect(
      lines
        .json()
        .data.map((l: { id: number }) => l.id)
        .sort((a: number, b: number) => a - b),
    ).toEqual(lineIds);

    const pdf = await t.app.inject({ method: 'POST', url: `/api/quotes/${quote.id}/download`, headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it('lists the lines of its own quote only', async () => {
    const theirs = await get(linesUrl(otherQuote.id));
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().data).toEqual([]);
    const unfiltered = await get('/api/quote-lines?builder[0][paginate]=100');
    expect(unfiltered.statusCode).toBe(200);
    expect(unfiltered.json().total).toBe(lineIds.length);
    const otherLine = await t.db
      .selectFrom('quote_lines')
      .select('id')
      .where('quote_id', '=', otherQuote.id)
      .executeTakeFirstOrThrow();
    expect((await get(`/api/quote-lines/${otherLine.id}`)).statusCode).toBe(404);
  });

  describe('refuses with 422 every relation it does not open', () => {
    const closed = Object.keys(quotes.relations).filter((name) => !opened.includes(name));

    it.each(closed)('with[]=%s', async (name) => {
      const res = await get(`/api/quotes/${quote.id}?with[]=${name}`);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.with[0]).toBe(
        `A link to one quote opens only these relations of it: ${opened.join(', ')}.`,
      );
    });

    // Every relation of an opened relation's target: nothing opens further through them.
    const chains = opened.flatMap((name) => {
      const relation = quotes.relations[name]!;
      const target = registry().require((relation as { resource: string }).resource);
      return Object.keys(target.relations).map((next) => `${name}.${next}`);
    });

    it.each([
      ...chains,
      'company.tickets.messages',
      'company.invoices',
      'company.contracts',
      'company.assets',
      'company.subscriptions',
      'client.tickets.messages',
      'lines.quote.company',
    ])('with[]=%s', async (chain) => {
      const res = await get(`/api/quotes/${quote.id}?with[]=${chain}`);
      expect(res.statusCode, res.body).toBe(422);
    });

    it.each(['lines.quote', 'lines.product'])('with[]=%s on the lines list', async (name) => {
      const res = await get(linesUrl(quote.id, `&with[]=${name.split('.')[1]}`));
      expect(res.statusCode, res.body).toBe(422);
    });

    it.each([...opened, ...closed])('withCount[]=%s', async (name) => {
      const res = await get(`/api/quotes/${quote.id}?withCount[]=${name}`);
      expect(res.statusCode, res.body).toBe(422);
    });

    it('withSum[]=lines.total', async () => {
      const res = await get(`/api/quotes/${quote.id}?withSum[]=lines.total`);
      expect(res.statusCode, res.body).toBe(422);
    });

    it.each(['quote', 'product'])('whereHas %s on the lines list', async (name) => {
      const res = await get(
        `/api/quote-lines?builder[0][whereHas][0]=${name}&builder[0][whereHas][1][0][where][0]=id` +
          `&builder[0][whereHas][1][0][where][1]=%3E&builder[0][whereHas][1][0][where][2]=0`,
      );
      expect(res.statusCode, res.body).toBe(422);
      const doesntHave = await get(`/api/quote-lines?builder[0][doesntHave]=${name}`);
      expect(doesntHave.statusCode, doesntHave.body).toBe(422);
    });
  });

  it('opens no other quote, lists nothing else, and is no login', async () => {
    expect((await get(`/api/quotes/${otherQuote.id}`)).statusCode).toBe(404);
    expect((await get(`/api/quotes/${otherQuote.id}?with[]=lines`)).statusCode).toBe(404);
    // Every list of the API but the lines of the quote.
    for (const resource of registry().resources.values()) {
      if (!resource.actions.includes('index') || resource.name === 'quote-lines') continue;
      expect((await get(`/api/${resource.name}`)).statusCode, resource.name).toBe(403);
    }
    expect((await get(`/api/companies/${quote.company_id}`)).statusCode).toBe(403);
    expect((await get(`/api/clients/${quote.client_id}`)).statusCode).toBe(403);
    expect((await get(`/api/invoices/1`)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/quotes/${quote.id}`, headers, payload: {} }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/quote-lines',
          headers,
          payload: { quote_id: quote.id, description: 'x', quantity: 1, price: 1 },
        })
      ).statusCode,
    ).toBe(403);
    expect((await get('/api/auth/me')).statusCode).toBe(401);
  });

  it('a wrong token is no token', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/quotes/${quote.id}`,
      headers: { 'x-quote-token': 'forged' },
    });
    expect(res.statusCode).toBe(401);
  });
});
