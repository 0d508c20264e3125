/**
 * Low-balance alerts (issue 39, item 2): when the current period of a running contract (a prepaid card
 * is a contract with period 'none') falls below its contract's threshold (`balance_threshold`, default
 * 20 % of the period's hours), and again when nothing remains, the contract's company clients get one
 * mail each in their language, with the link that opens the contract's upgrade form in the portal, and
 * the tenant's operators get a notification in the app.
 *
 * When: every pass of the deadline loop (server/live/plugin.ts) on every instance, not in the
 * transaction of a time registration: an alert is a mail to a customer, which a registration's own
 * transaction should neither wait for nor be rolled back by, and hours change by many paths (time
 * registrations, purchases, an operator editing a period); a minute's delay is nothing for a balance.
 *
 * Exactly once per period and level with any number of instances: under the period's row lock (the lock
 * a time registration's booking takes too), the figures are read again, and the level's row of
 * balance_alerts (migration 0052) is inserted in the transaction that queues the mails and the
 * notifications; a second instance's insert waits for the first's commit and then does nothing. A row
 * whose level no longer holds (hours bought, time taken back) is deleted in the same way, so falling
 * below again alerts again; a new period has keys of its own. A period that jumps past both levels at
 * once claims both and tells the most severe only.
 */
import { sql } from 'kysely';
import { BALANCE_LEVELS, balanceLevel, type BalanceLevel } from '../../common/balance.ts';
import { formatMinutes } from '../../common/format.ts';
import { LANGUAGE_CONFIG } from '../../common/language-config.ts';
import type { Db, DbTransaction } from '../db/database.ts';
import { recordEvent } from '../live/events.ts';
import { enqueueMail } from '../mail/enqueue.ts';
import { mailLanguage } from '../resources/notifications/kinds.ts';
import { balanceMailText } from './balance-mail-text.ts';
import { currentBalances, type TenantBalance } from './contract-balance.ts';

/** Contracts per statement that reads the balances. */
const BATCH = 200;
const OPERATOR_LINES = [1, 2];

/**
 * The portal's address a balance mail links: a prepaid card's page with its upgrade form in view
 * (src/resources/contracts/), a contract with periods' plain page (it has no upgrade form: its mail asks
 * the client to get in touch, and an `upgrade` that opens nothing would promise a purchase).
 */
export function upgradeLink(origin: string | undefined, contractId: number, prepaid = true): string {
  return `${origin ?? ''}/app/contracts/${contractId}${prepaid ? '?upgrade=1' : ''}`;
}

/**
 * Who is mailed about a contract's balance: every client of the contract's companies that can read
 * mail (not deactivated, with an address), with their language.
 */
async function balanceRecipients(trx: DbTransaction, tenantId: number, contractId: number) {
  // The clients whose company role sees the contract company-wide (issue 39: the company's admins and
  // finance, as the demo's roles say it); a membership without a role has the tenant's default role.
  return trx
    .selectFrom('users as u')
    .innerJoin('company_user as cu', (join) =>
      join.onRef('cu.user_id', '=', 'u.id').onRef('cu.tenant_id', '=', 'u.tenant_id'),
    )
    .innerJoin('company_contract as cc', 'cc.company_id', 'cu.company_id')
    .innerJoin('company_roles as r', (join) =>
      join
        .onRef('r.tenant_id', '=', 'cu.tenant_id')
        .on((eb) =>
          eb.or([
            eb('r.id', '=', eb.ref('cu.company_role_id')),
            eb.and([eb('cu.company_role_id', 'is', null), eb('r.is_default', '=', true)]),
          ]),
        ),
    )
    .leftJoin('user_configs as lang', (join) =>
      join
        .onRef('lang.user_id', '=', 'u.id')
        .onRef('lang.tenant_id', '=', 'u.tenant_id')
        .on('lang.name', '=', LANGUAGE_CONFIG),
    )
    .select(['u.id', 'u.email', 'lang.value as language'])
    .distinct()
    .where('u.tenant_id', '=', tenantId)
    .where('cc.contract_id', '=', contractId)
    .where('u.is_staff', '=', false)
    .where('u.archived_at', 'is', null)
    .where('u.email', 'is not', null)
    .where((eb) =>
      eb.or([eb('r.grants_all', '=', true), sql<boolean>`r.company_resources @> '["contracts"]'::jsonb`]),
    )
    .orderBy('u.id')
    .execute();
}

/** The levels a balance at `level` has reached: each one before it too. */
const reachedLevels = (level: BalanceLevel | null) =>
  level === null ? [] : BALANCE_LEVELS.slice(0, BALANCE_LEVELS.indexOf(level) + 1);

