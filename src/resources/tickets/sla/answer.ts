/**
 * The answer of GET /tickets/{id}/sla (server/resources/tickets/sla.ts) as the screens read it, and the
 * words of a span of business minutes. Operators get every field; a client the promise's (the rest absent).
 */
import type { TranslateFunction } from 'react-admin';

export type SlaState = 'running' | 'paused' | 'warning' | 'breached' | 'met';
export type SlaSource = 'ticket' | 'contract' | 'company' | 'tenant';
export type SlaTargetName = 'first_response' | 'next_response' | 'resolution';

export interface SlaTarget {
  target: number | null;
  due: string | null;
  state: SlaState;
  ended_at: string | null;
  started_at?: string;
  elapsed?: number;
  remaining?: number | null;
  paused?: boolean;
  paused_since?: string | null;
  breached_at?: string | null;
  threshold?: number | null;
}

export interface SlaAnswer {
  applied?: { sla_id: number; name: string; source: SlaSource } | null;
  /** The SLA counts in business hours (else all day, every day). */
  business_hours: boolean;
  open?: boolean;
  paused?: boolean;
  first_response: SlaTarget | null;
  next_response?: SlaTarget | null;
  next_response_breaches?: number;
  resolution: SlaTarget | null;
}

/** Whole minutes as '2 h 15 min', '40 min', '3 h' in the shown language (never negative: the words say which way). */
export function durationText(translate: TranslateFunction, minutes: number): string {
  const total = Math.abs(Math.round(minutes));
  const h = Math.floor(total / 60);
  const m = total % 60;
  if (h === 0) return translate('sla.duration.minutes', { m });
  if (m === 0) return translate('sla.duration.hours', { h });
  return translate('sla.duration.hours_minutes', { h, m });
}

/**
 * What is left of a target, or how far past it: '2 h 15 min left', 'overdue by 40 min'. A target is
 * breached from its due instant on (common/sla/clock.ts, rule 10), when nothing is left yet.
 */
export function remainingText(translate: TranslateFunction, remaining: number, breached = false): string {
  // Nothing left is less than a minute either way: a target just missed is not overdue by nothing.
  const time =
    Math.round(remaining) === 0 ? translate('sla.duration.under_minute') : durationText(translate, remaining);
  return remaining < 0 || breached ? translate('sla.overdue', { time }) : translate('sla.left', { time });
}
