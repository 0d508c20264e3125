import { sql, type Kysely } from 'kysely';

/*
 * Quote acceptance and prepaid purchases (issue 4), frozen in time like every migration.
 *
 * quotes already holds what the API shows of an acceptance (signed_name, signed_note, accepted_at) and the
 * signature image; quote_acceptances is the record of who accepted and from where: the caller's address, the
 * user (a client) or the quote link (via_token). One per quote: a second accept cannot be recorded.
 *
 * prepaid_purchases records every prepaid card bought onto a contract: which card, how many hours, at what
 * price (copied at the moment of purchase, the card's price may change later) and by whom.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table quote_acceptances (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      quote_id integer not null unique references quotes(id) on delete cascade,
      name text not null,
      note text,
      signature text not null,
      accepted_at timestamptz not null default now(),
      ip text,
      user_id integer references users(id) on delete set null,
      via_token boolean not null default false,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index quote_acceptances_tenant_id_idx on quote_acceptances (tenant_id)`.execute(db);

  await sql`
    create table prepaid_purchases (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      contract_id integer not null references contracts(id) on delete cascade,
      prepaid_card_id integer references prepaid_cards(id) on delete set null,
      description text not null,
      hours numeric(12,4) not null,
      price numeric(14,2) not null,
      user_id integer references users(id) on delete set null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index prepaid_purchases_tenant_id_contract_id_idx on prepaid_purchases (tenant_id, contract_id, created_at desc)`.execute(
    db,
  );
  await sql`create index prepaid_purchases_prepaid_card_id_idx on prepaid_purchases (prepaid_card_id)`.execute(
    db,
  );
  await sql`create index prepaid_purchases_user_id_idx on prepaid_purchases (user_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists prepaid_purchases`.execute(db);
  await sql`drop table if exists quote_acceptances`.execute(db);
}
