/**
 * The keys of stored files: 128 random bits as `ab/<30 more hex digits>` (fanned out over 256 folders
 * on disk). A key says nothing about the file (name, type and owner are in the database), and only
 * this shape is ever looked up, so no client-supplied text becomes a path or a query of the store.
 */
import { randomBytes } from 'node:crypto';

const KEY = /^[0-9a-f]{2}\/[0-9a-f]{30}$/;

export function newKey(): string {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 2)}/${hex.slice(2)}`;
}

export function isFileKey(key: string): boolean {
  return KEY.test(key);
}
