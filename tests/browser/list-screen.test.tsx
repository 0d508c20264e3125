// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';

// The default second is too short on a loaded two-core machine (CI runs the API tests alongside).
configure({ asyncUtilTimeout: 5000 });
import { AdminContext, memoryStore, Notification, TestMemoryRouter, type AuthProvider } from 'react-admin';
import { ListScreen } from '../../src/custom/list/ListScreen.tsx';
import { AppKindContext, type AppKind } from '../../src/custom/appKind.ts';
import { createI18nProvider } from '../../src/i18n/index.ts';
import { messages } from '../../src/i18n/catalogue.ts';
import { registry } from '../../src/schema.ts';

// The generic list, without the tickets' own views (x-views: each user's default view, tested in
// list-views.test.ts and the browser's default-view spec), so a user without a layout sees all rows.
const tickets = { ...registry.require('tickets'), views: [] };

const rows = Array.from({ length: 15 }, (_, i) => ({
  id: i + 1,
  reference: `T-${String(i + 1).padStart(4, '0')}`,
  description: `Printer ${i + 1} is out of toner`,
  priority_id: null,
  status_id: 1,
  company_id: null,
  client_id: null,
  updated_at: '2025-03-05T10:00:00Z',
}));

function fakeDataProvider(overrides: Record<string, any> = {}) {
  return {
    getList: vi.fn(async (resource: string) =>
      resource === 'tickets' ? { data: rows, total: 64 } : { data: [], total: 0 },
    ),
    getMany: vi.fn(async () => ({ data: [] })),
    getOne: vi.fn(),
    getManyReference: vi.fn(),
    create: vi.fn(),
    update: vi.fn(),
    updateMany: vi.fn(),
    delete: vi.fn(),
    deleteMany: vi.fn(),
    presetCounts: vi.fn(async () => []),
    saveConfigs: vi.fn(async (_configs: { name: string; value: any }[]) => ({})),
    updateOrder: vi.fn(),
    exportList: vi.fn(async () => 'The export will be e-mailed to you.'),
    ...overrides,
  };
}

function authProvider(permissions: string[] = []): AuthProvider {
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getIdentity: async () => ({ id: 7, fullName: 'Jan Jansen' }),
    getPermissions: async () => permissions,
  };
}

function renderList(
  dataProvider: Record<string, any>,
  options: { permissions?: string[]; kind?: AppKind; onLocation?: (path: string) => void } = {},
) {
  return render(
    <TestMemoryRouter
      initialEntries={['/tickets']}
      locationCallback={(l) => options.onLocation?.(l.pathname)}
    >
      <AdminContext
        dataProvider={dataProvider as any}
        authProvider={authProvider(options.permissions)}
        i18nProvider={createI18nProvider({ messages })}
        store={memoryStore()}
      >
        <AppKindContext.Provider value={options.kind ?? 'backoffice'}>
          <ListScreen resource={tickets} />
        </AppKindContext.Provider>
        <Notification />
      </AdminContext>
    </TestMemoryRouter>,
  );
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('locale', 'en');
});
afterEach(() => cleanup());

