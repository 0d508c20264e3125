/**
 * Tenant settings (table tenant_configs, resource `config`): named text values an operator can change,
 * read by the server where a rule depends on them (the default ticket status, the portal's ticket form).
 */
import type { Db } from '../db/database.ts';

export async function tenantConfig(db: Db, tenantId: number, name: string): Promise<string | null> {
  const row = await db
    .selectFrom('tenant_configs')
    .select('value')
    .where('tenant_id', '=', tenantId)
    .where('name', '=', name)
    .executeTakeFirst();
  return (row?.value as string | null | undefined) ?? null;
}

/** A setting that holds JSON; a value that does not parse counts as absent (an operator's typo must not break a screen). */
export async function tenantJsonConfig<T>(db: Db, tenantId: number, name: string): Promise<T | null> {
  const value = await tenantConfig(db, tenantId, name);
  if (value === null) return null;
  try {
    return JSON.parse(value) as T;
  } catch {
    return null;
  }
}

/** SPEC 5: the ticket fields the portal's create form shows, and which of them it requires. */
export const PORTAL_TICKET_FIELDS = 'portal_ticket_fields';
export interface PortalTicketField {
  field: string;
  required?: boolean;
}

/**
 * Issue 35: whether the portal shows clients the SLA promise of their ticket (GET /tickets/{id}/sla).
 * On unless the tenant turns it off: a desk that promises times says so by default.
 */
export const PORTAL_SHOW_SLA = 'portal_show_sla';

/** What an operator may type to turn a yes/no setting off, in any of the apps' languages. */
const OFF = new Set(['0', 'false', 'off', 'no', 'nee', 'nein', 'uit', 'aus']);

/** A yes/no setting: `fallback` when absent or empty, off for the words above, else on. */
export async function tenantFlag(
  db: Db,
  tenantId: number,
  name: string,
  fallback: boolean,
): Promise<boolean> {
  const value = (await tenantConfig(db, tenantId, name))?.trim().toLowerCase();
  if (value === undefined || value === '') return fallback;
  return !OFF.has(value);
}
