import { sql, type Kysely } from 'kysely';

/*
 * Signing keys get generations (issue 15): a name may hold several keys, the newest signs, each
 * signature names its generation, so a key can be rotated while what the old one signed stays valid
 * until it expires (server/db/signing-keys.ts). The existing attachment-urls key is generation 1.
 * The `jwt` key is not made here: only an instance on PostgreSQL without JWT_SECRET makes and uses it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table signing_keys add column generation integer not null default 1 check (generation > 0)`.execute(
    db,
  );
  await sql`alter table signing_keys drop constraint signing_keys_pkey`.execute(db);
  await sql`alter table signing_keys add primary key (name, generation)`.execute(db);
  await sql`alter table signing_keys alter column generation drop default`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from signing_keys s where exists (
    select 1 from signing_keys n where n.name = s.name and n.generation > s.generation)`.execute(db);
  await sql`alter table signing_keys drop constraint signing_keys_pkey`.execute(db);
  await sql`alter table signing_keys drop column generation`.execute(db);
  await sql`alter table signing_keys add primary key (name)`.execute(db);
}
