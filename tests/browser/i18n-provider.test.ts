// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  createI18nProvider,
  deepMerge,
  humanizeKey,
  LOCALE_STORAGE_KEY,
  LOCALES,
  loadedLanguage,
  loadLanguage,
  START_TEXTS,
} from '../../src/i18n/index.ts';
import { messages } from '../../src/i18n/catalogue.ts';
import { LANGUAGES, lookup, noStoredLanguageAroundEachTest } from './i18n-world.ts';

/**
 * The i18n provider: the language it starts in (stored, or Dutch), a changed language stored and set on
 * the page, the English fallback of German, humanised missing keys, and the languages downloaded on
 * demand with the texts shown before any is loaded. The message files themselves: i18n-messages.test.ts.
 */

noStoredLanguageAroundEachTest();

describe('createI18nProvider', () => {
  it('starts in Dutch without a stored choice', () => {
    const i18n = createI18nProvider({ messages });
    expect(i18n.getLocale()).toBe('nl');
    expect(i18n.translate('ra.action.save')).toBe('Opslaan');
    expect(document.documentElement.lang).toBe('nl');
  });

  it("starts in the language stored under localStorage 'locale'", () => {
    localStorage.setItem('locale', 'en');
    const en = createI18nProvider({ messages });
    expect(en.getLocale()).toBe('en');
    expect(en.translate('ra.action.save')).toBe('Save');
    localStorage.setItem('locale', 'de');
    const de = createI18nProvider({ messages });
    expect(de.getLocale()).toBe('de');
    expect(de.translate('ra.action.save')).toBe('Speichern');
    expect(document.documentElement.lang).toBe('de');
  });

  it('ignores a stored language it does not offer', () => {
    for (const stored of ['fr', 'EN', '', 'nl-NL', 'null']) {
      localStorage.setItem('locale', stored);
      const i18n = createI18nProvider({ messages });
      expect(i18n.getLocale(), stored).toBe('nl');
      expect(i18n.translate('ra.action.save'), stored).toBe('Opslaan');
    }
  });

  it('stores a changed language and sets the page language', async () => {
    const i18n = createI18nProvider({ messages });
    await i18n.changeLocale('en');
    expect(localStorage.getItem('locale')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.getLocale()).toBe('en');
    expect(i18n.translate('app.pages.not_found')).toBe('Page not found');
    await i18n.changeLocale('de');
    expect(localStorage.getItem('locale')).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(i18n.translate('app.pages.not_found')).toBe('Seite nicht gefunden');
    // The choice survives a reload.
    expect(createI18nProvider({ messages }).getLocale()).toBe('de');
  });

  it('changes to Dutch when asked for a language it does not offer', async () => {
    localStorage.setItem('locale', 'en');
    const i18n = createI18nProvider({ messages });
    await i18n.changeLocale('fr');
    expect(i18n.getLocale()).toBe('nl');
    expect(localStorage.getItem('locale')).toBe('nl');
  });

  it('offers the three languages', () => {
    expect(createI18nProvider({ messages }).getLocales?.()).toEqual(LOCALES);
  });

  it('falls back to English for a key missing in German', async () => {
    // A German tree with one key deliberately left out.
    const de = deepMerge(messages.de);
    delete (de as any).app.quote.accepted;
    delete (de as any).resources.tickets.fields.reference;
    const i18n = createI18nProvider({ messages: { ...messages, de } });
    await i18n.changeLocale('de');
    expect(i18n.translate('app.quote.accepted')).toBe('The quote has been accepted.');
    expect(i18n.translate('resources.tickets.fields.reference')).toBe('Reference');
    expect(i18n.translate('app.quote.rejected')).toBe('Das Angebot wurde abgelehnt.');
    // The shared trees are untouched.
    expect(lookup(messages.de, 'app.quote.accepted')).toBe('Das Angebot wurde angenommen.');
    expect(lookup(messages.en, 'app.quote.accepted')).toBe('The quote has been accepted.');
  });

  it('does not fall back to English in Dutch', async () => {
    const nl = deepMerge(messages.nl);
    delete (nl as any).app.quote.accepted;
    const i18n = createI18nProvider({ messages: { ...messages, nl } });
    expect(i18n.translate('app.quote.accepted')).toBe('Accepted');
  });

  it('shows the last segment of a key missing everywhere, humanised, and never throws', async () => {
    const i18n = createI18nProvider({ messages });
    expect(i18n.translate('resources.tickets.fields.some_new_field')).toBe('Some new field');
    expect(i18n.translate('resources.tickets.fields.contractPeriods')).toBe('Contract periods');
    expect(i18n.translate('app.nothing.here', { smart_count: 3 })).toBe('Here');
    expect(i18n.translate('A label, not a key')).toBe('A label, not a key');
    expect(i18n.translate('resources.unknown.name', { smart_count: 2, _: 'Unknowns' })).toBe('Unknowns');
    await i18n.changeLocale('de');
    expect(i18n.translate('resources.x-y.fields.due-date')).toBe('Due date');
  });

  it('humanises keys', () => {
    expect(humanizeKey('resources.tickets.fields.ticket_group_id')).toBe('Ticket group id');
    expect(humanizeKey('a.b.customValues')).toBe('Custom values');
    expect(humanizeKey('a.asset-categories')).toBe('Asset categories');
    expect(humanizeKey('Loading...')).toBe('Loading...');
    expect(humanizeKey('single')).toBe('single');
  });
});

describe('languages loaded on demand', () => {
  it('builds no provider before the starting language is loaded', () => {
    localStorage.setItem(LOCALE_STORAGE_KEY, 'en');
    expect(loadedLanguage('en')).toBeUndefined();
    expect(() => createI18nProvider()).toThrow("The messages of 'en' are not loaded yet.");
  });

  it('starts in the loaded language and downloads another one when the user switches to it', async () => {
    localStorage.setItem(LOCALE_STORAGE_KEY, 'nl');
    expect(await loadLanguage('nl')).toEqual(messages.nl);
    const i18n = createI18nProvider();
    expect(i18n.translate('ra.action.save')).toBe('Opslaan');
    expect(loadedLanguage('de')).toBeUndefined();
    await i18n.changeLocale('de');
    // German arrives with English, its fallback, merged under it.
    expect(loadedLanguage('de')).toEqual(deepMerge(messages.en, messages.de));
    expect(i18n.translate('app.pages.not_found')).toBe('Seite nicht gefunden');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    // The next page load starts in German, loaded first.
    await loadLanguage('de');
    expect(createI18nProvider().translate('ra.action.save')).toBe('Speichern');
  });

  it('says the words shown before any language is loaded as the message files do', () => {
    for (const locale of LANGUAGES) {
      const tree = locale === 'de' ? deepMerge(messages.en, messages.de) : messages[locale];
      expect(START_TEXTS[locale], locale).toEqual({
        loading: lookup(tree, 'ra.page.loading'),
        failed: lookup(tree, 'app.errors.network'),
        retry: lookup(tree, 'app.errors.retry'),
      });
    }
  });
});
