// @vitest-environment jsdom
// The list screen's sort, filter, page and page size are react-admin's list controller's: a child reading
// useListContext sees what the header set, a change made through the context reaches the table, the data
// call and the kept layout, and react-admin's store and the URL hold none of it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import {
  AdminContext,
  memoryStore,
  TestMemoryRouter,
  useListContext,
  type AuthProvider,
  type Store,
} from 'react-admin';
import { ListScreen } from '../../src/custom/list/ListScreen.tsx';
import { AppKindContext } from '../../src/custom/appKind.ts';
import { createI18nProvider } from '../../src/i18n/index.ts';
import { messages } from '../../src/i18n/catalogue.ts';
import { registry } from '../../src/schema.ts';

// A wait ends as soon as its condition holds; this is only its limit. With the other test files running
// on two cores, a file's first render (MUI, react-admin, the schemas) has taken 7 to 10 s.
configure({ asyncUtilTimeout: 15_000 });

const tickets = registry.require('tickets');

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

const urgent = {
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

function fakeDataProvider(presets: (typeof urgent)[] = []) {
  return {
    getList: vi.fn(async (resource: string) =>
      resource === 'tickets'
        ? { data: rows, total: 64 }
        : resource === 'table-presets'
          ? { data: presets, total: presets.length }
          : { data: [], total: 0 },
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
    saveConfigs: vi.fn(async () => ({})),
    updateOrder: vi.fn(),
    exportList: vi.fn(),
  };
}

const authProvider = (permissions: string[]): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getIdentity: async () => ({ id: 7, fullName: 'Jan Jansen' }),
  getPermissions: async () => permissions,
});

/** A child of the list: what react-admin's list context says, and a button that changes it. */
function Probe() {
  const { sort, filterValues, page, perPage, total, setSort, setPage } = useListContext();
  return (
    <div>
      <output data-testid="probe">{JSON.stringify({ sort, filterValues, page, perPage, total })}</output>
      <button type="button" onClick={() => setSort({ field: 'reference', order: 'DESC' })}>
        context sort
      </button>
      <button type="button" onClick={() => setPage(4)}>
        context page
      </button>
    </div>
  );
}

const probe = () => JSON.parse(screen.getByTestId('probe').textContent!);

/**
 * The tickets without their own views (x-views: a user without a layout starts on 'My open tickets',
 * tested in list-views.test.ts, below and in the default-view spec): the list as the header sets it.
 */
const ticketsWithoutViews = { ...tickets, views: [] };

function renderList(
  dataProvider: ReturnType<typeof fakeDataProvider>,
  store: Store,
  permissions: string[] = [],
  resource = tickets,
) {
  let search = '';
  render(
    <TestMemoryRouter initialEntries={['/tickets']} locationCallback={(l) => (search = l.search)}>
      <AdminContext
        dataProvider={dataProvider as any}
        authProvider={authProvider(permissions)}
        i18nProvider={createI18nProvider({ messages })}
        store={store}
      >
        <AppKindContext.Provider value="backoffice">
          <ListScreen resource={resource}>
            <Probe />
          </ListScreen>
        </AppKindContext.Provider>
      </AdminContext>
    </TestMemoryRouter>,
  );
  return { search: () => search };
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('locale', 'en');
});
afterEach(() => cleanup());

