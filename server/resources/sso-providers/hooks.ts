/**
 * A provider's client secret is encrypted before it is stored, on create and on every update that sends
 * one (the mailbox passwords' helper, server/mail/inbound/secret.ts); the schema's field is write-only, so
 * no answer carries it and the audit entry says only that it changed. The allowed domains are kept in one
 * form (lower case, ', ' between them), which the sign-in compares with (server/auth/oidc/account.ts).
 */
import { encryptPassword } from '../../mail/inbound/secret.ts';
import { domainsOf } from '../../auth/oidc/account.ts';
import type { ResourceHooks } from '../hook-contract.ts';

function normalise(values: Record<string, unknown>): void {
  if (typeof values.email_domains === 'string')
    values.email_domains = domainsOf(values.email_domains).join(', ');
  if (typeof values.issuer === 'string') values.issuer = values.issuer.trim();
}

export const ssoProviderHooks: ResourceHooks = {
  async beforeStore(row, { trx, auth }) {
    normalise(row);
    if (typeof row.client_secret_encrypted === 'string')
      row.client_secret_encrypted = await encryptPassword(trx, auth.tenantId, row.client_secret_encrypted);
  },
  async beforeUpdate(_id, changes, { trx, auth }) {
    normalise(changes);
    if (typeof changes.client_secret_encrypted === 'string')
      changes.client_secret_encrypted = await encryptPassword(
        trx,
        auth.tenantId,
        changes.client_secret_encrypted,
      );
  },
};
