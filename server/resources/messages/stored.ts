/**
 * What the paths that store a message tell afterwards (the live streams and notifications, its ticket's
 * SLA clock, the triggers) read of it: the columns below, taken from the insert's `returning`, so none
 * of them reads the row it just wrote again.
 */
import type { Selectable } from 'kysely';
import type { Messages } from '../../db/tables.ts';

export const STORED_MESSAGE_COLUMNS = [
  'id',
  'message',
  'type',
  'is_from_client',
  'visible_to_client',
  'morphable_type',
  'morphable_id',
  'actor_id',
] as const;

export type StoredMessage = Pick<Selectable<Messages>, (typeof STORED_MESSAGE_COLUMNS)[number]>;
