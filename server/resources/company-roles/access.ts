import type { DbTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../auth/context.ts';
import { reachOf, roleIn } from '../../auth/company-roles.ts';
import { ValidationError } from '../../http/errors.ts';
import { isPortalCaller } from '../../query/visibility.ts';
import { serverText } from '../../../common/server-texts.ts';

/*
 * The writes a client's company role decides (issue 39) beyond what it sees: creating a ticket for a
 * colleague, sharing a ticket, setting a colleague's role. Each check reads the memberships in the
 * write's transaction, so a colleague who left the company a moment ago is refused.
 */

/** Whether `userId` is a client of `companyId` in the caller's tenant. */
export async function isMemberOf(
  trx: DbTransaction,
  tenantId: number,
  companyId: unknown,
  userId: unknown,
): Promise<boolean> {
  const company = Number(companyId);
  const user = Number(userId);
  if (!Number.isSafeInteger(company) || !Number.isSafeInteger(user)) return false;
  const row = await trx
    .selectFrom('company_user')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', company)
    .where('user_id', '=', user)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The client a portal caller's new ticket is for: the caller, or a colleague of the ticket's company when
 * the caller's role there may create on behalf of colleagues (else a 422 naming client_id).
 */
export async function portalTicketClient(
  trx: DbTransaction,
  auth: AuthContext,
  row: Record<string, unknown>,
): Promise<number | null> {
  const asked = row.client_id;
  if (asked === undefined || asked === null || Number(asked) === auth.userId) return auth.userId;
  const refused = () => new ValidationError({ client_id: [serverText('on_behalf_refused')] });
  if (!roleIn(auth.companyRoles, row.company_id)?.onBehalf) throw refused();
  if (!(await isMemberOf(trx, auth.tenantId, row.company_id, asked))) throw refused();
  return Number(asked);
}

/**
 * A share of a ticket the caller sees (checked by the generic write: ticket_id must be visible) with a
 * client of that ticket's company; a client shares only a ticket it is the client of, or one it sees
 * company-wide.
 */
export async function checkShare(trx: DbTransaction, auth: AuthContext, row: Record<string, unknown>) {
  const ticket = await trx
    .selectFrom('tickets')
    .select(['company_id', 'client_id'])
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', Number(row.ticket_id))
    .executeTakeFirst();
  const refused = (field: string) => new ValidationError({ [field]: [serverText('share_refused')] });
  if (!ticket || ticket.company_id === null) throw refused('ticket_id');
  if (isPortalCaller(auth)) {
    const wide = reachOf(auth.companyRoles, 'tickets').company.includes(Number(ticket.company_id));
    if (!wide && Number(ticket.client_id) !== auth.userId) throw refused('ticket_id');
  }
  if (Number(row.user_id) === Number(ticket.client_id)) throw refused('user_id');
  if (!(await isMemberOf(trx, auth.tenantId, ticket.company_id, row.user_id))) throw refused('user_id');
  row.company_id = ticket.company_id;
}

/**
 * A client changes a membership of its company only where its role manages colleagues' access, and only
 * its role: never the company or the client (no way out of the company), never its own (no one raises
 * their own role).
 */
export function checkPortalMembershipChange(
  auth: AuthContext,
  current: { company_id: number; user_id: number },
  changes: Record<string, unknown>,
) {
  if (!isPortalCaller(auth)) return;
  const refused = (field: string) => new ValidationError({ [field]: [serverText('access_change_refused')] });
  if (!roleIn(auth.companyRoles, current.company_id)?.manageAccess) throw refused('company_role_id');
  for (const field of ['company_id', 'user_id'] as const)
    if (field in changes && Number(changes[field]) !== Number(current[field])) throw refused(field);
  if (Number(current.user_id) === auth.userId) throw refused('company_role_id');
}
