// @vitest-environment jsdom
/**
 * Adding a schema (and its migration) makes a resource appear in the back office with no TypeScript:
 * a throw-away schema, next to the real ones, becomes a menu resource with list, detail and create.
 */
import { describe, expect, it } from 'vitest';
import { createElement, type ComponentType, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Registry, toResource } from '../../common/schema/registry.ts';
import { registry as real } from '../../src/schema.ts';
import { buildResources } from '../../src/resources/index.tsx';
import { menuSections } from '../../src/resources/menus.ts';
import { iconNamed } from '../../src/resources/icons.ts';
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

  it('every resource of the schemas is in the back office; the portal menu is the spec’s six and the knowledge base', () => {
    const backoffice = buildResources(real, 'backoffice');
    expect(backoffice.map((e) => (e.props as { name: string }).name).sort()).toEqual(
      [...real.resources.keys()].sort(),
    );
    // A list for every resource with a list action; the ones served by routes of their own (x-actions
    // empty: a user's notifications and preferences, shown by the bell, and an operator's report
    // subscriptions, on the reports page) have no screen here.
    for (const entry of backoffice) {
      const { name, list } = entry.props as { name: string; list?: unknown };
      expect(Boolean(list), name).toBe(real.resources.get(name)!.actions.includes('index'));
    }
    expect(
      backoffice
        .filter((e) => !(e.props as { list?: unknown }).list)
        .map((e) => (e.props as { name: string }).name)
        .sort(),
    ).toEqual(['notification-preferences', 'notifications', 'report-subscriptions']);
    const portal = buildResources(real, 'portal');
    const menu = portal
      .filter((e) => (e.props as { list?: unknown }).list)
      .map((e) => (e.props as { name: string }).name);
    expect(menu).toEqual([
      'tickets',
      'quotes',
      'subscriptions',
      'assets',
      'contracts',
      'invoices',
      'knowledge-articles',
      'company-user',
    ]);
    expect(byName(portal, 'tickets')!.props.create).toBeDefined();
    expect(byName(portal, 'quotes')!.props.create).toBeUndefined();
    expect(byName(portal, 'operators')!.props.list).toBeUndefined();
  });

  it('the back-office menu is grouped by x-menu: daily work, sales and billing, settings', () => {
    const sections = menuSections(real, 'backoffice');
    const names = (group: string) => sections.find((s) => s.group === group)!.resources.map((r) => r.name);
    expect(sections.map((s) => s.group)).toEqual(['daily', 'sales', 'settings']);
    expect(names('daily').slice(0, 5)).toEqual([
      'tickets',
      'ticket-templates',
      'recurring-tickets',
      'ticket-groups',
      'companies',
    ]);
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
      'knowledge-articles',
      'company-user',
    ]);
    expect(byName(buildResources(withGadgets, 'portal'), 'gadgets')!.props.list).toBeDefined();
  });

  it('a new schema’s labels fall back to readable words until translated', () => {
    const i18n = createI18nProvider({ messages });
    expect(i18n.translate('resources.gadgets.fields.serial_code')).toBe('Serial code');
  });
});

describe('a resource’s icon from its schema (issue 34)', () => {
  /** MUI's MenuBook, not in the icon table: the `d` of its 24×24 SVG paths. */
  const MENU_BOOK =
    'M21 5c-1.11-.35-2.33-.5-3.5-.5-1.95 0-4.05.4-5.5 1.5-1.45-1.1-3.55-1.5-5.5-1.5S2.45 4.9 1 6v14.65c0 ' +
    '.25.25.5.5.5.1 0 .15-.05.25-.05C3.1 20.45 5.05 20 6.5 20c1.95 0 4.05.4 5.5 1.5 1.35-.85 3.8-1.5 ' +
    '5.5-1.5 1.65 0 3.35.3 4.75 1.05.1.05.15.05.25.05.25 0 .5-.25.5-.5V6c-.6-.45-1.25-.75-2-1m0 ' +
    '13.5c-1.1-.35-2.3-.5-3.5-.5-1.7 0-4.15.65-5.5 1.5V8c1.35-.85 3.8-1.5 5.5-1.5 1.2 0 2.4.15 3.5.5z';
  const withIcon = (icon: string) =>
    new Registry(
      [
        ...real.resources.values(),
        toResource({
          $id: 'demo-notes',
          title: 'Knowledge article',
          'x-default-sort': ['title', 'asc'],
          'x-label': 'title',
          'x-icon': icon,
          properties: {
            id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
            title: { type: 'string', 'x-filter': true, 'x-sort': true, 'x-list': true },
          },
        }),
      ],
      real.enums,
    );
  const drawn = (icon: string) => {
    const entry = byName(buildResources(withIcon(icon), 'backoffice'), 'demo-notes')!;
    return renderToStaticMarkup(createElement(entry.props.icon as ComponentType));
  };
  const drawnAs = (Icon: ComponentType) => renderToStaticMarkup(createElement(Icon));

  it('draws an icon of the table by its name', () => {
    expect(drawn('Devices')).toBe(drawnAs(iconNamed('Devices')));
    expect(drawn('Devices')).not.toBe(drawnAs(iconNamed(undefined)));
  });

  it('draws any other icon from the SVG path the schema gives, with no TypeScript', () => {
    const svg = drawn(MENU_BOOK);
    expect(svg).toContain(`d="${MENU_BOOK}"`);
    expect(svg).toMatch(/^<svg[^>]*viewBox="0 0 24 24"/);
  });

  it('draws the list icon for a name it does not know', () => {
    expect(drawn('NoSuchIcon')).toBe(drawnAs(iconNamed(undefined)));
    expect(drawn('Mms')).toBe(drawnAs(iconNamed(undefined)));
  });
});
