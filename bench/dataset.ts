/**
 * The benchmark database: the product's migrations and demo tenant (its accounts, password "demo"),
 * then N more tickets over about 2,000 companies with two clients each, generated inside the database
 * (INSERT … SELECT over generate_series: no rows travel over the wire). A database that already holds
 * a data set of the same size is reused; one of another size is rebuilt.
 */
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../server/db/database.ts';
import { registry } from '../server/schema/registry.ts';
import { prepareDatabase } from '../server/boot.ts';
import { summaryTablesDown, summaryTablesUp } from '../server/db/summary-tables.ts';
import { prepareSlaClocks } from './sla-clocks.ts';
import { fillReportTimes, markColumn, prepareReportTimes } from './report-times.ts';

export interface Dataset {
  tenantId: number;
  tickets: number;
  companies: number;
  messages: number;
  /** A company of the portal client, and a ticket of it with messages. */
  clientCompanyId: number;
  detailTicketId: number;
  /** Status and company of the filtered-list scenario. */
  filterStatusId: number;
  filterCompanyId: number;
  statusIds: number[];
  /** The statuses neither closed nor archived: the 'open' of the SLA views and the dashboard. */
  openStatusIds: number[];
  priorityIds: number[];
  reused: boolean;
  seconds: number;
}

const INFO_TABLE = 'bench_info';

/** Creates the database of a postgres:// URL when it does not exist yet (a fresh machine). */
export async function ensurePostgresDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.end();
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  await admin.query(`create database "${name.replace(/"/g, '""')}"`);
  await admin.end();
}

