/**
 * The tab bar's rules (SPEC 2, x-tabs): which tabs a user sees, the rows a tab selects, the badge's
 * format; and a schema whose tabs name something that does not exist fails at start.
 */
import { describe, expect, it } from 'vitest';
import { registry, Registry, toResource } from '../../server/schema/registry.ts';
import {
  badgeQuery,
  badgeText,
  fixedFields,
  relationBadge,
  TAB_SCROLL_STEP,
  tabBuilder,
  visibleTabs,
} from '../../src/custom/tabs/tabs.ts';

const reg = registry();
const tickets = reg.require('tickets');
const tab = (name: string) => tickets.tabs.find((t) => t.name === name)!;

describe('the ticket tab bar', () => {
  it('has the tabs of issue 5 and the history of issue 18 in order, and scrolls by 100 px', () => {
    expect(tickets.tabs.map((t) => t.name)).toEqual([
      'messages',
      'timeRegistrations',
      'usedProducts',
      'assets',
      'relatedTickets',
      'history',
    ]);
    expect(TAB_SCROLL_STEP).toBe(100);
  });

  it('shows a tab by its visible flag, or the portal or the index permission of what it lists', () => {
    expect(visibleTabs(tickets, []).map((t) => t.name)).toEqual(['messages']);
    expect(visibleTabs(tickets, ['tenant.time-registrations.index']).map((t) => t.name)).toEqual([
      'messages',
      'timeRegistrations',
    ]);
    expect(visibleTabs(tickets, ['portal.assets.index']).map((t) => t.name)).toEqual(['messages', 'assets']);
    // Another action on the resource is not enough.
    expect(visibleTabs(tickets, ['tenant.used-products.show']).map((t) => t.name)).toEqual(['messages']);
    expect(visibleTabs(tickets, ['tenant.ticket-changes.index']).map((t) => t.name)).toEqual([
      'messages',
      'history',
    ]);
    expect(
      visibleTabs(tickets, ['tenant.used-products.index', 'tenant.tickets.index']).map((t) => t.name),
    ).toEqual(['messages', 'usedProducts', 'relatedTickets']);
  });

  it('selects a relation tab by its key, and a matched tab by the record values', () => {
    const record = { id: 12, company_id: 7 };
    expect(tabBuilder(tickets, tab('timeRegistrations'), record)).toEqual([
      { where: ['ticket_id', '=', 12] },
    ]);
    expect(tabBuilder(tickets, tab('messages'), record)).toEqual([
      { where: ['morphable_type', '=', 'ticket'] },
      { where: ['morphable_id', '=', 12] },
    ]);
    expect(tabBuilder(tickets, tab('assets'), record)).toEqual([{ where: ['company_id', '=', 7] }]);
    expect(tabBuilder(tickets, tab('relatedTickets'), record)).toEqual([
      { where: ['company_id', '=', 7] },
      { where: ['id', '!=', 12] },
    ]);
    // Values every row shares are not shown as columns.
    expect(fixedFields(tabBuilder(tickets, tab('relatedTickets'), record))).toEqual(['company_id']);
    // A ticket without a company has no company assets: no rows, no call.
    expect(tabBuilder(tickets, tab('assets'), { id: 12, company_id: null })).toBeNull();
  });

  it('asks the relation badges in one call and formats sums as minutes or money', () => {
    expect(badgeQuery(tickets.tabs)).toEqual({
      withCount: ['messages', 'changes'],
      withSum: ['timeRegistrations.time_spent', 'usedProducts.total'],
    });
    const answer = {
      messages_count: 4,
      timeRegistrations_sum_time_spent: 90,
      usedProducts_sum_total: 1234.5,
    };
    expect(relationBadge(tab('messages'), answer)).toBe(4);
    expect(badgeText(tab('timeRegistrations'), relationBadge(tab('timeRegistrations'), answer)!, 'nl')).toBe(
      '01:30',
    );
    expect(badgeText(tab('usedProducts'), relationBadge(tab('usedProducts'), answer)!, 'nl')).toBe(
      '€\u00a01.234,50',
    );
    expect(badgeText(tab('messages'), 4, 'nl')).toBe('4');
    expect(relationBadge(tab('messages'), undefined)).toBeUndefined();
  });
});

describe('a schema with broken tabs', () => {
  const broken = (tabs: unknown[]) => () =>
    new Registry(
      [
        ...reg.resources.values(),
        toResource({
          $id: 'broken',
          properties: { id: { type: 'integer' }, company_id: { type: 'integer' } },
          'x-label': 'id',
          'x-relations': { company: { kind: 'belongsTo', resource: 'companies', key: 'company_id' } },
          'x-tabs': tabs,
        }),
      ],
      reg.enums,
    );

  it('is accepted when the tabs are sound', () => {
    expect(
      broken([
        { name: 'assets', icon: 'assets', resource: 'assets', where: [['company_id', '=', '{company_id}']] },
      ])()
        .get('broken')
        ?.tabs.map((t) => t.name),
    ).toEqual(['assets']);
  });

  it('is rejected for each unsound tab, naming it', () => {
    expect(broken([{ name: 'x', icon: 'x', relation: 'company' }])).toThrow(
      /x-tabs x: company is not a hasMany/,
    );
    expect(broken([{ name: 'x', icon: 'x', resource: 'nowhere', where: [['id', '=', 1]] }])).toThrow(
      /unknown resource nowhere/,
    );
    expect(broken([{ name: 'x', icon: 'x', resource: 'assets' }])).toThrow(/needs where conditions/);
    expect(broken([{ name: 'x', icon: 'x', resource: 'assets', where: [['secret', '=', 1]] }])).toThrow(
      /secret is not a filterable field of assets/,
    );
    expect(
      broken([{ name: 'x', icon: 'x', resource: 'assets', where: [['company_id', '=', '{missing}']] }]),
    ).toThrow(/\{missing\} is not a field of broken/);
    expect(
      broken([
        {
          name: 'x',
          icon: 'x',
          resource: 'assets',
          where: [['company_id', '=', 1]],
          badge: { sum: 'id', format: 'money' },
        },
      ]),
    ).toThrow(/a sum badge needs a relation/);
  });
});
