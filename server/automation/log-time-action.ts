/**
 * A macro's `log_time` action (issue 37's triage: assign, prioritise, answer, log time and close in
 * one go): a time registration on each ticket, by the operator who applies the macro, executed now,
 * rounded by the tenant's step as a registration stored through its form is (the time registrations'
 * own beforeStore hook). It books on no contract period, as a registration left without one is work
 * outside any contract; the operator can put it on one afterwards. Only a person logs time: the checker
 * refuses the action in a rule's list, and this refuses an actor without a user.
 */
import type { AuthContext } from '../auth/context.ts';
import type { Insertable } from 'kysely';
import type { DbTransaction } from '../db/database.ts';
import type { TimeRegistrations } from '../db/tables.ts';
import { HttpError } from '../http/errors.ts';
import type { Registry } from '../schema/registry.ts';
import { timeRegistrationHooks } from '../resources/time-registrations/hooks.ts';
import { serverText } from '../../common/server-texts.ts';

const TIME_REGISTRATIONS = 'time-registrations';

/** Logs `minutes` on each ticket as `auth`'s user; answers the registrations' ids, in ticket order. */
export async function logTime(
  trx: DbTransaction,
  registry: Registry,
  auth: AuthContext,
  ticketIds: number[],
  minutes: number,
  description: string | null,
): Promise<number[]> {
  if (auth.userId === null)
    throw new HttpError(422, serverText('automation_action_person_only', { name: 'log_time' }));
  const resource = registry.require(TIME_REGISTRATIONS);
  const ids: number[] = [];
  for (const ticketId of ticketIds) {
    const row: Insertable<TimeRegistrations> = {
      tenant_id: auth.tenantId,
      ticket_id: ticketId,
      operator_id: auth.userId,
      time_spent: minutes,
      description: description?.trim() ? description : null,
      executed_at: new Date(),
    };
    // The hook rounds the time as a registration stored through its form is (time_spent_rounded).
    await timeRegistrationHooks.beforeStore?.(row as Record<string, unknown>, { trx, auth, resource });
    const stored = await trx
      .insertInto('time_registrations')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(Number(stored.id));
  }
  return ids;
}
