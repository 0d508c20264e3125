/**
 * A tenant's satisfaction survey settings (issue 39, item 3), tenant settings (the `config` resource)
 * an operator sets by name:
 *
 * - `satisfaction_survey`: off (absent, empty or an off word: the default), on (any other word: every
 *   resolved ticket), or a comma-separated list of ticket type ids (only tickets of those types);
 * - `satisfaction_scale`: `5` for a 1 to 5 rating, anything else good, neutral or bad;
 * - `satisfaction_reopen`: yes/no, default no: whether a bad rating reopens the ticket.
 */
import type { Db } from '../../db/database.ts';
import { tenantConfig, tenantFlag } from '../../settings/tenant-config.ts';

export const SURVEY_CONFIG = 'satisfaction_survey';
export const SURVEY_SCALE_CONFIG = 'satisfaction_scale';
export const SURVEY_REOPEN_CONFIG = 'satisfaction_reopen';

/** Which resolved tickets get a survey: none, all, or those of these ticket types. */
export type SurveyMode = { kind: 'off' } | { kind: 'all' } | { kind: 'types'; typeIds: number[] };

const OFF = new Set(['', '0', 'false', 'off', 'no', 'nee', 'nein', 'uit', 'aus']);
const TYPE_LIST = /^\d{1,9}(?:\s*,\s*\d{1,9})*$/;

/** The setting's text as a mode (pure: the unit tests read it). */
export function surveyMode(value: string | null): SurveyMode {
  const text = (value ?? '').trim().toLowerCase();
  if (OFF.has(text)) return { kind: 'off' };
  if (TYPE_LIST.test(text)) return { kind: 'types', typeIds: text.split(',').map((id) => Number(id.trim())) };
  return { kind: 'all' };
}

export type SurveyScale = 3 | 5;

export async function tenantSurveySettings(
  db: Db,
  tenantId: number,
): Promise<{ mode: SurveyMode; scale: SurveyScale }> {
  // One after the other: `db` may be the caller's transaction, one connection.
  const mode = await tenantConfig(db, tenantId, SURVEY_CONFIG);
  const scale = await tenantConfig(db, tenantId, SURVEY_SCALE_CONFIG);
  return { mode: surveyMode(mode), scale: scale?.trim() === '5' ? 5 : 3 };
}

export const reopenOnBadRating = (db: Db, tenantId: number) =>
  tenantFlag(db, tenantId, SURVEY_REOPEN_CONFIG, false);

/** A rating as a word: on the 3 scale 3 good, 2 neutral, 1 bad; on the 5 scale 4-5, 3, 1-2. */
export function sentimentOf(scale: SurveyScale, rating: number): 'good' | 'neutral' | 'bad' {
  if (scale === 3) return rating >= 3 ? 'good' : rating === 2 ? 'neutral' : 'bad';
  return rating >= 4 ? 'good' : rating === 3 ? 'neutral' : 'bad';
}
