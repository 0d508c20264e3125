/**
 * Issue 35, item 6: the demo shows the SLA clock. Its tenant has two calendars (office hours with the
 * Dutch holidays of the reference data, 24/7) and three SLAs (Basis, Business, Premium) on its contracts,
 * companies and as its default, and tickets whose histories put the stored clock in every state at once,
 * whenever the demo is made: the seed is run here at an ordinary office hour and at night on a Sunday
 * after two holidays (Christmas), and each time every state is stored as the clock's rules say
 * (docs/decisions.md, issue 35). Two seeds only: each costs seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseConnection } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { seedDemo } from '../../server/db/seed/demo.ts';
import settings from '../../server/db/seed/data/settings.json' with { type: 'json' };
import { registry } from '../../server/schema/registry.ts';
import { recheckSlaClocks } from '../../server/sla/recheck.ts';

const MOMENTS = [
  { name: 'a Wednesday morning', now: '2026-12-02T09:17:00Z' },
  { name: 'a Sunday night between Christmas and New Year', now: '2026-12-27T02:40:00Z' },
];

type State = 'running' | 'warning' | 'breached' | 'paused' | 'met' | null;

/** Per demo ticket: its state, its targets' (first response, next response, resolution) and its SLA. */
const EXPECTED: Record<string, [State, [State, State, State], string, string]> = {
  'Nieuwe medewerker: account en laptop klaarzetten': [
    'running',
    ['running', null, 'running'],
    'contract',
    'Business',
  ],
  'Mailbox loopt vol en verstuurt geen berichten meer': [
    'warning',
    ['met', null, 'warning'],
    'contract',
    'Premium',
  ],
  'Server reageert niet, niemand kan inloggen': [
    'breached',
    ['breached', null, 'running'],
    'contract',
    'Premium',
  ],
  'Kassasysteem in de showroom start niet meer op': [
    'breached',
    ['breached', null, 'breached'],
    'contract',
    'Business',
  ],
  'VPN-verbinding valt steeds weg': ['breached', ['met', 'breached', 'running'], 'contract', 'Premium'],
  'Toegang tot de gedeelde schijf voor de werkvoorbereiding': [
    'paused',
    ['met', null, 'paused'],
    'contract',
    'Business',
  ],
  'Switch in de serverruimte vervangen': ['paused', ['met', null, 'paused'], 'contract', 'Premium'],
  'Licentie Microsoft 365 voor nieuwe collega': ['running', ['met', null, 'running'], 'contract', 'Premium'],
  'Gedeelde agenda niet zichtbaar': ['met', ['met', null, 'met'], 'contract', 'Business'],
  'Back-up van vannacht mislukt': ['running', ['met', 'running', 'running'], 'contract', 'Business'],
  'Ontbrekende facturen in het boekhoudpakket': ['running', ['met', null, 'running'], 'ticket', 'Premium'],
  'Onbekende beller meldt storing op de website': [
    'running',
    ['running', null, 'running'],
    'tenant',
    'Basis',
  ],
};

