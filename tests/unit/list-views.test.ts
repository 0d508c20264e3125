/**
 * A list's own views (x-views, issue 18 item 4): their conditions as the list's filter state, which
 * view a user starts on, and the registry's refusal of views it could not say.
 */
import { describe, expect, it } from 'vitest';
import { Registry, registry, toResource } from '../../server/schema/registry.ts';
import { startView, viewFilter, type SystemView } from '../../src/custom/list/systemViews.ts';
import type { TablePreset } from '../../src/custom/list/persistence.ts';

const tickets = registry().require('tickets');
const statuses = [1, 2, 3, 4, 5, 6].map((id) => ({ id, internal_type: [1, 1, 2, 3, 4, 5][id - 1] }));

describe('list views', () => {
  it("say 'My open tickets' as mine, in every status that is neither closed nor archived", () => {
    const mine = tickets.views.find((v) => v.name === 'my_open')!;
    expect(mine.default).toBe(true);
    expect(viewFilter(tickets, mine, 42, { 'ticket-statuses': statuses })).toEqual({
      operator_id: [42],
      status_id: [1, 2, 5, 6],
    });
    const all = tickets.views.find((v) => v.name === 'all')!;
    expect(viewFilter(tickets, all, 42, {})).toEqual({});
  });

  it('start on the user’s choice, else a preset marked default, else the schema’s default', () => {
    const views: SystemView[] = [
      { key: 'system:my_open', name: 'my_open', filter: { operator_id: [1] }, isDefault: true },
      { key: 'system:all', name: 'all', filter: {}, isDefault: false },
    ];
    const preset = { id: 7, label: 'Hoog', type: 'tickets', is_default: false } as TablePreset;
    const marked = { ...preset, is_default: true };
    expect(startView(null, views, [preset])).toEqual({ system: views[0] });
    expect(startView('system:all', views, [marked])).toEqual({ system: views[1] });
    expect(startView('preset:7', views, [preset])).toEqual({ preset });
    expect(startView(null, views, [marked])).toEqual({ preset: marked });
    // A choice that no longer exists (a deleted preset) falls back.
    expect(startView('preset:99', views, [])).toEqual({ system: views[0] });
    expect(startView(null, [], [])).toBeUndefined();
  });

  it('are refused by the registry when they name what does not exist', () => {
    const thing = (views: unknown) =>
      toResource({
        $id: 'things',
        'x-label': 'id',
        'x-views': views,
        'x-relations': { kind: { kind: 'belongsTo', resource: 'things', key: 'kind_id' } },
        properties: { id: { type: 'integer', 'x-filter': true }, kind_id: { type: 'integer' } },
      });
    const check = (views: unknown) => () => new Registry([thing(views)], {});
    expect(check([{ name: 'a', where: [['id', '=', 'me']] }])).not.toThrow();
    expect(check([{ name: 'a', where: [['colour', '=', 1]] }])).toThrow(/unknown or unfiltered field colour/);
    expect(check([{ name: 'a', where: [['kind_id', '=', 1]] }])).toThrow(/unfiltered field kind_id/);
    expect(check([{ name: 'a', where: [['id', 'not in', [1]]] }])).toThrow(/only through a relation/);
    expect(check([{ name: 'a', where: [['owner.id', 'in', [1]]] }])).toThrow(/owner is no belongsTo/);
    expect(check([{ name: 'a', where: [['kind.id', 'in', 1]] }])).toThrow(/takes a list/);
    expect(
      check([
        { name: 'a', where: [], default: true },
        { name: 'b', where: [], default: true },
      ]),
    ).toThrow(/at most one default/);
    expect(
      check([
        { name: 'a', where: [] },
        { name: 'a', where: [] },
      ]),
    ).toThrow(/a name of its own/);
  });
});
