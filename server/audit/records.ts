/**
 * The generic write path's entries (resources/repository.ts, resources/merge.ts): what the schemas
 * decide, no resource named. Every delete and merge is audited; a create or update when the schema, or
 * a field it sets, carries `"x-audit": true` (schemas/README.md).
 */
import type { AuthContext } from '../auth/context.ts';
import type { Db } from '../db/database.ts';
import type { Resource } from '../../common/schema/types.ts';
import { audit, auditsWrite, changesOf, withoutSecrets } from './audit.ts';

type Row = Record<string, unknown>;

/**
 * `store`: `after` is what was stored; `update`: `before` the record as it was, `after` the fields sent
 * (an update that changes nothing but a secret still says the secret changed); `destroy`: `before` the
 * record deleted.
 */
export async function auditRecord(
  trx: Db,
  auth: AuthContext,
  resource: Resource,
  kind: 'store' | 'update' | 'destroy',
  id: number,
  { before = {}, after = {} }: { before?: Row; after?: Row },
): Promise<void> {
  if (kind !== 'destroy' && !auditsWrite(resource, Object.keys(after))) return;
  let changes: Row;
  if (kind === 'store') changes = withoutSecrets(resource, after);
  else if (kind === 'update') changes = changesOf(resource, before, after);
  else changes = withoutSecrets(resource, before);
  if (kind === 'update' && Object.keys(changes).length === 0) return;
  await audit(trx, auth, { action: `record.${kind}`, resource: resource.name, recordId: id, changes });
}

/** A merge: the first id is kept, the others went into it (resources/merge.ts). */
export async function auditMerge(
  trx: Db,
  auth: AuthContext,
  resource: Resource,
  ids: readonly number[],
): Promise<void> {
  const [kept, ...merged] = ids;
  await audit(trx, auth, {
    action: 'record.merge',
    resource: resource.name,
    recordId: kept,
    changes: { kept, merged },
  });
}