describe.each(MOMENTS)('the SLA demo made on $name', ({ now }) => {
  let database: DatabaseConnection;
  const db = () => database.db;

  beforeAll(async () => {
    database = await openDatabase();
    await migrateToLatest(database.db);
    await seedDemo(database.db, registry(), { passwordHash: 'not-a-hash', now: new Date(now) });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('has the two calendars, office hours with the Dutch holidays of the reference data', async () => {
    const calendars = await db()
      .selectFrom('business_hour_contracts')
      .select(['name', 'name_en', 'name_de', 'schedule', 'timezone', 'holidays'])
      .orderBy('id')
      .execute();
    expect(calendars.map((c) => [c.name, c.name_en, c.name_de])).toEqual([
      ['Kantoortijden', 'Office hours', 'Bürozeiten'],
      ['24/7', '24/7', '24/7'],
    ]);
    const [office, always] = calendars as [(typeof calendars)[0], (typeof calendars)[0]];
    const day = [
      { from: '08:30', to: '12:30' },
      { from: '13:00', to: '17:30' },
    ];
    expect(office.schedule).toEqual({
      monday: day,
      tuesday: day,
      wednesday: day,
      thursday: day,
      friday: day,
    });
    expect(office.timezone).toBe('Europe/Amsterdam');
    expect(office.holidays).toEqual(settings.businessHourContracts[0]!.holidays);
    expect(office.holidays).toContainEqual({ date: '04-27', name: 'Koningsdag' });
    expect(office.holidays).toContainEqual({ date: '2027-03-29', name: 'Tweede Paasdag' });
    expect(always.schedule).toBe('24/7');
  });

  it('has the three SLAs, on the contracts, the companies and as the default', async () => {
    const slas = await db()
      .selectFrom('slas as s')
      .innerJoin('business_hour_contracts as b', 'b.id', 's.business_hour_contract_id')
      .select([
        's.name',
        's.name_en',
        's.response_time',
        's.next_response_time',
        's.resolution_time',
        's.warning_percentages',
        'b.name as calendar',
      ])
      .orderBy('s.name')
      .execute();
    expect(slas).toEqual([
      {
        name: 'Basis',
        name_en: 'Basic',
        response_time: 480,
        next_response_time: null,
        resolution_time: 2400,
        warning_percentages: [75, 90],
        calendar: 'Kantoortijden',
      },
      {
        name: 'Business',
        name_en: 'Business',
        response_time: 240,
        next_response_time: 480,
        resolution_time: 960,
        warning_percentages: [75, 90],
        calendar: 'Kantoortijden',
      },
      {
        name: 'Premium',
        name_en: 'Premium',
        response_time: 60,
        next_response_time: 120,
        resolution_time: 480,
        warning_percentages: [75, 90],
        calendar: '24/7',
      },
    ]);
    const overrides = await db()
      .selectFrom('sla_targets as t')
      .innerJoin('slas as s', 's.id', 't.sla_id')
      .innerJoin('priorities as p', 'p.id', 't.priority_id')
      .select(['s.name as sla', 'p.label', 't.response_time', 't.next_response_time', 't.resolution_time'])
      .execute();
    expect(overrides).toEqual([
      { sla: 'Business', label: 'Kritiek', response_time: 60, next_response_time: 120, resolution_time: 480 },
    ]);
    const contracts = await db()
      .selectFrom('contracts as k')
      .innerJoin('slas as s', 's.id', 'k.sla_id')
      .select(['k.name', 's.name as sla'])
      .orderBy('k.name')
      .execute();
    expect(contracts).toEqual([
      { name: 'Onderhoudscontract De Vries Installaties', sla: 'Business' },
      { name: 'Servicecontract Jansen BV', sla: 'Premium' },
    ]);
    const companies = await db()
      .selectFrom('companies as c')
      .innerJoin('slas as s', 's.id', 'c.sla_id')
      .select(['c.name', 's.name as sla'])
      .orderBy('c.name')
      .execute();
    expect(companies).toEqual([
      { name: 'De Vries Installaties', sla: 'Basis' },
      { name: 'Jansen BV', sla: 'Premium' },
    ]);
    const setting = await db()
      .selectFrom('tenant_configs')
      .select('value')
      .where('name', '=', 'default_sla_id')
      .executeTakeFirstOrThrow();
    const fallback = await db()
      .selectFrom('slas')
      .select('name')
      .where('id', '=', Number(setting.value))
      .execute();
    expect(fallback).toEqual([{ name: 'Basis' }]);
  });

  it('stores every state of the clock on its tickets at once', async () => {
    const tickets = await db()
      .selectFrom('tickets as t')
      .leftJoin('slas as s', 's.id', 't.applied_sla_id')
      .select([
        't.description',
        't.sla_state',
        't.first_response_state',
        't.next_response_state',
        't.resolution_state',
        't.applied_sla_source',
        's.name as sla',
        't.sla_recheck_at',
      ])
      .where('t.is_template', '=', false)
      .execute();
    const got = Object.fromEntries(
      tickets
        .filter((t) => t.description in EXPECTED)
        .map((t) => [
          t.description,
          [
            t.sla_state,
            [t.first_response_state, t.next_response_state, t.resolution_state],
            t.applied_sla_source,
            t.sla,
          ],
        ]),
    );
    expect(got).toEqual(EXPECTED);
    const states = new Set(tickets.map((t) => t.sla_state));
    for (const state of ['running', 'warning', 'breached', 'paused', 'met']) expect(states).toContain(state);
    // Every ticket measured by the seed: none is left for the background pass before its time.
    expect(tickets.filter((t) => t.sla_state === null)).toEqual([]);
    expect(tickets.filter((t) => t.sla_recheck_at !== null && t.sla_recheck_at <= new Date(now))).toEqual([]);
    expect(await recheckSlaClocks(db(), Date.parse(now))).toBe(0);
  });
});
