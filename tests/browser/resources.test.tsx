// @vitest-environment jsdom
/**
 * Adding a schema (and its migration) makes a resource appear in the back office with no TypeScript:
 * a throw-away schema, next to the real ones, becomes a menu resource with list, detail and create.
 */
import { describe, expect, it } from 'vitest';
import type { ReactElement } from 'react';
import { Registry, toResource } from '../../common/schema/registry.ts';
import { registry as real } from '../../src/schema.ts';
import { buildResources } from '../../src/resources/index.tsx';
import { menuSections } from '../../src/resources/menus.ts';
import { createI18nProvider } from '../../src/i18n/index.ts';
import { messages } from '../../src/i18n/catalogue.ts';

const gadgets = toResource({
  $id: 'gadgets',
  title: 'Gadget',
  'x-default-sort': ['name', 'asc'],
  'x-menu': { backoffice: { group: 'daily', order: 15 }, portal: { order: 25 } },
  'x-icon': 'Devices',
  'x-portal': { actions: ['index', 'show'], scope: 'tenant' },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
    name: { type: 'string', 'x-filter': true, 'x-sort': true, 'x-list': true },
    serial_code: { type: ['string', 'null'], 'x-list': true },
  },
});

const withGadgets = new Registry([...real.resources.values(), gadgets], real.enums);

function byName(elements: ReactElement[], name: string) {
  return elements.find((e) => (e.props as { name: string }).name === name) as
    ReactElement<Record<string, any>> | undefined;
}

describe('resources from schemas', () => {
  it('a new schema becomes a back-office resource with list, detail and create', () => {
    const resources = buildResources(withGadgets, 'backoffice');
    const gadget = byName(resources, 'gadgets');
    expect(gadget).toBeDefined();
    expect(gadget!.props.list).toBeDefined();
    expect(gadget!.props.create).toBeDefined();
    expect(gadget!.props.children).toBeTruthy(); // the /gadgets/:id detail route
    expect(gadget!.props.recordRepresentation).toBe('name');
  });

  it('every resource of the schemas is in the back office; the portal menu is the spec’s six', () => {
    const backoffice = buildResources(real, 'backoffice');
    expect(backoffice.map((e) => (e.props as { name: string }).name).sort()).toEqual(
      [...real.resources.keys()].sort(),
    );
    // A list for every resource with a list action; the ones served by routes of their own (x-actions
    // empty: a user's notifications and preferences, shown by the bell) have no screen here.
    for (const entry of backoffice) {
      const { name, list } = entry.props as { name: string; list?: unknown };
      expect(Boolean(list), name).toBe(real.resources.get(name)!.actions.includes('index'));
    }
    expect(backoffice.filter((e) => !(e.props as { list?: unknown }).list)).toHaveLength(2);
    const portal = buildResources(real, 'portal');
    const menu = portal
      .filter((e) => (e.props as { list?: unknown }).list)
      .map((e) => (e.props as { name: string }).name);
    expect(menu).toEqual(['tickets', 'quotes', 'subscriptions', 'assets', 'contracts', 'invoices']);
    expect(byName(portal, 'tickets')!.props.create).toBeDefined();
    expect(byName(portal, 'quotes')!.props.create).toBeUndefined();
    expect(byName(portal, 'operators')!.props.list).toBeUndefined();
  });

  it('the back-office menu is grouped by x-menu: daily work, sales and billing, settings', () => {
    const sections = menuSections(real, 'backoffice');
    const names = (group: string) => sections.find((s) => s.group === group)!.resources.map((r) => r.name);
    expect(sections.map((s) => s.group)).toEqual(['daily', 'sales', 'settings']);
    expect(names('daily').slice(0, 4)).toEqual(['tickets', 'ticket-templates', 'ticket-groups', 'companies']);
    expect(names('sales')).toContain('quotes');
    expect(names('sales')).toContain('invoices');
    // Without x-menu a resource is a setting; every resource has exactly one place.
    expect(names('settings')).toContain('priorities');
    expect(sections.flatMap((s) => s.resources).length).toBe(real.resources.size);
  });

  it('a new schema takes the menu places its x-menu gives, in both apps', () => {
    const daily = menuSections(withGadgets, 'backoffice')[0]!.resources.map((r) => r.name);
    expect(daily.slice(0, 3)).toEqual(['tickets', 'gadgets', 'ticket-templates']);
    const portal = menuSections(withGadgets, 'portal')[0]!.resources.map((r) => r.name);
    expect(portal).toEqual([
      'tickets',
      'quotes',
      'gadgets',
      'subscriptions',
      'assets',
      'contracts',
      'invoices',
    ]);
    expect(byName(buildResources(withGadgets, 'portal'), 'gadgets')!.props.list).toBeDefined();
  });

  it('a new schema’s labels fall back to readable words until translated', () => {
    const i18n = createI18nProvider({ messages });
    expect(i18n.translate('resources.gadgets.fields.serial_code')).toBe('Serial code');
  });
});
