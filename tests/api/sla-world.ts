/** Setup shared by the SLA API tests (issue 35): a tenant without the demo's SLAs, its statuses by kind. */
import type { TestApp } from './harness.ts';

/**
 * The demo's SLAs on its contracts and as the tenant's default would govern the tickets a test means to
 * have none or only its company's: its world starts without them.
 */
export async function withoutDemoSlas(t: TestApp, tenantId: number): Promise<void> {
  await t.db.updateTable('contracts').set({ sla_id: null }).where('tenant_id', '=', tenantId).execute();
  await t.db
    .deleteFrom('tenant_configs')
    .where('tenant_id', '=', tenantId)
    .where('name', '=', 'default_sla_id')
    .execute();
}

/** The tenant's first status of the internal types open (1), closed (2) and waiting (4). */
export async function statusesByKind(t: TestApp, tenantId: number) {
  const statuses = await t.db
    .selectFrom('ticket_statuses')
    .select(['id', 'internal_type'])
    .where('tenant_id', '=', tenantId)
    .orderBy('order')
    .execute();
  const of = (type: number) => statuses.find((s) => s.internal_type === type)!.id;
  return { open: of(1), closed: of(2), waiting: of(4) };
}
