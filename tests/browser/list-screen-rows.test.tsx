// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { eachTestInEnglish, fakeDataProvider, renderList } from './list-screen-world.tsx';

/**
 * The generic list screen (ListScreen) and its rows: the table under its heading with the counter, the
 * order and pagination, the loading and empty states, opening a record from a row, sorting by a header,
 * the cards on a small screen and a client's portal fields. Filters: list-screen-filters.test.tsx; the
 * layout and table views: list-screen-layout.test.tsx.
 */

eachTestInEnglish();

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
