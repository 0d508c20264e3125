import { sql, type Kysely } from 'kysely';

/*
 * Export jobs (issue 6), frozen in time like every migration.
 *
 * A job is the whole state of one export, so a restarted process finishes what an earlier one left:
 * queued jobs wait for a worker; a running job carries a lease (locked_until) that its worker extends
 * while it works, and a job whose lease ran out (the process died) is taken again. Workers claim jobs
 * with SELECT … FOR UPDATE SKIP LOCKED, so several processes never run one job twice at once.
 *
 * filter holds the builder items as the client sent them (already checked when the job was queued,
 * checked again when it runs: the user's access may have changed); columns the field names in order and
 * their headers as the user saw them.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table export_jobs (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      model text not null,
      filter jsonb not null default '[]',
      columns jsonb not null default '[]',
      locale text not null default 'nl',
      origin text not null,
      status text not null default 'queued'
        check (status in ('queued', 'running', 'done', 'failed')),
      attempts integer not null default 0,
      locked_until timestamptz,
      row_count integer,
      csv_key text,
      xlsx_key text,
      error text,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz
    )`.execute(db);
  // The user's own list, newest first.
  await sql`create index export_jobs_user_index on export_jobs (tenant_id, user_id, id desc)`.execute(db);
  // What a worker looks for: jobs not yet finished.
  await sql`create index export_jobs_pending_index on export_jobs (id) where status in ('queued', 'running')`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists export_jobs`.execute(db);
}
