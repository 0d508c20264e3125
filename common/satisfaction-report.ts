/**
 * The satisfaction report's answer (GET /api/reports/satisfaction, issue 39 item 3): what the server
 * computes (server/resources/satisfaction-surveys/report.ts) and the reports page shows
 * (src/custom/reports/SatisfactionReport.tsx), in one place.
 */

/** What the ratings are counted per, beside the month: the ticket's operator or company at resolving. */
export const SATISFACTION_BY = ['operator', 'company'] as const;
export type SatisfactionBy = (typeof SATISFACTION_BY)[number];

/** One month and operator or company: its ratings as words, and those given on the 1 to 5 scale. */
export interface SatisfactionRow {
  /** The month's first day (YYYY-MM-DD). */
  month: string;
  /** The operator or company; null: none. */
  key: number | null;
  name: string | null;
  rated: number;
  good: number;
  neutral: number;
  bad: number;
  /** The share rated good, in percent (one decimal); null: none rated. */
  satisfied: number | null;
  /** How many were rated on the 1 to 5 scale, and their average (one decimal; null: none). */
  rated_on_5: number;
  average: number | null;
}

export interface SatisfactionAnswer {
  rows: SatisfactionRow[];
}
