/**
 * A mailbox's password is encrypted before it is stored, on create and on every update that sends one
 * (server/mail/inbound/secret.ts); the schema's field is write-only, so no answer carries it. A changed
 * connection (host, port, TLS, user, password) or a mailbox switched on is fetched at once and its failure
 * count starts again.
 */
import { sql } from 'kysely';
import { encryptPassword } from '../../mail/inbound/secret.ts';
import type { ResourceHooks } from '../hook-contract.ts';

const CONNECTION = ['host', 'port', 'tls', 'username', 'password_encrypted', 'active'];

export const mailboxHooks: ResourceHooks = {
  async beforeStore(row, { trx, auth }) {
    if (typeof row.password_encrypted === 'string')
      row.password_encrypted = await encryptPassword(trx, auth.tenantId, row.password_encrypted);
  },
  async beforeUpdate(_id, changes, { trx, auth }) {
    if (typeof changes.password_encrypted === 'string')
      changes.password_encrypted = await encryptPassword(trx, auth.tenantId, changes.password_encrypted);
    if (CONNECTION.some((c) => c in changes)) {
      changes.next_fetch_at = sql`now()`;
      changes.failures = 0;
      changes.failing_since = null;
      changes.last_error = null;
      // Another server or account: its UIDs are not the old one's.
      if ('host' in changes || 'port' in changes || 'username' in changes) {
        changes.uid_validity = null;
        changes.last_uid = 0;
      }
    }
  },
};
