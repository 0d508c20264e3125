/**
 * An operator's report subscriptions in the database: each call reads and writes only the caller's own
 * rows (tenant and user), so another operator's subscription is not found (404).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Json } from '../../db/tables.ts';
import type {
  Delivery,
  Frequency,
  ReportSubscription,
  SubscribedReport,
  SubscriptionSettings,
} from '../../../common/report-subscriptions.ts';

export interface Owner {
  tenantId: number;
  userId: number;
}

export type NewSubscription = Omit<ReportSubscription, 'id' | 'paused' | 'created_at'>;
export type SubscriptionChange = Partial<Pick<ReportSubscription, 'paused' | 'frequency' | 'delivery'>>;

const COLUMNS = ['id', 'report', 'frequency', 'delivery', 'settings', 'paused', 'created_at'] as const;

type Row = {
  id: number;
  report: string;
  frequency: string;
  delivery: string;
  settings: Json;
  paused: boolean;
  created_at: Date;
};

function answer(row: Row): ReportSubscription {
  const settings = row.settings as unknown as SubscriptionSettings;
  return {
    id: row.id,
    report: row.report as SubscribedReport,
    frequency: row.frequency as Frequency,
    delivery: row.delivery as Delivery,
    group: settings.group,
    ...(settings.line ? { line: settings.line } : {}),
    by: settings.by,
    filters: settings.filters,
    paused: row.paused,
    created_at: row.created_at.toISOString(),
  };
}

const own = (db: Db, { tenantId, userId }: Owner) =>
  db.selectFrom('report_subscriptions').where('tenant_id', '=', tenantId).where('user_id', '=', userId);

export async function listSubscriptions(db: Db, owner: Owner): Promise<ReportSubscription[]> {
  const rows = await own(db, owner).select(COLUMNS).orderBy('id').execute();
  return rows.map(answer);
}

export async function findSubscription(db: Db, owner: Owner, id: number) {
  const row = await own(db, owner).select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && answer(row);
}

export async function countSubscriptions(db: Db, owner: Owner): Promise<number> {
  const row = await own(db, owner)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function storeSubscription(db: Db, owner: Owner, input: NewSubscription) {
  const { report, frequency, delivery, group, line, by, filters } = input;
  const settings: SubscriptionSettings = { group, ...(line ? { line } : {}), by, filters };
  const row = await db
    .insertInto('report_subscriptions')
    .values({
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      report,
      frequency,
      delivery,
      settings: JSON.stringify(settings),
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return answer(row);
}

/**
 * Pauses, resumes or changes a subscription. Resumed, or weekly made monthly (or back), it counts
 * from now: the periods that ended while it was paused, or before it was changed, are not sent.
 */
export async function updateSubscription(db: Db, owner: Owner, id: number, change: SubscriptionChange) {
  const current = await findSubscription(db, owner, id);
  if (!current) return undefined;
  const restarts =
    (change.paused === false && current.paused) ||
    (change.frequency !== undefined && change.frequency !== current.frequency);
  const row = await db
    .updateTable('report_subscriptions')
    .set({ ...change, updated_at: sql`now()`, ...(restarts ? { active_since: sql`now()` } : {}) })
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row && answer(row);
}

export async function destroySubscription(db: Db, owner: Owner, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('report_subscriptions')
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
