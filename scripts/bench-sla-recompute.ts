/**
 * How fast the stored SLA clock is measured against a database (issue 35): one ticket with 100 recorded
 * events through `storeTicketClocks` (history read, policy read, pure measure, one write; asked: at most
 * 5 ms), and the background pass over every open ticket of one SLA after that SLA changed (tickets per
 * second). Figures to read, not a test.
 *
 *   npx tsx scripts/bench-sla-recompute.ts [open tickets, default 2000]      (PGlite in memory)
 *   DATABASE_URL=postgres://… npx tsx scripts/bench-sla-recompute.ts 2000    (a scratch schema there)
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { prepareDatabase } from '../server/boot.ts';
import { openDatabase } from '../server/db/database.ts';
import { registry } from '../server/schema/registry.ts';
import { markForRecheck, recheckSlaClocks } from '../server/sla/recheck.ts';
import { storeTicketClocks, tenantToday } from '../server/sla/stored-clock.ts';
import { slaPolicies } from '../server/sla/policy.ts';
import { ticketHistory } from '../server/sla/ticket-events.ts';
import { computeClock } from '../common/sla/clock.ts';

const medianOf = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

/**
 * Each step's median over `runs` runs, ms; a step that answers a number (a pure part timed inside)
 * counts that number, not its own reads.
 */
async function medians(runs: number, steps: Record<string, () => Promise<unknown>>) {
  const out: Record<string, number> = {};
  for (const [name, step] of Object.entries(steps)) {
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const began = performance.now();
      const inner = await step();
      times.push(typeof inner === 'number' ? inner : performance.now() - began);
    }
    out[name] = Math.round(medianOf(times) * 100) / 100;
  }
  return out;
}

