import { describe, expect, it } from 'vitest';
import {
  hiddenColumns,
  hideColumn,
  moveColumn,
  moveItem,
  sanitizeColumns,
  showColumn,
} from '../../src/custom/list/columns.ts';

const columns = ['reference', 'description', 'status_id', 'updated_at'];

describe('column modal: reorder by dragging', () => {
  it('moves the dragged column to where it is dropped', () => {
    expect(moveColumn(columns, 'updated_at', 'reference')).toEqual([
      'updated_at',
      'reference',
      'description',
      'status_id',
    ]);
    expect(moveColumn(columns, 'reference', 'status_id')).toEqual([
      'description',
      'status_id',
      'reference',
      'updated_at',
    ]);
    expect(moveColumn(columns, 'description', 'status_id')).toEqual([
      'reference',
      'status_id',
      'description',
      'updated_at',
    ]);
  });

  it('changes nothing for a drop outside the list or on itself', () => {
    expect(moveColumn(columns, 'reference', null)).toEqual(columns);
    expect(moveColumn(columns, 'reference', 'reference')).toEqual(columns);
    expect(moveColumn(columns, 'unknown', 'reference')).toEqual(columns);
  });

  it('does not change the list it is given', () => {
    const original = [...columns];
    moveItem(columns, 0, 3);
    expect(columns).toEqual(original);
  });
});

describe('column modal: visible and hidden columns', () => {
  const available = ['id', 'reference', 'description', 'stage', 'status_id', 'updated_at'];

  it('lists the hidden columns in schema order', () => {
    expect(hiddenColumns(available, columns)).toEqual(['id', 'stage']);
  });

  it('shows a hidden column at the end and hides a visible one', () => {
    expect(showColumn(columns, 'stage')).toEqual([...columns, 'stage']);
    expect(showColumn(columns, 'reference')).toEqual(columns);
    expect(hideColumn(columns, 'description')).toEqual(['reference', 'status_id', 'updated_at']);
  });

  it('keeps the last visible column', () => {
    expect(hideColumn(['reference'], 'reference')).toEqual(['reference']);
  });

  it('drops stored columns that no longer exist, and falls back to the defaults', () => {
    expect(sanitizeColumns(['stage', 'gone', 'stage', 3, 'id'], available, columns)).toEqual(['stage', 'id']);
    expect(sanitizeColumns(['gone'], available, columns)).toEqual(columns);
    expect(sanitizeColumns(undefined, available, columns)).toEqual(columns);
  });
});
