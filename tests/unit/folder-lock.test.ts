/** The embedded folder's lock file (finding 10): who may take it over and who is refused. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderInUse, lockFolder } from '../../server/db/folder-lock.ts';

describe('lockFolder', () => {
  let dir: string;
  let folder: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sd-lock-'));
    folder = join(dir, 'pglite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the folder for this process until released, then lets it be taken again', () => {
    const lock = lockFolder(folder);
    expect(readFileSync(`${folder}.lock`, 'utf8').trim()).toBe(String(process.pid));
    expect(() => lockFolder(folder)).toThrow(FolderInUse);
    lock.release();
    expect(existsSync(`${folder}.lock`)).toBe(false);
    lockFolder(folder).release();
  });

  it('refuses a folder held by another running process, naming it, and leaves its lock alone', () => {
    writeFileSync(`${folder}.lock`, `${process.ppid}\n`);
    expect(() => lockFolder(folder)).toThrow(`in use by process ${process.ppid}`);
    expect(readFileSync(`${folder}.lock`, 'utf8').trim()).toBe(String(process.ppid));
  });

  it('takes over a lock left by an earlier process that had the same PID (a restarted container)', () => {
    writeFileSync(`${folder}.lock`, `${process.pid}\n`);
    const lock = lockFolder(folder);
    expect(() => lockFolder(folder)).toThrow(FolderInUse);
    lock.release();
  });
});
