/**
 * Who an operator's message to the client goes to (issue 5, item 6): `to` as sent, else the owner's
 * client (the ticket's or asset's client, or the client the message is on), else the address the
 * ticket came in from (`original_email_from` of its first message that has one); plus cc and bcc.
 * Each address is recorded on the message with whether it is a client of the tenant and which user.
 */
import type { Db } from '../../db/database.ts';
import { bySchema } from '../../db/schema-tables.ts';

export interface Recipient {
  address: string;
  isClient: boolean;
  user: number | null;
  kind: 'to' | 'cc' | 'bcc';
}

export interface Addresses {
  to: string[];
  cc: string[];
  bcc: string[];
}

const MAX_ADDRESSES = 50;
/**
 * A plain mailbox address: no display name, no list, no header-breaking characters, a domain of dotted
 * labels. Each character can match one way only (the labels hold no dot), so the test takes time in
 * proportion to the text: an operator's 2 MB form field cannot hold the event loop. At most 255
 * characters, looked at first.
 */
const ADDRESS = /^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\.]+(?:\.[^\s@<>()[\],;:"\\.]+)+$/;
export const isMailboxAddress = Object.assign((text: string) => text.length <= 255 && ADDRESS.test(text), {
  pattern: ADDRESS,
});

/** Adds a line per bad address to `errors`; the cleaned lists otherwise. */
export function checkAddresses(record: Record<string, unknown>, errors: Record<string, string[]>): Addresses {
  const out: Addresses = { to: [], cc: [], bcc: [] };
  for (const kind of ['to', 'cc', 'bcc'] as const) {
    const list = record[kind];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) continue; // the schema's own check reports it
    if (list.length > MAX_ADDRESSES) {
      errors[kind] = [`At most ${MAX_ADDRESSES} addresses can be given in ${kind}.`];
      continue;
    }
    list.forEach((raw, i) => {
      const address = typeof raw === 'string' ? raw.trim() : '';
      if (!isMailboxAddress(address)) {
        (errors[`${kind}.${i}`] ??= []).push(`The ${kind}.${i} must be a valid e-mail address.`);
      } else if (!out[kind].some((a) => a.toLowerCase() === address.toLowerCase())) out[kind].push(address);
    });
  }
  return out;
}

const CLIENT_COLUMN: Record<string, string | undefined> = { ticket: 'client_id', asset: 'client_id' };

/** The owner's client address, else the address the ticket came in from; undefined when none. */
export async function defaultAddress(
  db: Db,
  tenantId: number,
  owner: { type: string; table: string; id: number },
): Promise<string | undefined> {
  let clientId: number | null = null;
  if (owner.type === 'user') clientId = owner.id;
  const column = CLIENT_COLUMN[owner.type];
  if (column) {
    const row = await bySchema(db)
      .selectFrom(owner.table)
      .select(`${column} as client_id`)
      .where('tenant_id', '=', tenantId)
      .where('id', '=', owner.id)
      .executeTakeFirst();
    clientId = (row?.client_id as number | null | undefined) ?? null;
  }
  if (clientId !== null) {
    const user = await db
      .selectFrom('users')
      .select('email')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', clientId)
      .executeTakeFirst();
    if (user?.email) return user.email;
  }
  const first = await db
    .selectFrom('messages')
    .select('original_email_from')
    .where('tenant_id', '=', tenantId)
    .where('morphable_type', '=', owner.type)
    .where('morphable_id', '=', owner.id)
    .where('original_email_from', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  return first?.original_email_from ?? undefined;
}

/** Every address with the tenant user it belongs to, if any. */
export async function describeRecipients(
  db: Db,
  tenantId: number,
  addresses: Addresses,
): Promise<Recipient[]> {
  const all = [...addresses.to, ...addresses.cc, ...addresses.bcc];
  const users = all.length
    ? await db
        .selectFrom('users')
        .select(['id', 'email', 'is_staff'])
        .where('tenant_id', '=', tenantId)
        .where((eb) =>
          eb(
            eb.fn('lower', ['email']),
            'in',
            all.map((a) => a.toLowerCase()),
          ),
        )
        .execute()
    : [];
  const byAddress = new Map(users.map((u) => [String(u.email).toLowerCase(), u]));
  return (['to', 'cc', 'bcc'] as const).flatMap((kind) =>
    addresses[kind].map((address) => {
      const user = byAddress.get(address.toLowerCase());
      return { address, isClient: !!user && !user.is_staff, user: user ? Number(user.id) : null, kind };
    }),
  );
}
