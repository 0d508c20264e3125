/**
 * Tenant lists in the user's language (issue 14, item 17): a field marked x-translated reads in the
 * request's language (Accept-Language: German falls back to English, English to Dutch), and sorts,
 * filters and searches in it; `name` stays a string; the Dutch name is the one the column holds, the
 * translations are the fields `<name>_en` and `<name>_de`. Status-changed messages name the status in
 * the reader's language.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { requestLanguage } from '../../server/http/language.ts';

const q = (items: Record<string, string>) =>
  Object.entries(items)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');

describe('requestLanguage', () => {
  it('takes the first language of Accept-Language we speak, by weight, else Dutch', () => {
    expect(requestLanguage(undefined)).toBe('nl');
    expect(requestLanguage('en')).toBe('en');
    expect(requestLanguage('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(requestLanguage('fr-FR, en-GB;q=0.5, de;q=0.7')).toBe('de');
    expect(requestLanguage('fr, es')).toBe('nl');
    expect(requestLanguage('en;q=0, de')).toBe('de');
  });
});

describe.each(targets)('translated list names on $name', (target) => {
  let t: TestApp;

  const get = async (email: string, url: string, language?: string) => {
    const res = await t.app.inject({
      url,
      headers: { ...(await t.as(email)), ...(language && { 'accept-language': language }) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const names = async (email: string, url: string, field: string, language?: string) =>
    ((await get(email, url, language)).data as Record<string, unknown>[]).map((r) => r[field]);

  beforeAll(async () => {
    t = await buildTestApp(target);
  }, 120_000);
  afterAll(() => t?.close());

  it('reads the seeded statuses in Dutch, English and German; name stays a string', async () => {
    const url = '/api/ticket-statuses?builder[0][paginate]=100';
    expect(await names('admin@example.com', url, 'name')).toEqual([
      'Nieuw',
      'In behandeling',
      'Wacht op klant',
      'Reactie ontvangen',
      'Ingepland',
      'Opgelost',
      'Gearchiveerd',
    ]);
    expect(await names('admin@example.com', url, 'name', 'en-GB,en;q=0.9')).toEqual([
      'New',
      'In progress',
      'Waiting for client',
      'Reply received',
      'Scheduled',
      'Resolved',
      'Archived',
    ]);
    const german = (await get('admin@example.com', url, 'de')).data;
    expect(german.map((s: { name: string }) => s.name)).toContain('Wartet auf Kunde');
    expect(german.map((s: { name_client: string }) => s.name_client)).toContain('Wartet auf Ihre Antwort');
    // The stored translations come along for the back office's form.
    expect(german[0]).toMatchObject({
      name: 'Neu',
      name_en: 'New',
      name_de: 'Neu',
      name_client_en: 'Received',
    });
  });

  it('gives clients the client names in their language, and only the portal fields', async () => {
    const rows = (await get('client@example.com', '/api/ticket-statuses?builder[0][paginate]=100', 'en'))
      .data;
    expect(rows.map((r: { name_client: string }) => r.name_client)).toContain('Waiting for your reply');
    expect(Object.keys(rows[0]).sort()).toEqual([
      'id',
      'internal_type',
      'name_client',
      'order',
      'style_client',
    ]);
  });

  it('falls back: German to English to Dutch, past empty translations', async () => {
    const headers = await t.as('admin@example.com');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/priorities',
      headers,
      payload: { label: 'Spoed', label_en: 'Urgent', label_de: '', order: 90 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const only = await t.app.inject({
      method: 'POST',
      url: '/api/priorities',
      headers,
      payload: { label: 'Alleen Nederlands', order: 91 },
    });
    expect(only.statusCode, only.body).toBe(201);
    const onlyId = only.json().id;
    const label = async (rid: number, language: string) =>
      (await get('admin@example.com', `/api/priorities/${rid}`, language)).label;
    expect(await label(id, 'nl')).toBe('Spoed');
    expect(await label(id, 'en')).toBe('Urgent');
    expect(await label(id, 'de')).toBe('Urgent');
    expect(await label(onlyId, 'de')).toBe('Alleen Nederlands');
    expect(await label(onlyId, 'en')).toBe('Alleen Nederlands');
  });

  it('requires the Dutch name, the translations are optional', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ticket-types',
      headers: { ...(await t.as('admin@example.com')), 'accept-language': 'en' },
      payload: { name_en: 'Only English' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['name']);
  });

  it('sorts, filters and searches in the reader language', async () => {
    const sorted = `/api/priorities?${q({ 'builder[0][orderBy][0]': 'label', 'builder[0][orderBy][1]': 'asc', 'builder[1][where][0]': 'order', 'builder[1][where][1]': '<', 'builder[1][where][2]': '50' })}`;
    expect(await names('admin@example.com', sorted, 'label', 'en')).toEqual([
      'Critical',
      'High',
      'Low',
      'Normal',
    ]);
    expect(await names('admin@example.com', sorted, 'label', 'nl')).toEqual([
      'Hoog',
      'Kritiek',
      'Laag',
      'Normaal',
    ]);
    const filtered = `/api/priorities?${q({ 'builder[0][where][0]': 'label', 'builder[0][where][1]': '=', 'builder[0][where][2]': 'Hoch' })}`;
    expect(await names('admin@example.com', filtered, 'label', 'de')).toEqual(['Hoch']);
    const inList = `/api/ticket-statuses?${q({ 'builder[0][whereIn][0]': 'name', 'builder[0][whereIn][1][0]': 'Resolved', 'builder[0][whereIn][1][1]': 'New' })}`;
    expect(await names('admin@example.com', inList, 'name', 'en')).toEqual(['New', 'Resolved']);
    const searched = `/api/ticket-statuses?${q({ 'builder[0][s]': 'wartet' })}`;
    expect(await names('admin@example.com', searched, 'name', 'de')).toEqual(['Wartet auf Kunde']);
  });

  it('translates related names loaded with a record, and the lists loaded at login', async () => {
    const url = `/api/tickets?with[]=status&with[]=priority&${q({ 'builder[0][paginate]': '5' })}`;
    const tickets = (await get('client@example.com', url, 'en')).data as {
      status: { name_client: string };
      priority: { label: string } | null;
    }[];
    const english = [
      'Received',
      'In progress',
      'Waiting for your reply',
      'Reply received',
      'Scheduled',
      'Resolved',
      'Archived',
    ];
    expect(tickets.length).toBeGreaterThan(0);
    for (const ticket of tickets) expect(english).toContain(ticket.status.name_client);
    const me = await get('admin@example.com', '/api/auth/me', 'de');
    expect(me.lists.priorities.map((p: { label: string }) => p.label)).toEqual(
      expect.arrayContaining(['Niedrig', 'Normal', 'Hoch', 'Kritisch']),
    );
    expect(me.lists.asset_statuses.map((p: { name: string }) => p.name)).toContain('Auf Lager');
    const invoiceStatuses = await names('client@example.com', '/api/invoice-statuses', 'name', 'en');
    expect(invoiceStatuses).toEqual([
      'Sent',
      'Outstanding',
      'Outstanding (reminded)',
      'Paid',
      'Credit invoice',
      'Expired',
    ]);
  });

  it('names the status of a status-changed message in the reader language', async () => {
    const { rows } = await sql<{ ticket: number; status: number }>`
      select t.id as ticket, (select s.id from ticket_statuses s where s.tenant_id = t.tenant_id and s.name = 'Ingepland') as status
      from tickets t join companies c on c.id = t.company_id
      where c.name = 'Jansen BV' and t.is_template = false
      order by t.id desc limit 1`.execute(t.db);
    const { ticket, status } = rows[0]!;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/tickets/${ticket}`,
      headers: await t.as('admin@example.com'),
      payload: { status_id: Number(status) },
    });
    expect(put.statusCode, put.body).toBe(200);
    const thread = `/api/messages?${q({
      'builder[0][where][0]': 'morphable_type',
      'builder[0][where][1]': '=',
      'builder[0][where][2]': 'ticket',
      'builder[1][where][0]': 'morphable_id',
      'builder[1][where][1]': '=',
      'builder[1][where][2]': String(ticket),
      'builder[2][where][0]': 'type',
      'builder[2][where][1]': '=',
      'builder[2][where][2]': 'status-changed',
      'builder[3][orderBy][0]': 'id',
      'builder[3][orderBy][1]': 'desc',
    })}`;
    const statusName = async (email: string, language: string) =>
      ((await get(email, thread, language)).data[0] as { data: { status: { name: string } } }).data.status
        .name;
    expect(await statusName('admin@example.com', 'en')).toBe('Scheduled');
    expect(await statusName('admin@example.com', 'de')).toBe('Eingeplant');
    expect(await statusName('admin@example.com', 'nl')).toBe('Ingepland');
    expect(await statusName('client@example.com', 'en')).toBe('Scheduled');
    expect(await statusName('client@example.com', 'de')).toBe('Eingeplant');
  });
});
