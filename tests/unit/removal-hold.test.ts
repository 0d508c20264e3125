/**
 * While a backup copies DATA_DIR/files, a removal from that folder waits until the copy is done
 * (files/removal-hold.ts): otherwise a row in the dump could point at a file missing from the archive.
 * Other folders are not held, and writes go on.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localFileStore } from '../../server/files/store.ts';
import { holdRemovals } from '../../server/files/removal-hold.ts';

describe('removals held during a backup', () => {
  const root = mkdtempSync(join(tmpdir(), 'sd-removal-hold-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const tick = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('keeps a file removed during the hold until the hold ends; writes and other folders go on', async () => {
    const store = localFileStore(join(root, 'files'));
    const other = localFileStore(join(root, 'other'));
    const { key } = await store.put(Buffer.from('kept until the copy is done'));
    const { key: otherKey } = await other.put(Buffer.from('not held'));
    const release = holdRemovals(join(root, 'files'));
    let removed = false;
    const removal = store.remove(key).then(() => (removed = true));
    const written = await store.put(Buffer.from('written during the hold'));
    await other.remove(otherKey);
    await tick();
    expect(removed).toBe(false);
    expect(existsSync(join(root, 'files', key))).toBe(true);
    expect(existsSync(join(root, 'files', written.key))).toBe(true);
    expect(existsSync(join(root, 'other', otherKey))).toBe(false);
    release();
    await removal;
    expect(existsSync(join(root, 'files', key))).toBe(false);
  });

  it('lets removals go only when the last of two overlapping holds ends', async () => {
    const store = localFileStore(join(root, 'files'));
    const { key } = await store.put(Buffer.from('x'));
    const first = holdRemovals(join(root, 'files'));
    const second = holdRemovals(join(root, 'files'));
    const removal = store.remove(key);
    first();
    await tick();
    expect(existsSync(join(root, 'files', key))).toBe(true);
    second();
    await removal;
    expect(existsSync(join(root, 'files', key))).toBe(false);
  });
});
