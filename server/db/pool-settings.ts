/** The PostgreSQL pool's defaults, read by the pool (database.ts) and the settings (config.ts). */

/**
 * How long an unused connection is kept: 5 minutes, where pg's default is 10 s. A new connection costs
 * its set-up and plans each statement afresh (about 83 ms for the first list, issue 40), so a pool that
 * closes between the calls of a steady but light load pays that again and again.
 */
export const IDLE_TIMEOUT_MS = 5 * 60_000;

/** Connections kept however long they idle: once opened they are not closed for idling (pg's `min`). */
export const POOL_MIN = 2;
