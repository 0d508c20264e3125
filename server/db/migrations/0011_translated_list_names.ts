import { sql, type Kysely } from 'kysely';

/*
 * The tenant's named lists get a name per language (issue 14, item 17): the existing column keeps the
 * Dutch name, `<column>_en` and `<column>_de` hold English and German (null: not translated, the reader
 * gets the fallback: German -> English -> Dutch). The schemas mark the field `x-translated`.
 * The invoice statuses are the same for every tenant and not editable: their translations are filled here.
 */

/** table -> its translated columns. */
export const TRANSLATED: Record<string, string[]> = {
  priorities: ['label'],
  ticket_statuses: ['name', 'name_client'],
  asset_statuses: ['name'],
  invoice_statuses: ['name'],
  asset_categories: ['name'],
  activities: ['name'],
  categories: ['name'],
  ticket_sources: ['name'],
  ticket_types: ['name'],
  countries: ['name'],
  services: ['name'],
  slas: ['name'],
  business_hour_contracts: ['name'],
};

const INVOICE_STATUS_NAMES: [id: number, en: string, de: string][] = [
  [1, 'Sent', 'Versendet'],
  [2, 'Outstanding', 'Offen'],
  [3, 'Outstanding (reminded)', 'Offen (gemahnt)'],
  [4, 'Paid', 'Bezahlt'],
  [8, 'Credit invoice', 'Gutschrift'],
  [9, 'Expired', 'Abgelaufen'],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, columns] of Object.entries(TRANSLATED)) {
    const added = columns.flatMap((c) => [`add column ${c}_en text`, `add column ${c}_de text`]);
    await sql.raw(`alter table ${table} ${added.join(', ')}`).execute(db);
  }
  for (const [id, en, de] of INVOICE_STATUS_NAMES) {
    await sql`update invoice_statuses set name_en = ${en}, name_de = ${de} where id = ${id}`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, columns] of Object.entries(TRANSLATED)) {
    const dropped = columns.flatMap((c) => [
      `drop column if exists ${c}_en`,
      `drop column if exists ${c}_de`,
    ]);
    await sql.raw(`alter table ${table} ${dropped.join(', ')}`).execute(db);
  }
}
