// @vitest-environment jsdom
/**
 * No raw translation key is ever shown (issue 14, item 16): react-admin hands a validator's message to
 * react-hook-form as '@@react-admin@@<json>', and an input that translates that text as it is showed it
 * raw under required date fields. The i18n provider translates the key it wraps, whoever asks.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createI18nProvider, LOCALE_STORAGE_KEY, validationMessage } from '../../src/i18n/index.ts';
import { messages } from '../../src/i18n/catalogue.ts';

describe('validationMessage', () => {
  it('reads both of react-admin’s forms and nothing else', () => {
    expect(validationMessage('@@react-admin@@"ra.validation.required"')).toEqual({
      message: 'ra.validation.required',
    });
    expect(
      validationMessage('@@react-admin@@{"message":"ra.validation.minLength","args":{"min":2}}'),
    ).toEqual({
      message: 'ra.validation.minLength',
      args: { min: 2 },
    });
    expect(validationMessage('ra.validation.required')).toBeUndefined();
    expect(validationMessage('@@react-admin@@{broken')).toBeUndefined();
  });
});

describe('the i18n provider', () => {
  beforeEach(() => localStorage.clear());

  it('translates a wrapped validation message, even with the wrapper itself as the fallback', () => {
    const nl = createI18nProvider({ messages });
    const required = '@@react-admin@@"ra.validation.required"';
    expect(nl.translate(required)).toBe('Verplicht');
    expect(nl.translate(required, { _: required })).toBe('Verplicht');
    expect(nl.translate('@@react-admin@@{"message":"ra.validation.minLength","args":{"min":3}}')).toBe(
      'Moet minimaal 3 tekens lang zijn',
    );
    localStorage.setItem(LOCALE_STORAGE_KEY, 'en');
    expect(createI18nProvider({ messages }).translate(required, { _: required })).toBe('Required');
  });

  it('shows a wrapped plain sentence as it is, and humanises a wrapped unknown key', () => {
    const nl = createI18nProvider({ messages });
    expect(nl.translate('@@react-admin@@"Vul een datum in."')).toBe('Vul een datum in.');
    expect(nl.translate('@@react-admin@@"app.no.such_key"')).toBe('Such key');
  });
});
