import { sql, type Kysely } from 'kysely';

/*
 * Invoicing time registrations and used products (issue 6), frozen in time like every migration.
 *
 * invoice_lines.source_type / source_id name the record a line was made from (the resource name and its
 * id), so de-invoicing removes exactly that line. The unique index makes a record appear on at most one
 * invoice line, whatever two racing calls do.
 *
 * invoices.re_export_requested_at records that an operator without the PDF-export module asked for the
 * invoice to be exported again (SPEC 4: "otherwise a re-export request").
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table invoice_lines add column source_type text, add column source_id integer`.execute(db);
  await sql`create unique index invoice_lines_source_unique
    on invoice_lines (tenant_id, source_type, source_id) where source_type is not null`.execute(db);
  await sql`alter table invoices add column re_export_requested_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table invoices drop column if exists re_export_requested_at`.execute(db);
  await sql`drop index if exists invoice_lines_source_unique`.execute(db);
  await sql`alter table invoice_lines drop column if exists source_id, drop column if exists source_type`.execute(
    db,
  );
}
