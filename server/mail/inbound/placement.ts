/**
 * Where an incoming mail lands and whose words it is (issue 31, items 2 and 3): the rules of the table
 * in docs/security.md, "Incoming mail: what a mail must carry to land where".
 *
 * A mail joins an existing ticket only when it proves it belongs there:
 * - it carries a reply token of that ticket (server/mail/reply-token.ts) in In-Reply-To/References,
 *   which only a mail we sent about that ticket had; or
 * - its sender is verified (authenticate.ts) and a participant of the ticket the mail points at (its
 *   subject's reference, or a Message-ID of the ticket's thread): a client who may see the ticket, an
 *   operator of the tenant, or an address our mails on that ticket went to.
 * Anything else (a subject reference from anyone else, a forged From, a guessed Message-ID) makes a new
 * ticket, never a message on the ticket it names.
 *
 * Whose words: a verified client who may see the ticket writes as that client (as in the portal); a
 * verified operator writes an internal note; a verified address we mailed on the ticket writes a message
 * the client sees; anyone else's message is kept for operators only (not visible to the client). An
 * unverified sender's message is marked 'unverified' (held) until an operator confirms it.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../../auth/context.ts';
import { linkHolderContext } from '../../auth/authenticate.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import type { Registry } from '../../schema/registry.ts';
import { BodyValidation } from '../../schema/validate.ts';
import { findRecord } from '../../resources/repository.ts';
import { tenantConfig } from '../../settings/tenant-config.ts';
import { readReplyTokens } from '../reply-token.ts';
import type { IncomingMail } from './parse.ts';
import type { SenderCheck } from './authenticate.ts';

/** A subject's ticket reference, as tickets get them (server/resources/tickets/hooks.ts). */
const REFERENCE = /\[(T-\d{4}-\d{5,})\]/i;
/** The Message-IDs of a mail's References looked at (a header has a length; the direct answer is last). */
const MAX_ANSWERS = 50;

/** The tenant setting of what an unverified sender's mail gets: `hold` (the default) or `refuse`. */
export const UNVERIFIED_SENDER_SETTING = 'mail_unverified_sender';

/** Whether the tenant refuses mail whose sender is not verified (else it is held for operators). */
export async function refusesUnverified(db: Db, tenantId: number): Promise<boolean> {
  return (await tenantConfig(db, tenantId, UNVERIFIED_SENDER_SETTING))?.trim().toLowerCase() === 'refuse';
}

/** Who sent the mail, as far as the desk can tell. */
export type Sender =
  | { kind: 'client'; context: AuthContext }
  | { kind: 'operator'; userId: number }
  | { kind: 'other' }
  | { kind: 'unverified' };

/** How the message is written: as the client (the portal's path), or by the desk with these fields. */
export interface Author {
  client?: AuthContext;
  fields: { is_from_client: boolean; visible_to_client: boolean };
  /** The operator who wrote it (an operator's mail): written with the message, as the desk writes it. */
  actorId?: number;
  senderCheck: 'verified' | 'unverified';
  note: string;
}

export interface Placement {
  /** The ticket the mail joins; undefined: it opens a new one. */
  ticketId?: number;
  author: Author;
  /** The client a new ticket is opened for (a verified client only). */
  client?: AuthContext;
}

/** The sender as the desk knows it: a verified client or operator of the tenant, someone else, or unproven. */
export async function identifySender(
  db: Db,
  tenantId: number,
  address: string | undefined,
  check: SenderCheck,
): Promise<Sender> {
  if (!address || !check.verified) return { kind: 'unverified' };
  const user = await db
    .selectFrom('users')
    .select(['id', 'is_staff'])
    .where('tenant_id', '=', tenantId)
    .where('archived_at', 'is', null)
    .where(sql`lower(email)`, '=', address.toLowerCase())
    .orderBy('id')
    .executeTakeFirst();
  if (!user) return { kind: 'other' };
  if (user.is_staff) return { kind: 'operator', userId: Number(user.id) };
  const context = await linkHolderContext(db, tenantId, Number(user.id));
  return context?.kind === 'client' ? { kind: 'client', context } : { kind: 'other' };
}

/** The tenant's ticket `id`, if it exists (and is no template). */
async function ticketExists(db: Db, tenantId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('tickets')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('is_template', '=', false)
    .executeTakeFirst();
  return row !== undefined;
}