async function existingSize(db: Db): Promise<number | null | 'foreign'> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_name in ('bench_info', 'tenants')`.execute(db);
  const names = new Set(rows.map((r) => r.name));
  if (names.has(INFO_TABLE)) {
    const info = await sql<{ tickets: number }>`select tickets from bench_info`.execute(db);
    return info.rows[0] ? Number(info.rows[0].tickets) : null;
  }
  return names.has('tenants') ? 'foreign' : null;
}

/** Drops everything of an earlier benchmark data set (only ever called on a database with bench_info). */
async function dropAll(db: Db): Promise<void> {
  await sql`drop schema public cascade`.execute(db);
  await sql`create schema public`.execute(db);
}

export async function prepareDataset(
  db: Db,
  kind: 'postgres' | 'pglite',
  tickets: number,
  log: (line: string) => void,
): Promise<Dataset> {
  const started = performance.now();
  const size = await existingSize(db);
  if (size === 'foreign') {
    throw new Error(
      'This database holds data that the benchmark did not create: point BENCH_DATABASE_URL at an empty or benchmark database.',
    );
  }
  const reuse = size === tickets;
  if (size !== null && !reuse) {
    log(`The benchmark database holds ${size} tickets, not ${tickets}: rebuilding it.`);
    await dropAll(db);
  }
  if (!reuse) {
    // Marked as a benchmark database (of no size yet) before anything else: a run stopped halfway
    // leaves a database the next run may rebuild.
    await sql`create table bench_info (tickets integer not null, created_at timestamptz not null default now())`.execute(
      db,
    );
    await sql`insert into bench_info (tickets) values (0)`.execute(db);
    await markColumn(db);
  }
  // Migrations run on a reused database too: an index added since is then built on it.
  await prepareDatabase(db, registry(), 'demo');
  if (!reuse) {
    log(`Generating ${tickets.toLocaleString('en')} tickets …`);
    await generate(db, tickets, log);
    await sql`update bench_info set tickets = ${tickets}, created_at = now(), report_times = true`.execute(
      db,
    );
  }
  const acme = await sql<{ id: number }>`select id from tenants where slug = 'acme'`.execute(db);
  // A data set made before the report times (issue 36) gets them once.
  await prepareReportTimes(db, Number(acme.rows[0]!.id), log);
  await prepareSlaClocks(db, Number(acme.rows[0]!.id), log);
  if (kind === 'postgres' || !reuse) {
    // Fresh statistics and visibility map: index-only scans and plans as on a settled production table.
    await sql`vacuum analyze`.execute(db);
  }
  return { ...(await describe(db)), tickets, reused: reuse, seconds: (performance.now() - started) / 1000 };
}

async function describe(db: Db): Promise<Omit<Dataset, 'tickets' | 'reused' | 'seconds'>> {
  const one = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(db)).rows[0]!;
  const { id: tenantId } = await one(sql<{ id: number }>`select id from tenants where slug = 'acme'`);
  const { company_id: clientCompanyId } = await one(sql<{ company_id: number }>`
    select cu.company_id from company_user cu join users u on u.id = cu.user_id
    where u.email = 'client@example.com' order by cu.company_id limit 1`);
  const { id: detailTicketId } = await one(sql<{ id: number }>`
    select t.id from tickets t where t.tenant_id = ${tenantId} and t.company_id = ${clientCompanyId}
    and exists (select 1 from messages m where m.morphable_type = 'ticket' and m.morphable_id = t.id)
    order by t.id desc limit 1`);
  const statuses = await sql<{
    id: number;
    internal_type: number;
  }>`select id, internal_type from ticket_statuses where tenant_id = ${tenantId} order by "order", id`.execute(
    db,
  );
  const priorities = await sql<{
    id: number;
  }>`select id from priorities where tenant_id = ${tenantId} order by "order", id`.execute(db);
  // The company with the most tickets: the filtered list's hardest case.
  const { company_id: filterCompanyId } = await one(sql<{ company_id: number }>`
    select company_id from tickets where tenant_id = ${tenantId} and company_id is not null
    group by company_id order by count(*) desc limit 1`);
  const { n: companies } = await one(
    sql<{ n: number }>`select count(*)::int as n from companies where tenant_id = ${tenantId}`,
  );
  const { n: messages } = await one(
    sql<{ n: number }>`select count(*)::int as n from messages where tenant_id = ${tenantId}`,
  );
  return {
    tenantId: Number(tenantId),
    clientCompanyId: Number(clientCompanyId),
    detailTicketId: Number(detailTicketId),
    statusIds: statuses.rows.map((r) => Number(r.id)),
    openStatusIds: statuses.rows
      .filter((r) => ![2, 3].includes(Number(r.internal_type)))
      .map((r) => Number(r.id)),
    priorityIds: priorities.rows.map((r) => Number(r.id)),
    filterStatusId: Number(statuses.rows[1]!.id),
    filterCompanyId: Number(filterCompanyId),
    companies: Number(companies),
    messages: Number(messages),
  };
}

/** About one company per 500 tickets, at least 20 and at most 2,000 (the realistic number). */
export function companyCount(tickets: number): number {
  return Math.max(20, Math.min(2_000, Math.round(tickets / 500)));
}

async function generate(db: Db, tickets: number, log: (line: string) => void): Promise<void> {
  const companies = companyCount(tickets);
  await db.connection().execute(async (conn) => {
    const run = async (label: string, statement: ReturnType<typeof sql>) => {
      const t = performance.now();
      await statement.execute(conn);
      log(`  ${label}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    };
    // Same data on every run.
    await sql`select setseed(0.2026)`.execute(conn);
    const { id: tenantId } = (
      await sql<{ id: number }>`select id from tenants where slug = 'acme'`.execute(conn)
    ).rows[0]!;
    const { id: clientRole } = (
      await sql<{
        id: number;
      }>`select id from roles where tenant_id = ${tenantId} and not is_operator order by id limit 1`.execute(
        conn,
      )
    ).rows[0]!;
    await run(
      `${companies} companies`,
      sql`insert into companies (tenant_id, name, address_1, postal_code, city, email, created_at, updated_at)
        select ${tenantId},
          (array['Bakker','De Jong','Van Dijk','Smit','Meijer','Mulder','Bos','Vos','Peters','Hendriks'])[1 + g % 10]
            || ' ' || (array['Installaties','Advies','Logistiek','Zorg','Bouw','Techniek','Groep','Accountants'])[1 + (g / 10) % 8]
            || ' ' || g || ' ' || (array['BV','NV','VOF'])[1 + g % 3],
          'Straatweg ' || g, lpad((1000 + g % 9000)::text, 4, '0') || ' AB',
          (array['Amsterdam','Rotterdam','Utrecht','Den Haag','Eindhoven','Groningen','Zwolle','Breda'])[1 + g % 8],
          'info@bench-' || g || '.example', now() - interval '6 years', now() - interval '6 years'
        from generate_series(1, ${companies}) g`,
    );
    await run(
      `${companies * 2} clients`,
      sql`insert into users (tenant_id, first_name, last_name, email, is_operator, is_staff, role_id, created_at, updated_at)
        select ${tenantId}, (array['Anna','Bram','Chris','Dewi','Eva','Finn','Iris','Jesse'])[1 + g % 8],
          (array['de Boer','Jansen','Visser','Kok','Dekker','Brouwer'])[1 + g % 6] || ' ' || g,
          'client-' || g || '@bench.example', 0, false, ${clientRole}, now() - interval '6 years', now() - interval '6 years'
        from generate_series(1, ${companies * 2}) g`,
    );
    await run(
      'company_user',
      sql`insert into company_user (tenant_id, company_id, user_id)
        select ${tenantId}, c.id, u.id
        from (select id, row_number() over (order by id) n from companies where tenant_id = ${tenantId} and email like '%@bench-%') c
        join (select id, row_number() over (order by id) n from users where tenant_id = ${tenantId} and email like '%@bench.example') u
          on (u.n + 1) / 2 = c.n`,
    );
    // Every company of the tenant (the demo's two included) numbered; one client of each.
    await sql`create temporary table bench_co as
      select row_number() over (order by c.id)::int as n, c.id,
        (select min(cu.user_id) from company_user cu where cu.company_id = c.id) as client_id
      from companies c where c.tenant_id = ${tenantId}`.execute(conn);
    await sql`create temporary table bench_lists as select
      (select array_agg(id order by "order", id) from ticket_statuses where tenant_id = ${tenantId}) as statuses,
      (select array_agg(id order by "order", id) from priorities where tenant_id = ${tenantId}) as priorities,
      (select array_agg(id order by id) from users where tenant_id = ${tenantId} and is_staff) as operators,
      (select array_agg(id order by id) from categories where tenant_id = ${tenantId}) as categories,
      (select array_agg(id order by id) from ticket_types where tenant_id = ${tenantId}) as types,
      (select array_agg(id order by id) from ticket_sources where tenant_id = ${tenantId}) as sources`.execute(
      conn,
    );
    const total = (await sql<{ n: number }>`select count(*)::int n from bench_co`.execute(conn)).rows[0]!.n;
    // The summary tables are filled once after the tickets, not row by row (server/db/summary-tables.ts).
    await summaryTablesDown(conn);
    // Company sizes are skewed (a few large customers, many small ones): the square of a uniform number.
    // Most tickets are closed or archived, as in a desk that has run for years.
    const batch = 250_000;
    for (let from = 1; from <= tickets; from += batch) {
      const to = Math.min(tickets, from + batch - 1);
      await run(
        `tickets ${from.toLocaleString('en')}-${to.toLocaleString('en')}`,
        sql`insert into tickets (tenant_id, reference, description, stage, priority_id, status_id, company_id,
            client_id, operator_id, ticket_type_id, ticket_source_id, category_id, deadline, resolved_at,
            created_at, updated_at, sla_recheck_at)
          select ${tenantId}, 'B-' || lpad(s.g::text, 7, '0'),
            (array['Outlook synchroniseert niet met de gedeelde agenda','Printer op de eerste verdieping drukt niet af',
              'Nieuwe medewerker: account en laptop klaarzetten','VPN-verbinding valt weg bij thuiswerken',
              'Laptop start niet op na update','Wachtwoord verlopen, kan niet inloggen','Geen geluid in Teams',
              'Wifi traag in de vergaderruimte','Licentie Adobe Acrobat verlengen','Back-up van vannacht mislukt',
              'Telefoon doorschakelen naar mobiel','Toegang tot gedeelde mailbox','Verdachte e-mail met bijlage',
              'Scannen naar e-mail werkt niet','Tweede beeldscherm niet herkend','OneDrive blijft hangen',
              'Netwerkkabel defect','Voicemail instellen','MFA op nieuwe telefoon','Excel crasht bij grote bestanden',
              'Toner bestellen','Medewerker uit dienst: accounts blokkeren','Firewall-regel openzetten',
              'Windows-updates uitrollen'])[1 + s.g % 24]
              || ' - ' || (array['werkplek','kantoor','filiaal','magazijn','receptie','directie','thuis'])[1 + (s.g / 24) % 7]
              || ' ' || (s.g % 997),
            (array[null,'Intake','Analyse','Uitvoering','Controle'])[1 + s.g % 5],
            l.priorities[1 + floor(s.r3 * array_length(l.priorities, 1))::int],
            l.statuses[case when s.r2 < 0.55 then 6 when s.r2 < 0.80 then 7 else 1 + floor(s.r2 * 1000)::int % 5 end],
            co.id, co.client_id,
            l.operators[1 + s.g % array_length(l.operators, 1)],
            l.types[1 + s.g % array_length(l.types, 1)],
            l.sources[1 + (s.g / 7) % array_length(l.sources, 1)],
            l.categories[1 + (s.g / 3) % array_length(l.categories, 1)],
            case when s.g % 4 = 0 then s.created + interval '3 days' end,
            case when s.r2 < 0.80 then s.updated end,
            s.created, s.updated,
            -- Not due for the SLA pass (./sla-clocks.ts stores the clocks of the recent tickets).
            null
          from (
            select g, random() as r2, random() as r3,
              1 + floor(power(random(), 2) * ${total})::int as cn,
              now() - (random() * interval '5 years') as created,
              null::timestamptz as updated
            from generate_series(${from}::int, ${to}::int) g
          ) s0
          cross join lateral (select s0.g, s0.r2, s0.r3, s0.cn, s0.created,
            s0.created + (random() * (now() - s0.created)) as updated) s
          join bench_co co on co.n = s.cn
          cross join bench_lists l`,
      );
    }
    // A thread of three messages on every fifth ticket: a question, a reply, an internal note.
    await run(
      'messages',
      sql`insert into messages (tenant_id, message, is_from_client, visible_to_client, morphable_type, morphable_id,
          type, actor_id, created_at, updated_at)
        select t.tenant_id,
          (array['<p>Sinds vanochtend werkt het niet meer. Kunnen jullie meekijken?</p>',
            '<p>We hebben op afstand meegekeken en de instellingen aangepast. Werkt het weer?</p>',
            '<p>Interne notitie: zelfde melding vorige maand, mogelijk hardware.</p>'])[k],
          k = 1, k < 3, 'ticket', t.id, 'normal',
          case when k = 1 then t.client_id else t.operator_id end,
          t.created_at + (k - 1) * interval '2 hours', t.created_at + (k - 1) * interval '2 hours'
        from tickets t cross join generate_series(1, 3) k
        where t.tenant_id = ${tenantId} and t.reference like 'B-%' and t.id % 5 = 0`,
    );
    // What the reports read, before the summary tables are filled from the tickets (./report-times.ts).
    const timed = performance.now();
    await fillReportTimes(conn, Number(tenantId), null);
    log(`  report times: ${((performance.now() - timed) / 1000).toFixed(1)} s`);
    await summaryTablesUp(conn, (name, ms) => log(`  ${name} again: ${(ms / 1000).toFixed(1)} s`));
  });
}
