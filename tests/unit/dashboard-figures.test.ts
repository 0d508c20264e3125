/**
 * Issue 18: what a dashboard figure opens (src/custom/dashboard/figures.ts) and how the ticket list reads
 * a filter from its address (src/custom/list/linkedFilter.ts).
 */
import { describe, expect, it } from 'vitest';
import { figureFilter, todayBounds } from '../../src/custom/dashboard/figures.ts';
import { linkedFilter, listLink } from '../../src/custom/list/linkedFilter.ts';

const statuses = { open: [1, 4, 5], waiting: [4], got_reply: [5] };

describe('a dashboard figure', () => {
  it("opens the list filtered on whose tickets and which: a line's operators, nobody, a status kind, a day", () => {
    expect(figureFilter({ statuses }, { operator_ids: [7, 9] }, 'overdue')).toEqual({
      operator_id: [7, 9],
      status_id: [1, 4, 5],
      deadline: { preset: 'past' },
    });
    expect(figureFilter({ statuses }, { operator_ids: null }, 'got_reply')).toEqual({
      operator_id: [null],
      status_id: [5],
    });
    expect(figureFilter({ statuses }, { operator_ids: [7] }, 'new_today')).toEqual({
      operator_id: [7],
      created_at: { preset: 'today' },
    });
  });

  it("opens the SLA figures as the list's SLA views: breached, and the next due within the hour", () => {
    expect(figureFilter({ statuses }, { operator_ids: [7] }, 'sla_breached')).toEqual({
      operator_id: [7],
      status_id: [1, 4, 5],
      sla_state: ['breached'],
    });
    expect(figureFilter({ statuses }, { operator_ids: null }, 'sla_within_hour')).toEqual({
      operator_id: [null],
      status_id: [1, 4, 5],
      sla_due: { preset: 'lte', value: 1, unit: 'hours' },
    });
  });

  it('has no link where no filter can say it: a line without operators, a status kind the tenant lacks', () => {
    expect(figureFilter({ statuses }, { operator_ids: [] }, 'open')).toBeUndefined();
    expect(
      figureFilter({ statuses: { ...statuses, waiting: [] } }, { operator_ids: [7] }, 'waiting'),
    ).toBeUndefined();
  });

  it("asks for the browser's day as the list's 'today' means it", () => {
    const { from, to } = todayBounds(new Date(2026, 10, 24, 15, 30));
    expect(new Date(from).getTime()).toBe(new Date(2026, 10, 24).getTime());
    expect(new Date(to).getTime()).toBe(new Date(2026, 10, 24, 23, 59, 59, 999).getTime());
  });
});

describe('a list address with a filter', () => {
  it('carries the filter state there and back', () => {
    const filter = { operator_id: [null], status_id: [1, 2], deadline: { preset: 'past' } };
    const link = listLink('/tickets', filter);
    expect(link.startsWith('/tickets?filter=')).toBe(true);
    expect(linkedFilter(link.slice(link.indexOf('?')))).toEqual(filter);
  });

  it('is ignored when it is not a filter object', () => {
    expect(linkedFilter('')).toBeUndefined();
    expect(linkedFilter('?filter=%7Bnot-json')).toBeUndefined();
    expect(linkedFilter('?filter=%5B1%2C2%5D')).toBeUndefined();
    expect(linkedFilter('?filter=null')).toBeUndefined();
  });
});