/** The ticket the mail points at without proof: its subject's reference, else a Message-ID of a thread. */
async function pointedAt(db: Db, tenantId: number, mail: IncomingMail): Promise<number | undefined> {
  const reference = REFERENCE.exec(mail.subject)?.[1];
  if (reference) {
    const row = await db
      .selectFrom('tickets')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('is_template', '=', false)
      .where(sql`upper(reference)`, '=', reference.toUpperCase())
      .executeTakeFirst();
    if (row) return Number(row.id);
  }
  const answers = mail.answers.slice(-MAX_ANSWERS);
  if (answers.length === 0) return undefined;
  const row = await db
    .selectFrom('messages')
    .select('morphable_id')
    .where('tenant_id', '=', tenantId)
    .where('morphable_type', '=', 'ticket')
    .where('mail_message_id', 'in', answers)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? Number(row.morphable_id) : undefined;
}

/** Whether a mail of ours about the ticket went to `address` (to, cc or bcc of an operator's message). */
async function mailedOnTicket(db: Db, tenantId: number, ticketId: number, address: string): Promise<boolean> {
  const { rows } = await sql<{ found: number }>`
    select 1 as found from messages m
    where m.tenant_id = ${tenantId} and m.morphable_type = 'ticket' and m.morphable_id = ${ticketId}
      and not m.is_from_client and m.mail_message_id is not null
      and exists (select 1 from jsonb_array_elements_text(m."to" || m.cc || m.bcc) a(address)
                  where lower(a.address) = ${address.toLowerCase()})
    limit 1`.execute(db);
  return rows.length > 0;
}

/** Whether the client may see the ticket (the portal's own scope). */
async function clientSees(db: Db, registry: Registry, client: AuthContext, ticketId: number) {
  try {
    const deps = { db, registry, validation: new BodyValidation() };
    await findRecord(deps, client, registry.require('tickets'), ticketId);
    return true;
  } catch (error) {
    if (error instanceof HttpError && error.statusCode < 500) return false;
    throw error;
  }
}

/** Where the mail lands and whose words it is (the header's rules). */
export async function placeMail(
  db: Db,
  registry: Registry,
  tenantId: number,
  mail: IncomingMail,
  check: SenderCheck,
  options: { fresh?: boolean } = {},
): Promise<Placement> {
  const sender = await identifySender(db, tenantId, mail.from, check);
  const verified = sender.kind !== 'unverified';
  // `fresh`: the mail's new ticket exists already (its first message is being written again).
  const tokens = options.fresh
    ? []
    : await readReplyTokens(db, tenantId, mail.answers.slice(-MAX_ANSWERS), mail.from);
  let ticketId: number | undefined;
  let addressed = false;
  // The direct answer is last in `answers`: its token wins.
  for (const token of tokens.reverse()) {
    if (!(await ticketExists(db, tenantId, token.ticketId))) continue;
    ticketId = token.ticketId;
    addressed = token.toSender;
    break;
  }
  let sees = false;
  if (ticketId === undefined && verified && !options.fresh) {
    const candidate = await pointedAt(db, tenantId, mail);
    if (candidate !== undefined) {
      sees = sender.kind === 'client' && (await clientSees(db, registry, sender.context, candidate));
      const mailed = !sees && !!mail.from && (await mailedOnTicket(db, tenantId, candidate, mail.from));
      if (sees || sender.kind === 'operator' || mailed) {
        ticketId = candidate;
        addressed = mailed;
      }
    }
  } else if (ticketId !== undefined && verified) {
    sees = sender.kind === 'client' && (await clientSees(db, registry, sender.context, ticketId));
    addressed ||= !!mail.from && (await mailedOnTicket(db, tenantId, ticketId, mail.from));
  }

  const base = { senderCheck: verified ? ('verified' as const) : ('unverified' as const), note: check.note };
  const desk = (visible: boolean): Author => ({
    ...base,
    fields: { is_from_client: true, visible_to_client: visible },
  });
  const client = sender.kind === 'client' ? sender.context : undefined;
  if (ticketId === undefined) {
    // A new ticket: a verified client's own; anyone else's in the unknown-sender group.
    if (client)
      return {
        author: { ...base, client, fields: { is_from_client: true, visible_to_client: true } },
        client,
      };
    return { author: desk(verified) };
  }
  if (client && sees)
    return {
      ticketId,
      author: { ...base, client, fields: { is_from_client: true, visible_to_client: true } },
    };
  if (sender.kind === 'operator') {
    const fields = { is_from_client: false, visible_to_client: false };
    return { ticketId, author: { ...base, fields, actorId: sender.userId } };
  }
  return { ticketId, author: desk(verified && addressed) };
}
