/**
 * Which account a provider's answer signs in (issue 38, item 2): a verified e-mail address of an allowed
 * domain, held by an operator or client of the tenant whom the provider serves. Each refusal is an
 * OidcError whose message says why, for the log and the audit entry; the caller learns only that the
 * sign-in failed.
 */
import type { Db } from '../../db/database.ts';
import { findLoginUser } from '../user.ts';
import type { AppName } from './flows.ts';
import { OidcError } from './issuer.ts';

export type Audience = 'operators' | 'clients' | 'both';

/** The lower-case e-mail address of the claims; refused when absent or said to be unverified. */
export function verifiedEmail(claims: Record<string, unknown>): string {
  const email = claims.email;
  if (typeof email !== 'string' || !email.includes('@'))
    throw new OidcError('no e-mail address in the claims');
  // Absent is allowed (Microsoft Entra ID does not send it); present must be true.
  if ('email_verified' in claims && claims.email_verified !== true)
    throw new OidcError('the e-mail address is not verified');
  return email.trim().toLowerCase();
}

/** The domains of the provider's comma separated list, lower case. */
export function domainsOf(list: string): string[] {
  return list
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
}

/** Whether the address's domain is one of the list (exactly: a subdomain is another domain). */
export function domainAllowed(email: string, list: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return domainsOf(list).includes(domain);
}

/** Whether a provider of `audience` signs in operators (`backoffice`) or clients (`portal`). */
export function servesApp(audience: string, app: AppName): boolean {
  return audience === 'both' || audience === (app === 'portal' ? 'clients' : 'operators');
}

/** The user the address signs in to `app`; an unknown address or the other app's account is refused. */
export async function accountOf(
  db: Db,
  tenantId: number,
  email: string,
  app: AppName,
  createClients: boolean,
): Promise<{ id: number; isStaff: boolean }> {
  const user = await findLoginUser(db, tenantId, email);
  if (!user) {
    // Creating a client needs the company it joins, found by its domain; companies have no domain
    // field (docs/decisions.md), so the switch cannot create anyone yet and the address is refused.
    throw new OidcError(
      createClients ? 'unknown address: no company can be found by its domain' : 'unknown address',
    );
  }
  if (user.isStaff !== (app === 'backoffice'))
    throw new OidcError(`the address is ${user.isStaff ? 'an operator' : 'a client'}, not of the ${app}`);
  return user;
}
