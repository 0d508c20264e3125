import type { Migration } from 'kysely';
import * as initial from './0001_initial.ts';
import * as passwordResets from './0002_password_resets.ts';
import * as quoteAcceptanceAndPurchases from './0003_quote_acceptance_and_purchases.ts';
import * as messageThread from './0004_message_thread.ts';
import * as invoiceLineSources from './0005_invoice_line_sources.ts';
import * as exportJobs from './0006_export_jobs.ts';
import * as listCounts from './0007_list_counts.ts';
import * as listIndexes from './0008_list_indexes.ts';
import * as fileRemovals from './0009_file_removals.ts';
import * as listCountsByOperator from './0010_list_counts_by_operator.ts';
import * as translatedListNames from './0011_translated_list_names.ts';
import * as authFailures from './0012_auth_failures.ts';
import * as storedFiles from './0013_stored_files.ts';
import * as mailOutbox from './0014_mail_outbox.ts';
import * as signingKeyGenerations from './0015_signing_key_generations.ts';

/** Every migration, in order. A migration is never edited once released: add the next one. */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_password_resets': passwordResets,
  '0003_quote_acceptance_and_purchases': quoteAcceptanceAndPurchases,
  '0004_message_thread': messageThread,
  '0005_invoice_line_sources': invoiceLineSources,
  '0006_export_jobs': exportJobs,
  '0007_list_counts': listCounts,
  '0008_list_indexes': listIndexes,
  '0009_file_removals': fileRemovals,
  '0010_list_counts_by_operator': listCountsByOperator,
  '0011_translated_list_names': translatedListNames,
  '0012_auth_failures': authFailures,
  '0013_stored_files': storedFiles,
  '0014_mail_outbox': mailOutbox,
  '0015_signing_key_generations': signingKeyGenerations,
};
