/**
 * The visual conditions editor writes exactly the builder list it was given (common/automation/
 * condition-rows.ts): every list it accepts comes back item for item, each row it makes is a list the
 * server's rule check takes, and lists it cannot show (whereHas, custom fields, `me`) are refused so
 * the raw editor keeps them.
 */
import { describe, expect, it } from 'vitest';
import {
  itemsOf,
  rowComplete,
  rowsOf,
  withOp,
  type ConditionKind,
} from '../../common/automation/condition-rows.ts';

const KINDS: Record<string, ConditionKind> = {
  description: 'text',
  status_id: 'select',
  priority_id: 'select',
  is_urgent: 'boolean',
  deadline: 'datetime',
  time_spent: 'number',
  due_on: 'date',
};
const kindOf = (name: string) => KINDS[name];

describe('condition rows', () => {
  it.each([
    [[{ where: ['description', 'like', 'server'] }]],
    [[{ where: ['status_id', 3] }]],
    [[{ where: ['status_id', '!=', 3] }, { whereIn: ['priority_id', [1, 2]] }]],
    [[{ whereNull: 'deadline' }, { whereNotNull: 'due_on' }]],
    [[{ whereBetween: ['time_spent', [10, 60]] }, { where: ['is_urgent', '=', true] }]],
    [[{ where: ['deadline', '<', '2026-12-04T10:00:00.000Z'] }, { where: ['due_on', '>=', '2026-12-01'] }]],
    [[]],
  ])('gives back exactly the list it read: %j', (items) => {
    const rows = rowsOf(items, kindOf);
    expect(rows).toBeDefined();
    expect(itemsOf(rows!)).toEqual(items);
    expect(rows!.every(rowComplete)).toBe(true);
  });

  it.each([
    [[{ whereHas: ['tags', [{ where: ['name', 'x'] }]] }]],
    [[{ customField: ['serial', 'like', 'x'] }]],
    [[{ where: ['operator_id', 'me'] }]],
    [[{ where: ['status_id', 'me'] }]],
    [[{ where: ['status_id', 'like', 'x'] }]],
    [[{ where: ['unknown_field', 1] }]],
    [[{ where: ['description', 'like', 'x'], s: 'y' }]],
    [[{ s: 'server' }]],
    ['not a list'],
  ])('leaves a list it cannot show to the raw editor: %j', (items) => {
    expect(rowsOf(items, kindOf)).toBeUndefined();
  });

  it('keeps a value that still fits when the operator changes, and knows a row without one', () => {
    const row = { field: 'status_id', op: '=' as const, value: 3 };
    expect(withOp(row, 'in')).toEqual({ field: 'status_id', op: 'in', value: [3] });
    expect(withOp({ field: 'status_id', op: 'in', value: [3, 4] }, '!=')).toEqual({
      field: 'status_id',
      op: '!=',
      value: 3,
    });
    expect(withOp(row, 'null')).toEqual({ field: 'status_id', op: 'null' });
    expect(rowComplete({ field: 'status_id', op: '=', value: '' })).toBe(false);
    expect(rowComplete({ field: '', op: 'null' })).toBe(false);
    expect(rowComplete({ field: 'time_spent', op: 'between', value: [1, ''] })).toBe(false);
  });
});
