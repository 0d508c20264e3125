/**
 * The audit log (issue 38, item 5): one row per sign-in, sensitive change, delete, merge, export and
 * invoice download, written by `audit()` in the transaction of what it records (a change rolled back
 * leaves no entry). Who and from where come from the caller's AuthContext, which the request fills
 * (auth/plugin.ts: `ip` is Fastify's request.ip, so a forwarded address counts only behind a proxy
 * TRUST_PROXY names). What is secret never reaches the table: `withoutSecrets` decides, from the schema.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../auth/context.ts';
import type { Db } from '../db/database.ts';
import type { Field, Resource } from '../../common/schema/types.ts';

/** Who did it: the caller's context, or at sign-in the tenant, the user (if known) and the address. */
export type AuditCaller = Pick<AuthContext, 'tenantId' | 'userId' | 'ip' | 'tokenId'>;

export interface AuditEntry {
  /** `auth.login`, `record.update`, `export.create`, … (docs/security.md lists them). */
  action: string;
  resource?: string;
  recordId?: number;
  /** {field: [before, after]} for an update; the stored fields for a create; the record for a delete. */
  changes?: Record<string, unknown>;
  /** The name a failed sign-in tried; otherwise the user's e-mail address is taken as it is now. */
  actor?: string;
}

/** What a secret's value is shown as: the entry says it changed, never what to. */
export const HIDDEN = '[hidden]';

/**
 * Secrets by name, for the columns no schema describes (hashes, tokens) and as a second net under the
 * schema's own marks: a password or secret anywhere in the name, a token, hash or key at its end (a
 * `token_id` names a token, it is none). Linear: alternatives of fixed words, no nested repetition.
 */
const SECRET_NAME = /(^|_)(password|passwd|secret)(_|$)|(^|_)(token|hash|encrypted|api_key|private_key)s?$/i;

/** A field whose value is a secret: writeOnly, a password, or a secret's name. */
export function isSecret(field: Pick<Field, 'name' | 'column' | 'writeOnly' | 'format'>): boolean {
  return (
    field.writeOnly ||
    field.format === 'password' ||
    SECRET_NAME.test(field.name) ||
    SECRET_NAME.test(field.column)
  );
}

/** `values` by field (or column) name with every secret's value replaced by HIDDEN. */
export function withoutSecrets(
  resource: Resource | undefined,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const columns = new Map(Object.values(resource?.fields ?? {}).map((f) => [f.column, f]));
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = resource?.fields[name] ?? columns.get(name);
    const secret = field ? isSecret(field) : SECRET_NAME.test(name);
    out[name] = secret && value !== null && value !== undefined ? HIDDEN : value;
  }
  return out;
}

/** Whether storing or updating `fields` of `resource` is audited: x-audit on the schema, or on one of the fields. */
export function auditsWrite(resource: Resource, fields: Iterable<string>): boolean {
  if (resource.schema['x-audit'] === true) return true;
  for (const name of fields) if (resource.fields[name]?.schema['x-audit'] === true) return true;
  return false;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** {field: [before, after]} for the fields `after` sets that differ from `before`; secrets hidden. */
export function changesOf(
  resource: Resource,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const [name, value] of Object.entries(after)) {
    const field = resource.fields[name];
    if (field && isSecret(field)) {
      // A secret is never read back to compare: that one was sent is the change.
      out[name] = [HIDDEN, HIDDEN];
      continue;
    }
    if (!same(before[name], value)) out[name] = [before[name] ?? null, value ?? null];
  }
  return out;
}

/** Writes one entry, in `db`'s transaction when it is one. */
export async function audit(db: Db, who: AuditCaller, entry: AuditEntry): Promise<void> {
  const userId = who.userId ?? null;
  await db
    .insertInto('audit_log')
    .values({
      tenant_id: who.tenantId,
      user_id: userId,
      // The address as it is now: a later change of it, or the user's deletion, keeps this one.
      actor:
        entry.actor ?? (userId === null ? null : sql<string>`(select email from users where id = ${userId})`),
      ip: who.ip ?? null,
      token_id: who.tokenId ?? null,
      action: entry.action,
      resource: entry.resource ?? null,
      record_id: entry.recordId ?? null,
      changes: entry.changes === undefined ? null : JSON.stringify(entry.changes),
    })
    .execute();
}
