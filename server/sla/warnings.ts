/**
 * SLA warnings (issue 35, item 5): when a target of an open ticket reaches one of its SLA's warning
 * thresholds (e.g. 75 % and 90 % of its business minutes) and when it is breached, the ticket's operator
 * is told (in the app, and by mail when they chose so), or the operators of the line when nobody has it
 * (ticket groups have no members to tell).
 *
 * Exactly once per ticket, target, threshold and due instant, however many instances measure the clock
 * and however often: each notification's `dedupe_key` is unique per tenant and user, so a second insert
 * of the same key does nothing. A due instant that moves (a pause, a new SLA) is a new key: told again.
 * A breach more than a day old tells nobody (a ticket imported overdue, an SLA set on old tickets).
 */
import type { ClockResult, TargetName } from '../../common/sla/clock.ts';
import type { DbTransaction } from '../db/database.ts';
import { lineOperators, notify, type NewNotification } from '../resources/notifications/notify.ts';

const DAY = 24 * 60 * 60_000;
const TARGETS: readonly TargetName[] = ['first_response', 'next_response', 'resolution'];

/** The dedupe keys of what a ticket's clock has to tell at `now`, with their kind. */
export function slaAlerts(
  ticketId: number,
  clock: ClockResult,
  now: number,
): { kind: 'sla_warning' | 'sla_breached'; key: string }[] {
  const out: { kind: 'sla_warning' | 'sla_breached'; key: string }[] = [];
  if (!clock.open) return out;
  for (const name of TARGETS) {
    const target = clock[name];
    if (!target || target.target === null || target.endedAt !== null) continue;
    if (target.state === 'breached' && target.breachedAt !== null) {
      if (now - target.breachedAt <= DAY)
        out.push({ kind: 'sla_breached', key: `sla_breached:${ticketId}:${name}:${target.breachedAt}` });
    } else if (target.state === 'warning' && target.threshold !== null && target.due !== null) {
      out.push({
        kind: 'sla_warning',
        key: `sla_warning:${ticketId}:${name}:${target.threshold}:${target.due}`,
      });
    }
  }
  return out;
}

/** Tells what the clocks of `tickets` (one tenant's) have to tell; answers how many were made. */
export async function notifySlaAlerts(
  trx: DbTransaction,
  tenantId: number,
  clocks: ReadonlyMap<number, { clock: ClockResult }>,
  now: number,
): Promise<number> {
  const alerts = [...clocks].flatMap(([id, { clock }]) =>
    slaAlerts(id, clock, now).map((alert) => ({ id, ...alert })),
  );
  if (alerts.length === 0) return 0;
  const owners = await trx
    .selectFrom('tickets')
    .select(['id', 'operator_id'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...new Set(alerts.map((a) => a.id))])
    .execute();
  const operatorOf = new Map(owners.map((t) => [Number(t.id), t.operator_id]));
  let line: number[] | undefined;
  const notifications: NewNotification[] = [];
  for (const alert of alerts) {
    const operator = operatorOf.get(alert.id);
    const to =
      operator !== null && operator !== undefined
        ? [Number(operator)]
        : (line ??= await lineOperators(trx, tenantId));
    for (const userId of to)
      notifications.push({ tenantId, userId, kind: alert.kind, ticketId: alert.id, dedupeKey: alert.key });
  }
  return notify(trx, notifications);
}
