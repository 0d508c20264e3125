import { sql, type Kysely } from 'kysely';

/*
 * Satisfaction surveys (issue 39, item 3), frozen in time like every migration.
 *
 * satisfaction_surveys: one row per ticket at most (unique tenant_id, ticket_id): the survey mailed to the
 * ticket's client when it was resolved. The link's secret exists only in the mail; the row keeps its
 * hash (`token_hash`). `scale` is 3 (good, neutral, bad) or 5 (1 to 5) as the tenant had it when the mail
 * went; `rating` and `sentiment` are set once, by the claim of a rating (`rated_at is null`), which makes
 * the link single use. `operator_id` and `company_id` are the ticket's at resolving: the reports count
 * the rating for whoever handled the ticket then.
 * tickets.satisfaction: the ticket's rating as a word (good, neutral, bad), so the ticket shows it, lists
 * filter on it and a trigger's conditions (the tickets' list builder) can test it.
 * users.survey_opt_out: a client (a sender) who asked for no surveys gets none.
 * automation_rules.event: the new trigger event `survey_rated`.
 */

const EVENTS = [
  'ticket_created',
  'ticket_updated',
  'client_message',
  'operator_message',
  'mail_received',
  'sla_warning',
  'sla_breach',
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table satisfaction_surveys (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      ticket_id integer not null references tickets (id) on delete cascade,
      client_id integer references users (id) on delete set null,
      operator_id integer references users (id) on delete set null,
      company_id integer references companies (id) on delete set null,
      token_hash text not null unique,
      scale smallint not null check (scale in (3, 5)),
      language text not null default 'nl',
      sent_at timestamptz not null default now(),
      expires_at timestamptz not null,
      rating smallint check (rating between 1 and 5),
      sentiment text check (sentiment in ('good', 'neutral', 'bad')),
      comment text,
      rated_at timestamptz,
      unique (tenant_id, ticket_id)
    )`.execute(db);
  // The reports: ratings per month, then per operator or company.
  await sql`create index satisfaction_surveys_rated on satisfaction_surveys (tenant_id, rated_at)
    where rated_at is not null`.execute(db);
  await sql`alter table tickets add column satisfaction text
    check (satisfaction in ('good', 'neutral', 'bad'))`.execute(db);
  await sql`alter table users add column survey_opt_out boolean not null default false`.execute(db);
  await sql`alter table automation_rules drop constraint if exists automation_rules_event_check`.execute(db);
  await sql`alter table automation_rules add constraint automation_rules_event_check
    check (event in (${sql.join([...EVENTS, 'survey_rated'].map((e) => sql.lit(e)))}))`.execute(db);
}
