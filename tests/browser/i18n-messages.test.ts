// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import englishMessages from 'ra-language-english';
import { registry } from '../../src/schema.ts';
import { createI18nProvider, DEFAULT_LOCALE, LOCALE_STORAGE_KEY, LOCALES } from '../../src/i18n/index.ts';
import { messages } from '../../src/i18n/catalogue.ts';
import { LANGUAGES, lookup, noStoredLanguageAroundEachTest } from './i18n-world.ts';

/**
 * The message files: react-admin's own keys in the three languages, every translation with the variables
 * and plural forms of its English text, the schemas' resources, fields and enumerations named in every
 * language, and the texts SPEC.md quotes. How the provider chooses and loads a language:
 * i18n-provider.test.ts.
 */

/*
 * The registry the apps bundle: the same Registry and toResource the server's loadRegistry uses, over every
 * schemas/*.json (import.meta.glob). server/schema/registry.ts itself cannot be imported here: it reads the
 * folder with node:fs (not in this project's browser type check) and Vite rewrites its
 * `new URL('../../schemas/', import.meta.url)` to an http: URL under jsdom.
 */
const resources = [...registry.resources.values()];

/** Every leaf of a message tree as [dotted key, value]. */
function leaves(tree: object, prefix = ''): [string, unknown][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? leaves(value, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

const placeholders = (text: string) => [...text.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();

const english = leaves(englishMessages);

noStoredLanguageAroundEachTest();

describe("react-admin's own keys", () => {
  it('lists the languages in their own names, Dutch first and by default', () => {
    expect(LOCALES).toEqual([
      { locale: 'nl', name: 'Nederlands' },
      { locale: 'en', name: 'English' },
      { locale: 'de', name: 'Deutsch' },
    ]);
    expect(DEFAULT_LOCALE).toBe('nl');
  });

  it('has every key of ra-language-english in English, unchanged', () => {
    expect(english.length).toBeGreaterThan(150);
    for (const [key, value] of english) expect(lookup(messages.en, key), key).toBe(value);
  });

  it('has every key of ra-language-english in Dutch and German, translated, and no others', () => {
    for (const locale of ['nl', 'de'] as const) {
      const own = leaves(messages[locale]).filter(([key]) => key.startsWith('ra.'));
      expect(own.map(([key]) => key).sort(), locale).toEqual(english.map(([key]) => key).sort());
      for (const [key, value] of english) {
        const translated = lookup(messages[locale], key);
        expect(typeof translated, `${locale} ${key}`).toBe('string');
        if (key !== 'ra.boolean.null') expect((translated as string).trim(), `${locale} ${key}`).not.toBe('');
        // Texts with words in them are translated; a few words are the same in Dutch or German.
        const words = (value as string).replace(/%\{\w+\}/g, '');
        if (/[a-z]{4}/i.test(words) && !['Dashboard', 'Details', 'Inspector'].includes(words)) {
          expect(translated, `${locale} ${key} is still English`).not.toBe(value);
        }
      }
    }
  });
});

describe('every translation keeps the variables and plural forms of the English text', () => {
  const en = new Map(leaves(messages.en));
  for (const locale of ['nl', 'de'] as const) {
    it(locale, () => {
      for (const [key, value] of leaves(messages[locale])) {
        const source = en.get(key);
        expect(source, `${locale} ${key} has no English text`).toBeTypeOf('string');
        expect(placeholders(value as string), `${locale} ${key}`).toEqual(placeholders(source as string));
        expect((value as string).includes('||||'), `${locale} ${key} plural forms`).toBe(
          (source as string).includes('||||'),
        );
      }
    });
  }
});

describe('the schemas in every language', () => {
  it('names every resource with a singular and a plural form', () => {
    expect(resources.length).toBeGreaterThanOrEqual(46);
    for (const locale of LANGUAGES) {
      for (const r of resources) {
        const name = lookup(messages[locale], `resources.${r.name}.name`);
        expect(name, `${locale} ${r.name}`).toMatch(/^\S.* \|\|\|\| \S.*$/);
      }
    }
    // English singular is the schema's title.
    for (const r of resources) {
      expect((lookup(messages.en, `resources.${r.name}.name`) as string).split(' |||| ')[0], r.name).toBe(
        r.title,
      );
    }
  });

  it("has the 'No {model} found.' text of every resource", () => {
    for (const r of resources) {
      expect(lookup(messages.en, `resources.${r.name}.empty`), r.name).toMatch(/^No \S.* found\.$/);
      expect(lookup(messages.nl, `resources.${r.name}.empty`), r.name).toMatch(/^Geen \S.* gevonden\.$/);
      expect(lookup(messages.de, `resources.${r.name}.empty`), r.name).toMatch(/^Keine \S.* gefunden\.$/);
    }
    expect(lookup(messages.en, 'resources.tickets.empty')).toBe('No tickets found.');
    expect(lookup(messages.nl, 'resources.tickets.empty')).toBe('Geen tickets gevonden.');
    expect(lookup(messages.de, 'resources.tickets.empty')).toBe('Keine Tickets gefunden.');
    expect(lookup(messages.en, 'resources.quotes.empty')).toBe('No quotes found.');
    expect(lookup(messages.nl, 'resources.invoices.empty')).toBe('Geen facturen gevonden.');
  });

  it('labels every field and every relation of every schema', () => {
    for (const locale of LANGUAGES) {
      for (const r of resources) {
        for (const name of [...Object.keys(r.fields), ...Object.keys(r.relations)]) {
          const label = lookup(messages[locale], `resources.${r.name}.fields.${name}`);
          expect(label, `${locale} ${r.name}.${name}`).toBeTypeOf('string');
          expect((label as string).trim(), `${locale} ${r.name}.${name}`).not.toBe('');
        }
      }
    }
  });

  it('translates no resource or field the schemas do not have', () => {
    for (const locale of LANGUAGES) {
      const translated = (messages[locale] as unknown as { resources: Record<string, { fields: object }> })
        .resources;
      for (const [name, entry] of Object.entries(translated)) {
        const r = registry.get(name);
        expect(r, `${locale} resources.${name}`).toBeDefined();
        for (const field of Object.keys(entry.fields)) {
          expect(field in r!.fields || field in r!.relations, `${locale} ${name}.${field}`).toBe(true);
        }
      }
    }
  });

  it('labels every value of every enumeration', () => {
    for (const locale of LANGUAGES) {
      for (const [name, enumeration] of Object.entries(registry.enums)) {
        for (const value of enumeration.values) {
          // By property, not by a dotted path: an id may hold dots (the audit log's `auth.login`),
          // which the catalogue keeps as one key and polyglot finds as `enums.auditActions.auth.login`.
          const enums = lookup(messages[locale], `enums.${name}`) as Record<string, unknown> | undefined;
          const label = enums?.[String(value.id)];
          expect(label, `${locale} enums.${name}.${value.id}`).toBeTypeOf('string');
        }
      }
    }
    expect(lookup(messages.nl, 'enums.quoteStatuses.3')).toBe('Geaccepteerd');
    expect(lookup(messages.en, 'enums.contractPeriods.none')).toBe('Prepaid card');
    expect(lookup(messages.nl, 'enums.contractPeriods.none')).toBe('Strippenkaart');
    expect(createI18nProvider({ messages }).translate('enums.auditActions.auth.login')).toBe('Aangemeld');
  });

  it('gives react-admin singular and plural resource names through the provider', () => {
    const i18n = createI18nProvider({ messages });
    expect(i18n.translate('resources.tickets.name', { smart_count: 1 })).toBe('Ticket');
    expect(i18n.translate('resources.quotes.name', { smart_count: 2 })).toBe('Offertes');
    expect(i18n.translate('resources.prepaid-cards.name', { smart_count: 1 })).toBe('Strippenkaart');
    expect(i18n.translate('resources.time-registrations.fields.time_spent')).toBe('Bestede tijd');
    expect(i18n.translate('enums.ticketStatusTypes.4')).toBe('Wacht op antwoord');
  });
});

describe('the texts quoted in SPEC.md', () => {
  /** [key, English as quoted in the spec]. */
  const ENGLISH: [string, string][] = [
    ['app.errors.prepaid_upgrade_failed', 'Failed to upgrade the prepaid card.'],
    ['app.notifications.prepaid_upgraded', 'Prepaid card upgraded'],
    ['app.notifications.changes_saved', 'Changes saved.'],
    ['app.confirm.delete', 'Do you really want to delete this?'],
    ['app.errors.not_confirmed', 'Not confirmed.'],
    ['app.errors.no_signature', 'No signature has been set.'],
    ['app.quote.accepted', 'The quote has been accepted.'],
    ['app.quote.rejected', 'The quote has been rejected.'],
    ['app.pages.not_found', 'Page not found'],
    ['app.pages.access_denied', 'Access denied'],
    ['app.errors.required', '%{field} is required'],
    ['app.errors.min_length', '%{subject} must be at least %{length} characters long.'],
    ['app.notifications.created', '%{type} created'],
    ['app.notifications.updated', '%{type} updated'],
    ['app.notifications.deleted', '%{type} deleted'],
    ['list.filter.none', '(none)'],
    ['app.date_picker.label', 'Deadline'],
    ['app.title.portal', '%{section} - %{tenant} Portal'],
    ['app.quote.agreement', 'By filling in your details you agree to this quote and its terms.'],
    ['app.locale.label', 'Language'],
    ['app.auth.forgot_password', 'Forgot your password?'],
    ['list.date.plus1', '+1 day'],
    ['list.date.plus2', '+2 days'],
    ['list.date.plus3', '+3 days and later'],
    ['list.date.minus1', '-1 day'],
    ['list.date.minus2', '-2 days and earlier'],
    ['app.invoices.invoice_code', 'Invoice code'],
    ['app.invoices.amount_incl', 'Amount incl. VAT'],
  ];
  /** [key, Dutch as quoted in the spec or required by the brief]. */
  const DUTCH: [string, string][] = [
    ['app.notifications.item_updated', 'Item bijgewerkt.'],
    ['app.notifications.item_deleted', 'Item verwijderd.'],
    ['app.notifications.invoice_line_added', 'Regel toegevoegd aan conceptfactuur.'],
    ['app.notifications.invoice_line_removed', 'Regel verwijderd van conceptfactuur.'],
    [
      'app.errors.logged_in_elsewhere',
      'Deze operator is elders ingelogd. Log opnieuw in om hier verder te werken.',
    ],
    ['app.locale.nl', 'Nederlands'],
    ['app.locale.en', 'English'],
    ['app.locale.de', 'Deutsch'],
  ];

  it('has them in English exactly', () => {
    for (const [key, text] of ENGLISH) expect(lookup(messages.en, key), key).toBe(text);
  });

  it('has the Dutch ones in Dutch exactly, and English equivalents', () => {
    for (const [key, text] of DUTCH) expect(lookup(messages.nl, key), key).toBe(text);
    expect(lookup(messages.en, 'app.notifications.item_updated')).toBe('Item updated.');
    expect(lookup(messages.en, 'app.notifications.item_deleted')).toBe('Item deleted.');
  });

  it('has every one of them in Dutch and German, translated', () => {
    // The same word in the other language: 'Deadline' is Dutch too; 'Portal' is Dutch and German.
    const same = new Set(['nl app.date_picker.label', 'nl app.title.portal', 'de app.title.portal']);
    for (const [key, text] of ENGLISH) {
      for (const locale of ['nl', 'de'] as const) {
        const translated = lookup(messages[locale], key);
        expect(translated, `${locale} ${key}`).toBeTypeOf('string');
        if (same.has(`${locale} ${key}`)) expect(translated, `${locale} ${key}`).toBe(text);
        else expect(translated, `${locale} ${key}`).not.toBe(text);
      }
    }
  });

  it('fills in variables and plural forms', () => {
    localStorage.setItem(LOCALE_STORAGE_KEY, 'en');
    const en = createI18nProvider({ messages });
    expect(en.translate('app.errors.required', { field: 'Name' })).toBe('Name is required');
    expect(en.translate('app.errors.min_length', { subject: 'The message', length: 5 })).toBe(
      'The message must be at least 5 characters long.',
    );
    expect(en.translate('list.filter.type_more', { smart_count: 1 })).toBe('Type 1 more character');
    expect(en.translate('list.filter.type_more', { smart_count: 2 })).toBe('Type 2 more characters');
    expect(en.translate('app.title.portal', { section: 'Tickets', tenant: 'Acme IT' })).toBe(
      'Tickets - Acme IT Portal',
    );
    localStorage.setItem(LOCALE_STORAGE_KEY, 'nl');
    const nl = createI18nProvider({ messages });
    expect(nl.translate('app.errors.required', { field: 'Naam' })).toBe('Naam is verplicht');
    expect(nl.translate('list.filter.type_more', { smart_count: 1 })).toBe('Typ nog 1 teken');
    expect(nl.translate('list.filter.type_more', { smart_count: 2 })).toBe('Typ nog 2 tekens');
    expect(nl.translate('app.notifications.created', { type: 'Ticket' })).toBe('Ticket aangemaakt');
    expect(nl.translate('app.title.portal', { section: 'Offertes', tenant: 'Acme IT' })).toBe(
      'Offertes - Acme IT Portal',
    );
  });
});
