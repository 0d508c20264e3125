/**
 * A contract period's balance (issue 39, item 2): the one rule of when its hours run low, shared by the
 * alert job (server/reports/balance-alerts.ts) and the bars of the portal (src/custom/balance/).
 */

/** A contract's threshold when it has none: 20 % of the period's hours. */
export const DEFAULT_BALANCE_THRESHOLD = 20;

export type BalanceLevel = 'low' | 'empty';

/** The levels from least to most severe: reaching one means every one before it is reached too. */
export const BALANCE_LEVELS: readonly BalanceLevel[] = ['low', 'empty'];

/**
 * 'empty' when nothing remains, 'low' when what remains is below `threshold` percent of the period's
 * hours, else null. A period without hours (0 total) has no balance to run out of.
 */
export function balanceLevel(total: number, remaining: number, threshold: number): BalanceLevel | null {
  if (!(total > 0)) return null;
  if (remaining <= 0) return 'empty';
  if (remaining * 100 < threshold * total) return 'low';
  return null;
}

/** The balance of a contract's current period, as GET /api/tickets/{id}/contract-balance answers it. */
export interface PeriodBalance {
  contract_id: number;
  contract_name: string;
  /** Period 'none': a prepaid card, topped up by buying more. */
  prepaid: boolean;
  balance_threshold: number;
  period_id: number;
  period_start: string;
  period_end: string | null;
  minutes_total: number;
  registered_time: number;
  minutes_remaining: number;
  level: BalanceLevel | null;
}
