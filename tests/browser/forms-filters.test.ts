/**
 * Custom fields in the header filter state (SPEC 3 and 7): `custom_fields.<name>` becomes the builder item
 * customField, and a preset's customField item comes back as that state.
 */
import { describe, expect, it } from 'vitest';
import { builderToFilterState, toProviderFilter } from '../../src/custom/list/filters.ts';
import { filterToBuilder } from '../../src/dataProvider/builder.ts';

const now = new Date(2026, 10, 22, 12, 0, 0);

describe('custom field filters', () => {
  it('a text is matched as contained, { equals } exactly, both as customField items', () => {
    const filter = toProviderFilter(
      {
        'custom_fields.kostenplaats': ' KP-4 ',
        'custom_fields.impact': { equals: 'department' },
        status_id: [1],
      },
      (field) => (field === 'status_id' ? 'select' : undefined),
      now,
    );
    expect(filterToBuilder(filter)).toEqual([
      { whereIn: ['status_id', [1]] },
      { customField: ['kostenplaats', 'like', 'KP-4'] },
      { customField: ['impact', '=', 'department'] },
    ]);
  });

  it('empty custom field filters are left out', () => {
    const filter = toProviderFilter(
      { 'custom_fields.kostenplaats': '  ', 'custom_fields.impact': { equals: '' } },
      () => undefined,
      now,
    );
    expect(filter).toEqual({});
  });

  it('a preset with customField items comes back as filter state', () => {
    expect(
      builderToFilterState([
        { customField: ['impact', '=', 'department'] },
        { customField: ['kostenplaats', 'like', 'KP'] },
        { customField: ['kostenplaats', '>', 'KP'] },
      ]),
    ).toEqual({ 'custom_fields.impact': { equals: 'department' }, 'custom_fields.kostenplaats': 'KP' });
  });
});
