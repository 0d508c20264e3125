// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { eachTestInEnglish, fakeDataProvider, renderList, rows } from './list-screen-world.tsx';

/**
 * The generic list screen's (ListScreen) header filters: a text filter after 250 ms, kept per user and
 * route, and the reference filters, searched after two characters when their list is large and shown
 * at once when it is small. The rows: list-screen-rows.test.tsx.
 */

eachTestInEnglish();

describe('ListScreen', () => {
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
});
