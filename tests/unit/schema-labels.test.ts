import { describe, expect, it } from 'vitest';
import { missingLabels, schemaMessages } from '../../common/schema/labels.ts';
import { Registry, registry, toResource } from '../../server/schema/registry.ts';
import { withoutDocs } from '../../common/schema/label-split.ts';

/*
 * The schemas' words are data (x-i18n in each schema file and enumeration): these tests read the files
 * through the server's registry, so a schema added without its words fails here, whatever TypeScript says.
 */
const reg = registry();

describe("the schemas' words", () => {
  it('are complete in Dutch, English and German for every schema and enumeration', () => {
    expect(reg.resources.size).toBeGreaterThanOrEqual(46);
    expect(missingLabels(reg)).toEqual([]);
  });

  it('become react-admin message trees per language', () => {
    const nl = schemaMessages(reg, 'nl');
    expect(nl.resources.tickets!.name).toBe('Ticket |||| Tickets');
    expect(nl.resources['time-registrations']!.fields.time_spent).toBe('Bestede tijd');
    expect(nl.enums.quoteStatuses!['3']).toBe('Geaccepteerd');
    expect(schemaMessages(reg, 'de').resources.tickets!.empty).toBe('Keine Tickets gefunden.');
    expect(schemaMessages(reg, 'en').enums.contractPeriods!.none).toBe('Prepaid card');
  });

  it('name every gap: a missing language, field, enumeration value, and a label for no field', () => {
    const words = (name: string) => ({
      name: `${name} |||| ${name}s`,
      empty: `No ${name}s found.`,
      fields: { id: 'ID', title: 'Title' },
    });
    const thing = toResource({
      $id: 'things',
      'x-label': 'title',
      properties: { id: { type: 'integer' }, title: { type: 'string' }, kind: { type: 'integer' } },
      'x-i18n': {
        nl: { ...words('Ding'), fields: { id: 'ID', title: 'Titel', kind: 'Soort' } },
        en: { ...words('Thing'), fields: { id: 'ID', title: 'Title', kind: 'Kind', colour: 'Colour' } },
      },
    });
    const kinds = {
      values: [
        { id: 1, name: 'big' },
        { id: 2, name: 'small' },
      ],
      'x-i18n': { nl: { 1: 'Groot', 2: 'Klein' }, en: { 1: 'Big' }, de: { 1: 'Groß', 2: 'Klein' } },
    };
    expect(missingLabels(new Registry([thing], { kinds }))).toEqual([
      'en things.fields.colour: no such field or relation',
      'en enums.kinds.2: missing',
      'de things: no x-i18n.de',
    ]);
  });

  it("want a name's singular and plural form and the empty list's text", () => {
    const thing = toResource({
      $id: 'things',
      'x-label': 'id',
      properties: { id: { type: 'integer' } },
      'x-i18n': Object.fromEntries(
        ['nl', 'en', 'de'].map((l) => [l, { name: 'Thing', empty: ' ', fields: { id: 'ID' } }]),
      ),
    });
    expect(missingLabels(new Registry([thing], {}))).toEqual(
      ['nl', 'en', 'de'].flatMap((l) => [`${l} things.name: 'One |||| Many'`, `${l} things.empty: missing`]),
    );
  });
});

describe("the apps' registry in the build", () => {
  it('leaves out the documentation, not a field or a setting called description', async () => {
    const { readFileSync } = await import('node:fs');
    const tickets = JSON.parse(readFileSync('schemas/tickets.json', 'utf8')) as Record<string, any>;
    const docs = JSON.stringify(tickets).match(/"description":"/g)?.length ?? 0;
    expect(docs).toBeGreaterThan(0);
    const built = withoutDocs(tickets);
    expect(JSON.stringify(built)).not.toMatch(/"description":"/);
    // The ticket's own field of that name stays, and the rest of the schema with it.
    expect(built.properties.description).toEqual(withoutDocs(tickets.properties.description));
    expect(Object.keys(built.properties)).toEqual(Object.keys(tickets.properties));
    expect(withoutDocs({ description: ['subject', 'body'] })).toEqual({ description: ['subject', 'body'] });
    // The resource built from it keeps that field.
    expect(toResource(built).fields.description).toBeDefined();
  });
});
