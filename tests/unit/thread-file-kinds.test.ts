/**
 * The thread's attachment icons (src/custom/thread/helpers.ts) know exactly the kinds of file the server
 * allows (server/files/kinds.ts, SPEC 9): the browser cannot import the server's table, so this keeps
 * the two equal.
 */
import { describe, expect, it } from 'vitest';
import { FILE_TYPES } from '../../server/files/kinds.ts';
import { FILE_KINDS } from '../../src/custom/thread/helpers.ts';

describe('file kinds of the thread', () => {
  it('are the server’s allowed extensions, each with the same kind', () => {
    expect(Object.fromEntries(FILE_KINDS)).toEqual(
      Object.fromEntries(Object.entries(FILE_TYPES).map(([ext, type]) => [ext, type.kind])),
    );
  });
});
