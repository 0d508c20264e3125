/**
 * The time report's answers (GET /api/reports/time, /api/reports/time/breakdown and /api/reports/contracts,
 * issue 36 item 1): what the server computes (server/reports/time.ts, server/reports/contracts.ts), in one
 * place. Every figure is in minutes; the periods and the permission are the ticket report's
 * (common/reports.ts).
 */
import type { ReportGroup } from './reports.ts';

/**
 * What a period or a key holds: the time spent (`minutes`), rounded up to the tenant's step
 * (`rounded_minutes`: what is invoiced and taken off contracts), the rounded minutes of billable and of
 * not billable activities (no activity: not billable), the rounded minutes booked on a contract period
 * (a contract's or a prepaid card's), and the number of registrations.
 */
export const TIME_MEASURES = [
  'minutes',
  'rounded_minutes',
  'billable_minutes',
  'non_billable_minutes',
  'contract_minutes',
  'registrations',
] as const;
export type TimeMeasure = (typeof TIME_MEASURES)[number];
export type TimeFigures = Record<TimeMeasure, number>;

/**
 * The keys the time report filters on and breaks down by, each a list of ids (any of them; `none`: the
 * time without one). The company is the ticket's, or for time without one the company of its contract
 * when that contract has exactly one; the contract is the one of the period the time is booked on.
 */
export const TIME_KEYS = ['company_id', 'operator_id', 'contract_id', 'activity_id'] as const;
export type TimeKey = (typeof TIME_KEYS)[number];

export interface TimeReportAnswer {
  from: string;
  to: string;
  group: ReportGroup;
  /** Each period: its first day (`period`) and the days of it in the report (`from`, `to`). */
  rows: ({ period: string; from: string; to: string } & TimeFigures)[];
  total: TimeFigures;
}

export interface TimeBreakdown {
  from: string;
  to: string;
  by: TimeKey;
  /** Each value of the key with time, by name; `key` null (the time without one) last. */
  rows: ({ key: number | null; name: string | null } & TimeFigures)[];
  total: TimeFigures;
}

/**
 * A contract period's consumption: the time booked on it by registrations executed in the range
 * (`minutes`, `rounded_minutes`: what the range took off it, `registrations`), and the period's own
 * figures as they stand now (SPEC 3: its size, everything registered on it, what remains).
 */
export const CONSUMPTION_MEASURES = [
  'minutes',
  'rounded_minutes',
  'registrations',
  'minutes_total',
  'registered_time',
  'minutes_remaining',
] as const;
export type ConsumptionMeasure = (typeof CONSUMPTION_MEASURES)[number];

export type ContractConsumptionRow = {
  /** The contract period. */
  id: number;
  period_start: string;
  period_end: string | null;
  contract_id: number;
  contract_name: string;
  /** A prepaid card: a contract with period 'none'. */
  prepaid: boolean;
  /** The contract's companies, by name. */
  companies: { id: number; name: string }[];
} & Record<ConsumptionMeasure, number>;

export interface ContractConsumption {
  from: string;
  to: string;
  /** By contract name, then period start. */
  rows: ContractConsumptionRow[];
  total: Record<ConsumptionMeasure, number>;
}
