/** What a form that was not sent says (issue 37, item 5): the fields to fill in and to check, in form order. */
import { describe, expect, it } from 'vitest';
import {
  cleanLabel,
  errorPaths,
  inFormOrder,
  invalidFieldsText,
  isEmptyValue,
} from '../../src/custom/forms/invalidFields.ts';

describe('invalid fields', () => {
  it('finds the fields with an error, nested ones by their path, not the form-wide one', () => {
    expect(
      errorPaths({
        description: { type: 'required', message: 'ra.validation.required' },
        root: { serverError: { type: 'server', message: 'Nope' } },
        custom: { color: { type: 'server', message: 'Not a colour' } },
      }),
    ).toEqual(['description', 'custom.color']);
    expect(errorPaths({})).toEqual([]);
  });

  it('tells an empty value from a refused one', () => {
    for (const empty of [undefined, null, '', '  ', []]) expect(isEmptyValue(empty)).toBe(true);
    for (const value of [0, false, 'x', [1], {}]) expect(isEmptyValue(value)).toBe(false);
  });

  it('reads a label without its required mark', () => {
    expect(cleanLabel('Omschrijving *')).toBe('Omschrijving');
    expect(cleanLabel('Omschrijving\u2009*')).toBe('Omschrijving');
    expect(cleanLabel('Impact * (required)')).toBe('Impact');
    expect(cleanLabel(' E-mail ')).toBe('E-mail');
  });

  it('orders the fields as the form shows them', () => {
    const at: Record<string, number> = { company_id: 5, description: 2 };
    expect(inFormOrder(['company_id', 'unknown', 'description'], (p) => at[p] ?? 99)).toEqual([
      'description',
      'company_id',
      'unknown',
    ]);
  });

  it('says what to fill in and what to check', () => {
    const translate = (key: string, options: Record<string, unknown>) => `${key}(${String(options.fields)})`;
    expect(invalidFieldsText(['Subject', 'Company'], [], translate)).toBe(
      'app.errors.form_fill_in(Subject, Company)',
    );
    expect(invalidFieldsText(['Subject'], ['E-mail'], translate)).toBe(
      'app.errors.form_fill_in(Subject) app.errors.form_check(E-mail)',
    );
  });
});