describe('ListScreen', () => {
  it('shows the rows under a level-one heading, with the counter and proper column headers', async () => {
    const dataProvider = fakeDataProvider();
    renderList(dataProvider);
    // The file's first render loads the list's lazy parts: on a loaded machine that took over a second.
    expect(await screen.findByText('T-0001', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Tickets']);
    expect(screen.getByText('1-15 of 64')).toBeTruthy();
    const headers = screen.getAllByRole('columnheader');
    expect(headers.length).toBeGreaterThan(0);
    for (const th of headers) {
      expect(th.tagName).toBe('TH');
      expect(th.getAttribute('scope')).toBe('col');
    }
    // The schema's default order (tickets: updated_at desc) and page size 15 (SPEC 9).
    expect(dataProvider.getList).toHaveBeenCalledWith(
      'tickets',
      expect.objectContaining({
        pagination: { page: 1, perPage: 15 },
        sort: { field: 'updated_at', order: 'DESC' },
        filter: {},
      }),
    );
    const sorted = headers.find((th) => th.getAttribute('aria-sort') === 'descending');
    expect(sorted?.textContent).toContain('Updated at');
    // Pagination: first, last and 2 around the current one.
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(nav).getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('button', { name: 'Page 5' })).toBeTruthy();
  });

  it('shows 10 skeleton rows while loading', async () => {
    const dataProvider = fakeDataProvider({ getList: vi.fn(() => new Promise(() => undefined)) });
    renderList(dataProvider);
    await waitFor(() => expect(screen.getAllByTestId('skeleton-row')).toHaveLength(10));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Tickets');
  });

  it("says 'No tickets found.' when the list is empty", async () => {
    const dataProvider = fakeDataProvider({ getList: vi.fn(async () => ({ data: [], total: 0 })) });
    renderList(dataProvider);
    expect(await screen.findByText('No tickets found.')).toBeTruthy();
    expect(screen.getByText('0-0 of 0')).toBeTruthy();
  });

  it('opens the record when a row is clicked or Enter is pressed on it', async () => {
    let path = '';
    renderList(fakeDataProvider(), { onLocation: (p) => (path = p) });
    const cell = await screen.findByText('T-0003');
    fireEvent.click(cell);
    await waitFor(() => expect(path).toBe('/tickets/3'));

    const row = screen.getByText('T-0005').closest('tr')!;
    expect(row.tabIndex).toBe(0);
    fireEvent.keyDown(row, { key: 'Enter' });
    await waitFor(() => expect(path).toBe('/tickets/5'));
  });

  it('sorts with the header toggle and goes back to page 1', async () => {
    const dataProvider = fakeDataProvider();
    renderList(dataProvider);
    await screen.findByText('T-0001');
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'tickets',
        expect.objectContaining({ pagination: { page: 2, perPage: 15 } }),
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reference' }));
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'tickets',
        expect.objectContaining({
          pagination: { page: 1, perPage: 15 },
          sort: { field: 'reference', order: 'ASC' },
        }),
      ),
    );
    expect(JSON.parse(localStorage.getItem('list:7:tickets.index')!).sort).toEqual(['reference', 'asc']);
  });

  it('filters on text after 250 ms and keeps the filter per user and route', async () => {
    const dataProvider = fakeDataProvider();
    renderList(dataProvider);
    await screen.findByText('T-0001');
    fireEvent.change(screen.getByRole('textbox', { name: 'Filter on Description' }), {
      target: { value: 'toner' },
    });
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'tickets',
        expect.objectContaining({ filter: { 'description@like': 'toner' } }),
      ),
    );
    expect(JSON.parse(localStorage.getItem('list:7:tickets.index')!).filter).toEqual({
      description: 'toner',
    });
  });

  it("searches a large reference after 2 typed characters and keeps '(none)' exclusive", async () => {
    // Companies grow without bound (x-selector: search): SPEC 5's search.
    const dataProvider = fakeDataProvider({
      getList: vi.fn(async (resource: string) =>
        resource === 'companies'
          ? { data: [{ id: 5, name: 'Acme BV' }], total: 120 }
          : { data: rows, total: 64 },
      ),
      getMany: vi.fn(async (resource: string) =>
        resource === 'companies' ? { data: [{ id: 5, name: 'Acme BV' }] } : { data: [] },
      ),
    });
    renderList(dataProvider);
    await screen.findByText('T-0001');
    const combo = screen.getByRole('combobox', { name: 'Filter on Company' });
    act(() => combo.focus());
    fireEvent.mouseDown(combo);
    fireEvent.change(combo, { target: { value: 'a' } });
    expect(await screen.findByText('Type 1 more character')).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Acme BV' })).toBeNull();
    expect(dataProvider.getList).not.toHaveBeenCalledWith(
      'companies',
      expect.objectContaining({ filter: { q: 'a' } }),
    );
    fireEvent.change(combo, { target: { value: 'ac' } });
    const option = await screen.findByRole('option', { name: 'Acme BV' });
    expect(dataProvider.getList).toHaveBeenCalledWith(
      'companies',
      expect.objectContaining({ filter: { q: 'ac' } }),
    );
    fireEvent.click(option);
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'tickets',
        expect.objectContaining({ filter: { company_id: [5] } }),
      ),
    );
    fireEvent.click(screen.getByRole('option', { name: '(none)' }));
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'tickets',
        expect.objectContaining({ filter: { company_id: [null] } }),
      ),
    );
  });

  it('shows a small reference list (priorities) at once, without typing, and narrows it as one types', async () => {
    const dataProvider = fakeDataProvider({
      getList: vi.fn(async (resource: string) =>
        resource === 'priorities'
          ? {
              data: [
                { id: 5, label: 'Laag' },
                { id: 6, label: 'Hoog' },
              ],
              total: 2,
            }
          : { data: rows, total: 64 },
      ),
    });
    renderList(dataProvider);
    await screen.findByText('T-0001');
    const combo = screen.getByRole('combobox', { name: 'Filter on Priority' });
    act(() => combo.focus());
    fireEvent.mouseDown(combo);
    expect(await screen.findByRole('option', { name: 'Laag' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Hoog' })).toBeTruthy();
    expect(screen.queryByText(/more character/)).toBeNull();
    fireEvent.change(combo, { target: { value: 'hoo' } });
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Laag' })).toBeNull());
    expect(screen.getByRole('option', { name: 'Hoog' })).toBeTruthy();
    // One read of the list's size, no search calls.
    expect(dataProvider.getList).not.toHaveBeenCalledWith(
      'priorities',
      expect.objectContaining({ filter: { q: 'hoo' } }),
    );
  });

  it('starts from the layout stored for this user and route', async () => {
    localStorage.setItem(
      'list:7:tickets.index',
      JSON.stringify({
        columns: ['description', 'reference'],
        sort: ['reference', 'asc'],
        filter: {},
        perPage: 25,
      }),
    );
    const dataProvider = fakeDataProvider();
    renderList(dataProvider);
    await screen.findByText('T-0001');
    expect(dataProvider.getList).toHaveBeenCalledWith(
      'tickets',
      expect.objectContaining({
        pagination: { page: 1, perPage: 25 },
        sort: { field: 'reference', order: 'ASC' },
      }),
    );
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent?.trim())).toEqual([
      'Description',
      'Reference',
    ]);
  });

  it('shows the preset and export buttons only with their permissions', async () => {
    renderList(fakeDataProvider());
    await screen.findByText('T-0001');
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Table views' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Columns and page size' })).toBeTruthy();
    cleanup();

    const dataProvider = fakeDataProvider();
    renderList(dataProvider, { permissions: ['tenant.exports.index', 'tenant.table-presets.store'] });
    await screen.findByText('T-0001');
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    // The export carries what the table shows: filter, order, visible columns with their headers, language.
    await waitFor(() =>
      expect(dataProvider.exportList).toHaveBeenCalledWith(
        'tickets',
        expect.objectContaining({
          userId: 7,
          filter: {},
          sort: { field: 'updated_at', order: 'desc' },
          locale: 'en',
        }),
      ),
    );
    const [, sent] = dataProvider.exportList.mock.calls[0] as unknown as [
      string,
      { columns: { name: string; label: string }[] },
    ];
    expect(sent.columns.length).toBeGreaterThan(0);
    expect(sent.columns).toContainEqual({ name: 'reference', label: 'Reference' });
    expect(screen.getByRole('button', { name: 'Table views' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save as table view' })).toBeTruthy();
  });

  it('applies a preset from the menu: its columns, order, filter and page size, back on page 1', async () => {
    const preset = {
      id: 11,
      label: 'Urgent',
      type: 'tickets',
      columns_config: JSON.stringify(['reference', 'status_id']),
      order_config: JSON.stringify(['id', 'desc']),
      filter_config: JSON.stringify({ description: 'toner' }),
      pagination_config: JSON.stringify({ perPage: 50 }),
      order: 1,
      is_default: false,
    };
    const dataProvider = fakeDataProvider({
      getList: vi.fn(async (resource: string) =>
        resource === 'table-presets' ? { data: [preset], total: 1 } : { data: rows, total: 64 },
      ),
      presetCounts: vi.fn(async () => [{ id: 11, count: 3 }]),
    });
    renderList(dataProvider, { permissions: ['tenant.table-presets.store'] });
    await screen.findByText('T-0001');
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    fireEvent.click(screen.getByRole('button', { name: 'Table views' }));
    const item = await screen.findByRole('menuitem', { name: /Urgent/ });
    await waitFor(() => expect(within(item).getByText('3 results')).toBeTruthy());
    expect(dataProvider.presetCounts).toHaveBeenCalledWith(
      'tickets',
      [{ id: 11, filter: { 'description@like': 'toner' } }],
      expect.anything(),
    );
    fireEvent.click(item);
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'tickets',
        expect.objectContaining({
          pagination: { page: 1, perPage: 50 },
          sort: { field: 'id', order: 'DESC' },
          filter: { 'description@like': 'toner' },
        }),
      ),
    );
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent?.trim().split('\n')[0])).toEqual([
      'Reference',
      'Status',
    ]);
  });

  it('saves the column layout and says so', async () => {
    const dataProvider = fakeDataProvider();
    renderList(dataProvider);
    await screen.findByText('T-0001');
    fireEvent.click(screen.getByRole('button', { name: 'Columns and page size' }));
    const dialog = await screen.findByRole('dialog', { name: 'Columns and page size' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Hide Description' }));
    fireEvent.change(within(dialog).getByLabelText('Rows per page'), { target: { value: '25' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    });
    await waitFor(() =>
      expect(dataProvider.saveConfigs).toHaveBeenCalledWith([
        {
          name: 'list:tickets.index',
          value: expect.objectContaining({ perPage: 25, sort: ['updated_at', 'desc'], filter: {} }),
        },
      ]),
    );
    const saved = dataProvider.saveConfigs.mock.calls[0]![0][0]!.value;
    expect(saved.columns).not.toContain('description');
    expect(JSON.parse(localStorage.getItem('list:7:tickets.index')!)).toEqual(saved);
    expect(await screen.findByText('Changes saved.')).toBeTruthy();
  });

  it('shows cards below 768 px', async () => {
    const matchMedia = vi.fn((query: string) => ({
      matches: query.includes('max-width:767.95px'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }));
    vi.stubGlobal('matchMedia', matchMedia);
    try {
      let path = '';
      renderList(fakeDataProvider(), { onLocation: (p) => (path = p) });
      const title = await screen.findByRole('button', { name: 'T-0002' });
      expect(screen.queryByRole('table')).toBeNull();
      expect(screen.getByText('Filter: All')).toBeTruthy();
      fireEvent.click(title);
      await waitFor(() => expect(path).toBe('/tickets/2'));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a client sees only the portal fields', async () => {
    renderList(fakeDataProvider(), { kind: 'portal' });
    await screen.findByText('T-0001');
    fireEvent.click(screen.getByRole('button', { name: 'Columns and page size' }));
    const dialog = await screen.findByRole('dialog');
    const names = within(dialog)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(names.join(' ')).not.toMatch(/Operator|Category|SLA/);
    expect(names.join(' ')).toMatch(/Deadline/);
  });
});
