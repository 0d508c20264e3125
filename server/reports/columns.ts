/** The reports' column names in a language (common/report-columns: the page's and the files' words). */
import en from '../../common/report-columns/en.ts';
import nl from '../../common/report-columns/nl.ts';
import de from '../../common/report-columns/de.ts';
import type { ExportLocale } from '../exports/messages.ts';

export type ReportColumn = keyof typeof en;

const COLUMN_NAMES: Record<ExportLocale, typeof en> = { en, nl, de };

export const reportColumns = (locale: ExportLocale) => COLUMN_NAMES[locale];