describe('ListScreen and the list controller', () => {
  it('a child reading useListContext sees the sort, filter and page the header set', async () => {
    const dataProvider = fakeDataProvider();
    const store = memoryStore();
    const location = renderList(dataProvider, store, [], ticketsWithoutViews);
    await screen.findByText('T-0001');
    expect(probe()).toEqual({
      sort: { field: 'updated_at', order: 'DESC' },
      filterValues: {},
      page: 1,
      perPage: 15,
      total: 64,
    });

    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(probe().page).toBe(3));

    fireEvent.click(screen.getByRole('button', { name: 'Reference' }));
    await waitFor(() => expect(probe().sort).toEqual({ field: 'reference', order: 'ASC' }));
    expect(probe().page).toBe(1);

    fireEvent.change(screen.getByRole('textbox', { name: 'Filter on Description' }), {
      target: { value: 'toner' },
    });
    await waitFor(() => expect(probe().filterValues).toEqual({ description: 'toner' }));
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'tickets',
        expect.objectContaining({
          pagination: { page: 1, perPage: 15 },
          sort: { field: 'reference', order: 'ASC' },
          filter: { 'description@like': 'toner' },
        }),
      ),
    );

    // Kept under the list's own key only: react-admin's store and the URL hold no list state.
    expect(JSON.parse(localStorage.getItem('list:7:tickets.index')!)).toMatchObject({
      sort: ['reference', 'asc'],
      filter: { description: 'toner' },
      perPage: 15,
    });
    expect(Object.keys(localStorage).sort()).toEqual(['list:7:tickets.index', 'locale']);
    expect(store.getItem('tickets.listParams')).toBeUndefined();
    expect(location.search()).toBe('');
  });

  it('a change made through the list context shows in the header, is fetched and is kept', async () => {
    const dataProvider = fakeDataProvider();
    renderList(dataProvider, memoryStore(), [], ticketsWithoutViews);
    await screen.findByText('T-0001');

    fireEvent.click(screen.getByRole('button', { name: 'context page' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Page 4' }).getAttribute('aria-current')).toBe('page'),
    );
    expect(dataProvider.getList).toHaveBeenLastCalledWith(
      'tickets',
      expect.objectContaining({ pagination: { page: 4, perPage: 15 } }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'context sort' }));
    await waitFor(() => {
      const sorted = screen
        .getAllByRole('columnheader')
        .find((th) => th.getAttribute('aria-sort') === 'descending');
      expect(sorted?.textContent).toContain('Reference');
    });
    expect(dataProvider.getList).toHaveBeenLastCalledWith(
      'tickets',
      expect.objectContaining({
        pagination: { page: 1, perPage: 15 },
        sort: { field: 'reference', order: 'DESC' },
      }),
    );
    expect(JSON.parse(localStorage.getItem('list:7:tickets.index')!).sort).toEqual(['reference', 'desc']);
  });
});

type GetListParams = { pagination: { perPage: number }; filter: object; meta?: { with?: string[] } };
const ticketCalls = (dataProvider: ReturnType<typeof fakeDataProvider>) =>
  dataProvider.getList.mock.calls
    .filter(([resource]) => resource === 'tickets')
    .map((call) => (call as unknown as [string, GetListParams])[1]);

describe('ListScreen and the list controller, with table views', () => {
  it("fetches a preset's rows once: its columns never show with the old filter", async () => {
    const dataProvider = fakeDataProvider([urgent]);
    renderList(dataProvider, memoryStore(), ['tenant.table-presets.store'], ticketsWithoutViews);
    await screen.findByText('T-0001');
    const before = ticketCalls(dataProvider).length;
    fireEvent.click(screen.getByRole('button', { name: 'Table views' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Urgent/ }));
    await waitFor(() => expect(probe().filterValues).toEqual({ description: 'toner' }));
    await waitFor(() =>
      expect(screen.getAllByRole('columnheader').map((th) => th.textContent?.trim().split('\n')[0])).toEqual([
        'Reference',
        'Status',
      ]),
    );
    const after = ticketCalls(dataProvider).slice(before);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      pagination: { page: 1, perPage: 50 },
      sort: { field: 'id', order: 'DESC' },
      filter: { 'description@like': 'toner' },
    });
  });

  it("shows the user's default view without keeping it as their layout", async () => {
    const dataProvider = fakeDataProvider([{ ...urgent, is_default: true }]);
    renderList(dataProvider, memoryStore(), ['tenant.table-presets.store']);
    await waitFor(() =>
      expect(probe()).toMatchObject({ filterValues: { description: 'toner' }, perPage: 50 }),
    );
    await screen.findByText('T-0001');
    expect(localStorage.getItem('list:7:tickets.index')).toBeNull();
    expect(dataProvider.saveConfigs).not.toHaveBeenCalled();
    // The rows waited for the default view: the one page fetched is its own, never the whole list first.
    expect(ticketCalls(dataProvider)).toEqual([
      expect.objectContaining({
        pagination: { page: 1, perPage: 50 },
        filter: { 'description@like': 'toner' },
      }),
    ]);

    // The user's own change after it is kept, with the view's columns and filter.
    fireEvent.click(screen.getByRole('button', { name: 'Reference' }));
    await waitFor(() => expect(probe().sort).toEqual({ field: 'reference', order: 'ASC' }));
    expect(JSON.parse(localStorage.getItem('list:7:tickets.index')!)).toEqual({
      columns: ['reference', 'status_id'],
      sort: ['reference', 'asc'],
      filter: { description: 'toner' },
      perPage: 50,
    });
  });
});
