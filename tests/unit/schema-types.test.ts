import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSchemaTypes, GENERATED_TYPES } from '../../scripts/schema-types.ts';

describe('generated schema types', () => {
  it('are up to date with schemas/ (run `npm run schemas` after changing a schema)', async () => {
    const expected = await generateSchemaTypes();
    const actual = readFileSync(GENERATED_TYPES, 'utf8');
    expect(actual === expected, 'common/generated/schema-types.ts is stale: run `npm run schemas`').toBe(
      true,
    );
  });

  it('describe each record with its fields and never a write-only field', async () => {
    const ts = await generateSchemaTypes();
    expect(ts).toMatch(/export interface Tickets \{[^}]*\n\s+reference: string;/);
    expect(ts).not.toMatch(/password_hash|tenant_id/);
  });
});