/** Mails the clients and notifies the operators of one level newly reached. */
async function tell(
  trx: DbTransaction,
  b: TenantBalance,
  level: BalanceLevel,
  at: Date,
  origin: string | undefined,
): Promise<void> {
  const link = upgradeLink(origin, b.contract_id, b.prepaid);
  for (const client of await balanceRecipients(trx, b.tenant_id, b.contract_id)) {
    const text = balanceMailText(b, level, mailLanguage(client.language) ?? 'nl', link);
    await enqueueMail(
      trx,
      { to: String(client.email), subject: text.subject, text: text.body },
      { tenantId: b.tenant_id, source: 'balance_alert', sourceId: b.period_id },
    );
  }
  const operators = await trx
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', b.tenant_id)
    .where('is_staff', '=', true)
    .where('archived_at', 'is', null)
    .where('is_operator', 'in', OPERATOR_LINES)
    .execute();
  // Language-free: the kind is translated in the bell, the name and hours need no words.
  const text =
    `${b.contract_name}: ${formatMinutes(b.minutes_remaining)} / ${formatMinutes(b.minutes_total)}`.slice(
      0,
      1000,
    );
  for (const { id } of operators) {
    await trx
      .insertInto('notifications')
      .values({
        tenant_id: b.tenant_id,
        user_id: Number(id),
        kind: level === 'empty' ? 'balance_empty' : 'balance_low',
        text,
        // The claim's moment tells one alert of this period and level from the next (after a re-arm).
        dedupe_key: `balance:${b.period_id}:${level}:${at.getTime()}`,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'dedupe_key']).doNothing())
      .execute();
    await recordEvent(trx, { tenantId: b.tenant_id, kind: 'notifications', userId: Number(id) });
  }
}

/** Settles one period's alerts under its row lock; answers whether a level was told. */
async function settle(db: Db, seen: TenantBalance, origin: string | undefined): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const now = await trx
      .selectFrom('contract_periods as p')
      .innerJoin('contracts as c', 'c.id', 'p.contract_id')
      .select(['p.minutes_total', 'p.registered_time', 'p.minutes_remaining', 'c.balance_threshold'])
      .where('p.id', '=', seen.period_id)
      .where('p.tenant_id', '=', seen.tenant_id)
      .forUpdate('p')
      .executeTakeFirst();
    if (!now) return false;
    const b: TenantBalance = {
      ...seen,
      minutes_total: Number(now.minutes_total),
      registered_time: Number(now.registered_time),
      minutes_remaining: Number(now.minutes_remaining),
      balance_threshold: Number(now.balance_threshold),
    };
    const level = balanceLevel(b.minutes_total, b.minutes_remaining, b.balance_threshold);
    const reached = reachedLevels(level);
    // Levels no longer reached are forgotten: reaching them again is a new alert.
    await trx
      .deleteFrom('balance_alerts')
      .where('contract_period_id', '=', b.period_id)
      .$if(reached.length > 0, (d) => d.where('level', 'not in', reached))
      .execute();
    if (reached.length === 0) return false;
    const claimed = await trx
      .insertInto('balance_alerts')
      .values(reached.map((l) => ({ tenant_id: b.tenant_id, contract_period_id: b.period_id, level: l })))
      .onConflict((oc) => oc.columns(['contract_period_id', 'level']).doNothing())
      .returning(['level', 'created_at'])
      .execute();
    const newest = BALANCE_LEVELS.filter((l) => claimed.some((c) => c.level === l)).at(-1);
    if (!newest) return false;
    await tell(trx, b, newest, claimed.find((c) => c.level === newest)!.created_at, origin);
    return true;
  });
}

/**
 * One look at every running contract's current period; answers how many alerts this instance told.
 * `origin` is the public address the mails link the portal at, if known; `stopping` is asked before
 * each period (a shutdown waits for the one in hand).
 */
export async function sendBalanceAlerts(
  db: Db,
  now = Date.now(),
  options: {
    origin?: string;
    stopping?: () => boolean;
    failed?: (error: unknown, contractId: number) => void;
  } = {},
): Promise<number> {
  let told = 0;
  let after = 0;
  for (;;) {
    const batch = await currentBalances(db, { after, limit: BATCH }, now);
    const ids = batch.map((b) => b.period_id);
    const alerted = new Map<number, Set<string>>();
    if (ids.length)
      for (const row of await db
        .selectFrom('balance_alerts')
        .select(['contract_period_id', 'level'])
        .where('contract_period_id', 'in', ids)
        .execute()) {
        const id = Number(row.contract_period_id);
        alerted.set(id, (alerted.get(id) ?? new Set()).add(row.level));
      }
    for (const b of batch) {
      after = b.contract_id;
      // Nothing to tell and nothing to forget (the levels reached are the ones told): no statement.
      const before = alerted.get(b.period_id) ?? new Set();
      const reached = reachedLevels(b.level);
      if (reached.length === before.size && reached.every((l) => before.has(l))) continue;
      if (options.stopping?.()) return told;
      try {
        if (await settle(db, b, options.origin)) told++;
      } catch (error) {
        // One period that cannot be told (its claim rolled back) holds up no other: the next pass retries.
        options.failed?.(error, b.contract_id);
      }
    }
    if (batch.length < BATCH) return told;
  }
}
