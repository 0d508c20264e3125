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

  it('say the SLA presets (issue 35) as open tickets by SLA state or by a date preset from now', () => {
    const view = (name: string) =>
      viewFilter(
        tickets,
        tickets.views.find((v) => v.name === name)!,
        42,
        {
          'ticket-statuses': statuses,
        },
      );
    const open = [1, 2, 5, 6];
    expect(view('sla_breached')).toEqual({ sla_state: ['breached'], status_id: open });
    expect(view('sla_within_1h')).toEqual({
      sla_due: { preset: 'lte', value: 1, unit: 'hours' },
      status_id: open,
    });
    expect(view('sla_within_4h')).toEqual({
      sla_due: { preset: 'lte', value: 4, unit: 'hours' },
      status_id: open,
    });
    expect(view('sla_today')).toEqual({ sla_due: { preset: 'today' }, status_id: open });
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
        properties: {
          id: { type: 'integer', 'x-filter': true },
          kind_id: { type: 'integer' },
          due: { type: 'string', format: 'date-time', 'x-filter': true },
        },
      });
    const check = (views: unknown) => () => new Registry([thing(views)], {});
    expect(check([{ name: 'a', where: [['id', '=', 'me']] }])).not.toThrow();
    expect(check([{ name: 'a', where: [['colour', '=', 1]] }])).toThrow(/unknown or unfiltered field colour/);
    expect(check([{ name: 'a', where: [['kind_id', '=', 1]] }])).toThrow(/unfiltered field kind_id/);
    expect(check([{ name: 'a', where: [['id', 'not in', [1]]] }])).toThrow(/only through a relation/);
    expect(check([{ name: 'a', where: [['owner.id', 'in', [1]]] }])).toThrow(/owner is no belongsTo/);
    expect(check([{ name: 'a', where: [['kind.id', 'in', 1]] }])).toThrow(/takes a list/);
    // A date preset: a date field, a preset the header filter knows, 'lte' with a number and a unit.
    const hour = { preset: 'lte', value: 1, unit: 'hours' };
    expect(check([{ name: 'a', where: [['due', 'date', hour]] }])).not.toThrow();
    expect(check([{ name: 'a', where: [['due', 'date', { preset: 'today' }]] }])).not.toThrow();
    expect(check([{ name: 'a', where: [['id', 'date', hour]] }])).toThrow(/date takes a date field/);
    expect(check([{ name: 'a', where: [['due', 'date', 'now() + 1h']] }])).toThrow(
      /needs a date filter preset/,
    );
    expect(check([{ name: 'a', where: [['due', 'date', { preset: 'soon' }]] }])).toThrow(
      /date filter preset/,
    );
    expect(check([{ name: 'a', where: [['due', 'date', { ...hour, unit: 'eons' }]] }])).toThrow(/preset/);
    // A range: two calendar days, nothing else.
    const range = { preset: 'range', from: '2026-11-01', to: '2026-11-30' };
    expect(check([{ name: 'a', where: [['due', 'date', range]] }])).not.toThrow();
    expect(check([{ name: 'a', where: [['due', 'date', { ...range, to: 'tomorrow' }]] }])).toThrow(/preset/);
    expect(check([{ name: 'a', where: [['due', 'date', { preset: 'today', from: '2026-11-01' }]] }])).toThrow(
      /preset/,
    );
    expect(check([{ name: 'a', where: [['kind.id', 'date', hour]] }])).toThrow(/date only on a field/);
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
