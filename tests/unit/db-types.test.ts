/**
 * server/db/tables.ts, the types every query is checked against, must describe the database the
 * migrations make: a migration committed without `npm run db:types` fails here. Migrates one in-memory
 * PGlite database (a few seconds) and compares the generated text with the committed file.
 */
import { describe, expect, it } from 'vitest';
import { committedTableTypes, generateTableTypes } from '../../scripts/db-types.ts';

/** The first line that differs, with its number, so the failure says where without a 1000-line diff. */
function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i])
      return `line ${i + 1}: generated ${JSON.stringify(a[i])}, committed ${JSON.stringify(b[i])}`;
  }
  return 'none';
}

describe('server/db/tables.ts', () => {
  it('matches the migrations', async () => {
    const generated = await generateTableTypes();
    const committed = committedTableTypes();
    const stale =
      generated === committed
        ? ''
        : `server/db/tables.ts does not match the migrations: run npm run db:types and commit the ` +
          `result (first difference at ${firstDifference(generated, committed)})`;
    expect(stale).toBe('');
  });
});
