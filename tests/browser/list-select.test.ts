/**
 * The fields a list screen asks for (src/custom/list/shape.ts `selectFor`, issue 40): its columns, the
 * row's own name, what a date badge reads, and a reference column's label and style as the cell shows
 * them, in this app's reading (a client reads a status's client name and style); never a field the
 * app's user may not read, nor a relation the list does not load. The bench's copy of the default
 * list's call (bench/app-requests.ts, which cannot import this code under tsx) asks the same.
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../src/schema.ts';
import { listModel, selectFor } from '../../src/custom/list/shape.ts';
import { LIST_SELECT, LIST_WITH } from '../../bench/app-requests.ts';

const tickets = registry.require('tickets');

describe('the fields a list asks for', () => {
  it("names the back office's columns, the row's label and each reference's label and style", () => {
    const model = listModel(tickets, 'backoffice');
    const select = model.selectFor(['description', 'status_id', 'operator_id']);
    expect(select).toEqual([
      tickets.label,
      'description',
      'status_id',
      'status.name',
      'status.style',
      'operator_id',
      'operator.full_name',
    ]);
  });

  it("names a client's reading of a status, and nothing a client may not read", () => {
    const model = listModel(tickets, 'portal');
    const select = model.selectFor(['status_id', 'operator_id', 'description']);
    expect(select).toContain('status.name_client');
    expect(select).toContain('status.style_client');
    expect(select).not.toContain('status.name');
    expect(select.some((n) => n.startsWith('operator'))).toBe(false);
  });

  it('names no field of a relation the list does not load', () => {
    expect(selectFor(tickets, 'backoffice', ['status_id'], [])).toEqual([tickets.label, 'status_id']);
  });

  it.each(['backoffice', 'portal'] as const)(
    "is what the bench asks for %s's default list: its relations and fields",
    (app) => {
      const model = listModel(tickets, app);
      expect(LIST_WITH[app]).toEqual(model.relationsFor(model.defaultColumns));
      expect(LIST_SELECT[app]).toEqual(model.selectFor(model.defaultColumns));
    },
  );
});
