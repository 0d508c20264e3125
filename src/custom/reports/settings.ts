/**
 * What the reports page shows, kept in its address (`/reports?period=last_month&group=week&…`): a
 * drill-down and the browser's Back come back to the same report, and a report can be bookmarked or
 * sent to a colleague. An address is typed by anyone: a value that is not one of the page's own is
 * left out, and the default stands.
 */
import { useLayoutEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  REPORT_FILTERS,
  REPORT_GROUPS,
  REPORT_KEYS,
  type ReportKey,
  type ReportGroup,
} from '../../../common/reports.ts';
import { TIME_KEYS, type TimeKey } from '../../../common/time-report.ts';
import { SATISFACTION_BY, type SatisfactionBy } from '../../../common/satisfaction-report.ts';
import type { FilterState } from '../list/filters.ts';
import { PERIOD_PRESETS, presetRange, type PeriodPreset } from './period.ts';

export const LINES = ['all', '1', '2'] as const;
/** The page's reports: tickets, time logged, and the clients' satisfaction ratings. */
export const TABS = ['tickets', 'time', 'satisfaction'] as const;
export type Line = (typeof LINES)[number];

export interface ReportSettings {
  preset: PeriodPreset;
  /** The custom period's days (YYYY-MM-DD). */
  custom: { from: string; to: string };
  group: ReportGroup;
  line: Line;
  filters: FilterState;
  by: ReportKey;
  tab: (typeof TABS)[number];
  /** The time report's key. */
  timeBy: TimeKey;
  /** The satisfaction report's key. */
  satisfactionBy: SatisfactionBy;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(list: readonly T[], value: string | null, fallback: T): T {
  return list.includes(value as T) ? (value as T) : fallback;
}

/** The filter state in the address: a JSON object of the page's filter fields, anything else dropped. */
function filtersOf(text: string | null): FilterState {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(([key]) => (REPORT_FILTERS as readonly string[]).includes(key)),
    );
  } catch {
    return {};
  }
}

export function readSettings(params: URLSearchParams, today: Date): ReportSettings {
  const month = presetRange('this_month', today);
  const day = (name: string, fallback: string) => {
    const value = params.get(name);
    return value && DAY.test(value) ? value : fallback;
  };
  return {
    preset: oneOf(PERIOD_PRESETS, params.get('period'), 'this_month'),
    custom: { from: day('from', month.from), to: day('to', month.to) },
    group: oneOf(REPORT_GROUPS, params.get('group'), 'week'),
    line: oneOf(LINES, params.get('line'), 'all'),
    filters: filtersOf(params.get('filter')),
    by: oneOf(REPORT_KEYS, params.get('by'), 'operator_id'),
    tab: oneOf(TABS, params.get('tab'), 'tickets'),
    timeBy: oneOf(TIME_KEYS, params.get('time_by'), 'operator_id'),
    satisfactionBy: oneOf(SATISFACTION_BY, params.get('satisfaction_by'), 'operator'),
  };
}

/** A change of settings, or how to change the settings as they are when it lands. */
export type SettingsChange = Partial<ReportSettings> | ((now: ReportSettings) => Partial<ReportSettings>);

/** The page's settings and a setter that writes a change into the address (replacing the entry). */
export function useReportSettings(): [ReportSettings, (change: SettingsChange) => void] {
  const [params, setParams] = useSearchParams();
  const settings = readSettings(params, new Date());
  // The address as the last change left it: React Router's setter does not queue changes as React's
  // state does, so two changes before the next render (two days typed at once) would lose the first.
  const latest = useRef(params);
  useLayoutEffect(() => {
    latest.current = params;
  }, [params]);
  const update = (change: SettingsChange) => {
    const now = readSettings(latest.current, new Date());
    const next = written({ ...now, ...(typeof change === 'function' ? change(now) : change) });
    latest.current = next;
    setParams(next, { replace: true });
  };
  return [settings, update];
}

/** The address of a page's settings. */
function written(next: ReportSettings): URLSearchParams {
  const out = new URLSearchParams({
    tab: next.tab,
    period: next.preset,
    group: next.group,
    line: next.line,
    by: next.by,
    time_by: next.timeBy,
    satisfaction_by: next.satisfactionBy,
  });
  if (next.preset === 'custom') {
    out.set('from', next.custom.from);
    out.set('to', next.custom.to);
  }
  const filters = Object.fromEntries(Object.entries(next.filters).filter(([, v]) => v !== undefined));
  if (Object.keys(filters).length) out.set('filter', JSON.stringify(filters));
  return out;
}