const open = Number(process.argv[2] ?? 2000);
const url = process.env.DATABASE_URL;
const schema = url ? `bench_sla_${randomBytes(4).toString('hex')}` : undefined;
if (url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
}
const database = await openDatabase(url ? { url, schema, poolSize: 4 } : {});
const db = database.db;
try {
  await prepareDatabase(db, registry(), 'none', schema);
  const tenant = await db
    .insertInto('tenants')
    .values({ slug: 'bench', name: 'Bench' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const tenantId = tenant.id;
  const status = await db
    .insertInto('ticket_statuses')
    .values([
      { tenant_id: tenantId, name: 'Open', name_client: 'Open', internal_type: 1, order: 1 },
      {
        tenant_id: tenantId,
        name: 'Wacht',
        name_client: 'Wacht',
        internal_type: 4,
        order: 2,
        pauses_sla: true,
      },
    ])
    .returning('id')
    .execute();
  const [openStatus, waiting] = status.map((s) => s.id) as [number, number];
  const calendar = await db
    .insertInto('business_hour_contracts')
    .values({
      tenant_id: tenantId,
      name: 'Kantoor',
      schedule: JSON.stringify(
        Object.fromEntries(
          ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [
            d,
            [
              { from: '08:30', to: '12:30' },
              { from: '13:00', to: '17:30' },
            ],
          ]),
        ),
      ),
      timezone: 'Europe/Amsterdam',
      holidays: JSON.stringify([{ date: '12-25', name: 'Kerst' }]),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const sla = await db
    .insertInto('slas')
    .values({
      tenant_id: tenantId,
      name: 'Business',
      response_time: 240,
      next_response_time: 480,
      resolution_time: 2400,
      business_hour_contract_id: calendar.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const start = Date.now() - 60 * 24 * 60 * 60_000;

  // One ticket with 100 events: 60 replies either way and 40 status changes into and out of a pause.
  const [one] = await db
    .insertInto('tickets')
    .values({
      tenant_id: tenantId,
      description: 'Honderd',
      status_id: openStatus,
      sla_id: sla.id,
      created_at: new Date(start),
    })
    .returning('id')
    .execute();
  const at = (i: number) => new Date(start + (i + 1) * 11 * 60 * 60_000);
  await db
    .insertInto('messages')
    .values(
      Array.from({ length: 60 }, (_, i) => ({
        tenant_id: tenantId,
        morphable_type: 'ticket',
        morphable_id: one!.id,
        message: '<p>…</p>',
        is_from_client: i % 2 === 0,
        visible_to_client: true,
        created_at: at(i),
      })),
    )
    .execute();
  await db
    .insertInto('ticket_changes')
    .values(
      Array.from({ length: 40 }, (_, i) => ({
        tenant_id: tenantId,
        ticket_id: one!.id,
        field: 'status_id',
        from_value: String(i % 2 === 0 ? openStatus : waiting),
        to_value: String(i % 2 === 0 ? waiting : openStatus),
        created_at: new Date(at(i).getTime() + 30 * 60_000),
      })),
    )
    .execute();
  // The recompute runs inside the transaction of the reply or change that calls it, whose commit (a
  // WAL flush, several ms on this disk) it does not add: timed is the call, and apart the call in a
  // transaction of its own.
  const times: number[] = [];
  const alone: number[] = [];
  for (let run = 0; run < 60; run++) {
    const began = performance.now();
    await db.transaction().execute(async (trx) => {
      const called = performance.now();
      await storeTicketClocks(trx, tenantId, [one!.id]);
      times.push(performance.now() - called);
    });
    alone.push(performance.now() - began);
  }
  const median = medianOf(times);
  // Where one recompute's time goes: each read on its own, the pure measure, the write.
  const today = tenantToday(Date.now());
  const split = await medians(60, {
    // The floor: one round trip that does nothing.
    roundTrip: () => sql`select 1`.execute(db),
    // The history and the applied SLA: one statement.
    history: () => ticketHistory(db, tenantId, one!.id, today),
    policies: () => slaPolicies(db, tenantId, [sla.id]),
    write: async () => {
      const [row] = await db.selectFrom('tickets').selectAll().where('id', '=', one!.id).execute();
      const began = performance.now();
      await db
        .updateTable('tickets')
        .set({ sla_due: row!.sla_due, resolution_due: row!.resolution_due, sla_state: row!.sla_state })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', one!.id)
        .execute();
      return performance.now() - began;
    },
    measure: async () => {
      const { events } = (await ticketHistory(db, tenantId, one!.id, today))!;
      const policy = (await slaPolicies(db, tenantId, [sla.id])).get(sla.id)!;
      const began = performance.now();
      computeClock(events, () => policy, Date.now());
      return performance.now() - began;
    },
  });

  // Every open ticket of the SLA, measured again by the pass after the SLA changed.
  await sql`insert into tickets (tenant_id, description, status_id, sla_id, created_at)
    select ${tenantId}, 'Open ' || g, ${openStatus}, ${sla.id}, now() - (g % 500) * interval '1 hour'
    from generate_series(1, ${open}) g`.execute(db);
  await recheckSlaClocks(db);
  while ((await recheckSlaClocks(db)) > 0);
  await markForRecheck(db, tenantId, sql<boolean>`applied_sla_id = ${sla.id}`);
  const began = performance.now();
  let measured = 0;
  for (let n = await recheckSlaClocks(db); n > 0; n = await recheckSlaClocks(db)) measured += n;
  const seconds = (performance.now() - began) / 1000;
  console.log(
    JSON.stringify({
      engine: url ? 'postgres' : 'pglite',
      oneTicket100EventsMedianMs: Math.round(median * 100) / 100,
      withOwnTransactionMedianMs: Math.round(medianOf(alone) * 100) / 100,
      splitMedianMs: split,
      slaRecompute: {
        tickets: measured,
        seconds: Math.round(seconds * 10) / 10,
        perSecond: Math.round(measured / seconds),
      },
    }),
  );
} finally {
  if (schema) await sql.raw(`drop schema ${schema} cascade`).execute(db);
  await database.close();
}
