import { sql, type Kysely } from 'kysely';

/*
 * Who made a ticket change, by name (frozen in time like every migration).
 *
 * ticket_changes.user_label: the name the person who made the change had then, an operator's or a
 * client's (a client rates her ticket from the survey link). The history's "by" read the operators only, so a
 * client's change showed no one; and a person deleted since (user_id set null) left no name at all. The
 * rows already there get the names their users have now.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table ticket_changes add column user_label text`.execute(db);
  await sql`
    update ticket_changes c set user_label = u.full_name
    from users u
    where u.id = c.user_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table ticket_changes drop column user_label`.execute(db);
}
