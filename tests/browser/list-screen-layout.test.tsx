// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { eachTestInEnglish, fakeDataProvider, renderList, rows } from './list-screen-world.tsx';

/**
 * The generic list screen's (ListScreen) layout: the one stored for the user and route, the table views
 * (presets) and export behind their permissions, applying a table view, and saving the columns and page
 * size. The rows: list-screen-rows.test.tsx.
 */

eachTestInEnglish();

describe('ListScreen', () => {
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
});
