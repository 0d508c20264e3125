/**
 * Positions in PostgreSQL's write-ahead log (`pg_lsn`, written `16/B374D848`): how far the primary had
 * written when a request's writes were done, and how far a standby has replayed. Compared as numbers,
 * so a cached replay position can be held against any request's position without a statement.
 */

/** Two hexadecimal halves of a 64-bit position, as PostgreSQL prints a pg_lsn. */
const LSN = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** The position as a number; undefined for anything that is not a pg_lsn's text. */
export function parseLsn(text: string): bigint | undefined {
  const match = LSN.exec(text);
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** Beyond every position a server reaches: a read that must see everything goes to the primary. */
export const END_OF_WAL = 'FFFFFFFF/FFFFFFFF';
