import type { Migration } from 'kysely';
import * as initial from './0001_initial.ts';

/** Every migration, in order. A migration is never edited once released: add the next one. */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
};
