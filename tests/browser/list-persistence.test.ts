import { describe, expect, it } from 'vitest';
import {
  applyPreset,
  configName,
  DEFAULT_PER_PAGE,
  defaultSettings,
  fromConfigs,
  loadLocal,
  loadSettings,
  PAGE_SIZES,
  parseSettings,
  presetFields,
  presetSettings,
  saveLocal,
  storageKey,
  toConfig,
  type ListSettings,
  type ListShape,
  type TablePreset,
} from '../../src/custom/list/persistence.ts';

const shape: ListShape = {
  columns: ['id', 'reference', 'description', 'status_id', 'company_id', 'updated_at'],
  defaultColumns: ['reference', 'description', 'updated_at'],
  sortable: ['id', 'reference', 'description', 'updated_at'],
  defaultSort: ['updated_at', 'desc'],
};

/** A localStorage stand-in. */
function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

const layout: ListSettings = {
  columns: ['description', 'reference'],
  sort: ['reference', 'asc'],
  filter: { status_id: [1, 2], description: 'toner' },
  perPage: 25,
  widths: {},
};

describe('defaults (SPEC 9)', () => {
  it('page sizes 5, 15, 25, 50, 100; default 15; the x-list columns; the x-default-sort', () => {
    expect([...PAGE_SIZES]).toEqual([5, 15, 25, 50, 100]);
    expect(DEFAULT_PER_PAGE).toBe(15);
    expect(defaultSettings(shape)).toEqual({
      columns: ['reference', 'description', 'updated_at'],
      sort: ['updated_at', 'desc'],
      filter: {},
      perPage: 15,
      widths: {},
    });
  });
});

describe('kept per user and route in localStorage', () => {
  it('uses the key list:<userId>:<route>', () => {
    expect(storageKey(7, 'tickets.index')).toBe('list:7:tickets.index');
    expect(configName('tickets.index')).toBe('list:tickets.index');
  });

  it('saves and loads the layout, filters, sort and page size', () => {
    const storage = memoryStorage();
    saveLocal(storage, 7, 'tickets.index', layout);
    expect(JSON.parse(storage.map.get('list:7:tickets.index')!)).toEqual({
      columns: ['description', 'reference'],
      sort: ['reference', 'asc'],
      filter: { status_id: [1, 2], description: 'toner' },
      perPage: 25,
    });
    expect(loadLocal(storage, 7, 'tickets.index', shape)).toEqual(layout);
  });

  it('keeps users and routes apart', () => {
    const storage = memoryStorage();
    saveLocal(storage, 7, 'tickets.index', layout);
    expect(loadLocal(storage, 8, 'tickets.index', shape)).toBeUndefined();
    expect(loadLocal(storage, 7, 'assets.index', shape)).toBeUndefined();
  });

  it('repairs what no longer fits the schema', () => {
    const storage = memoryStorage();
    storage.setItem(
      'list:7:tickets.index',
      JSON.stringify({ columns: ['gone', 'id'], sort: ['secret', 'asc'], filter: 'x', perPage: 13 }),
    );
    expect(loadLocal(storage, 7, 'tickets.index', shape)).toEqual({
      columns: ['id'],
      sort: ['updated_at', 'desc'],
      filter: {},
      perPage: 15,
      widths: {},
    });
    storage.setItem('list:7:tickets.index', '{not json');
    expect(loadLocal(storage, 7, 'tickets.index', shape)).toBeUndefined();
  });
});

describe('kept in the server-side user configs', () => {
  it('is sent as {name: list:<route>, value}', () => {
    expect(toConfig('tickets.index', layout)).toEqual({
      name: 'list:tickets.index',
      value: {
        columns: ['description', 'reference'],
        sort: ['reference', 'asc'],
        filter: layout.filter,
        perPage: 25,
      },
    });
  });

  it('is read back from the user configs (object or JSON text)', () => {
    const configs = [
      { name: 'locale', value: 'nl' },
      { name: 'list:tickets.index', value: toConfig('tickets.index', layout).value },
      { name: 'list:assets.index', value: JSON.stringify({ ...layout, perPage: 50, columns: ['id'] }) },
    ];
    expect(fromConfigs(configs, 'tickets.index', shape)).toEqual(layout);
    expect(fromConfigs(configs, 'assets.index', shape)?.perPage).toBe(50);
    expect(fromConfigs(configs, 'quotes.index', shape)).toBeUndefined();
  });

  it('localStorage first, then the server copy, then the defaults', () => {
    const storage = memoryStorage();
    const configs = [toConfig('tickets.index', { ...layout, perPage: 100 })];
    expect(loadSettings({ storage, userId: 7, route: 'tickets.index', configs, shape })).toEqual({
      settings: { ...layout, perPage: 100 },
      source: 'server',
    });
    saveLocal(storage, 7, 'tickets.index', layout);
    expect(loadSettings({ storage, userId: 7, route: 'tickets.index', configs, shape })).toEqual({
      settings: layout,
      source: 'local',
    });
    expect(loadSettings({ storage, userId: 8, route: 'tickets.index', configs: undefined, shape })).toEqual({
      settings: defaultSettings(shape),
      source: 'default',
    });
  });
});

describe('table presets', () => {
  const preset: TablePreset = {
    id: 3,
    label: 'Urgent',
    type: 'tickets',
    columns_config: JSON.stringify(['status_id', 'reference', 'gone']),
    order_config: JSON.stringify(['id', 'desc']),
    filter_config: JSON.stringify({ status_id: [null] }),
    pagination_config: JSON.stringify({ perPage: 50 }),
    order: 1,
    is_default: false,
  };

  it('applying a preset replaces columns, order, filter and pagination and resets to page 1 (SPEC 4)', () => {
    expect(applyPreset({ settings: layout, page: 4 }, preset, shape)).toEqual({
      settings: {
        columns: ['status_id', 'reference'],
        sort: ['id', 'desc'],
        filter: { status_id: [null] },
        perPage: 50,
        widths: {},
      },
      page: 1,
    });
  });

  it('a preset without a filter clears the filter; what it does not hold stays', () => {
    const bare: TablePreset = { id: 4, label: 'Bare', type: 'tickets' };
    expect(presetSettings(bare, layout, shape)).toEqual({ ...layout, filter: {} });
  });

  it('reads presets written as builder lists (the demo data)', () => {
    const seeded: TablePreset = {
      ...preset,
      filter_config: JSON.stringify([
        { where: ['operator_id', '=', 'me'] },
        { whereIn: ['status_id', [1, 2]] },
      ]),
      order_config: JSON.stringify(['updated_at', 'desc']),
    };
    expect(presetSettings(seeded, layout, shape).filter).toEqual({ operator_id: 'me', status_id: [1, 2] });
    expect(presetSettings(seeded, layout, shape).sort).toEqual(['updated_at', 'desc']);
  });

  it('stores the four configs as JSON strings that read back to the same settings', () => {
    const fields = presetFields(layout);
    expect(fields).toEqual({
      columns_config: '["description","reference"]',
      order_config: '["reference","asc"]',
      filter_config: '{"status_id":[1,2],"description":"toner"}',
      pagination_config: '{"perPage":25}',
    });
    expect(
      presetSettings({ id: 9, label: 'x', type: 'tickets', ...fields }, defaultSettings(shape), shape),
    ).toEqual(layout);
  });

  it('parseSettings rejects what is not a stored layout', () => {
    expect(parseSettings(null, shape)).toBeUndefined();
    expect(parseSettings('[1,2]', shape)).toBeUndefined();
    expect(parseSettings(42, shape)).toBeUndefined();
  });
});
