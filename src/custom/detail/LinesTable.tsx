/**
 * The related-lines table of the portal's detail screens (a quote's or subscription's lines, a contract
 * period's time registrations, an asset's particulars): DetailTable with each cell the field's value by
 * the one formatter and each heading the field's label, unless a column says otherwise.
 */
import type { ReactNode } from 'react';
import { useTranslate, type RaRecord } from 'react-admin';
import { DetailTable, type DetailTotal } from './DetailTable.tsx';
import { FieldValue } from './FieldCards.tsx';

export interface LineColumn {
  /** The field of the lines' resource. */
  name: string;
  /** The heading; by default the field's label (resources.<name>.fields.<field>). */
  label?: string;
  align?: 'left' | 'right';
  /** The cell instead of the field's formatted value. */
  cell?: (row: RaRecord) => ReactNode;
}

export function LinesTable({
  resource,
  rows,
  columns,
  totals,
  labelledBy,
  label,
}: {
  resource: string;
  rows: RaRecord[];
  columns: LineColumn[];
  totals?: DetailTotal[];
  /** The id of the heading that names the table; or `label`, its caption. */
  labelledBy?: string;
  label?: string;
}) {
  const translate = useTranslate();
  // Below 768 px each line reflows into a block (DetailTable), so amounts and totals are never cut off.
  return (
    <DetailTable
      labelledBy={labelledBy}
      label={label}
      rows={rows}
      totals={totals}
      columns={columns.map((c) => ({
        key: c.name,
        label: c.label ?? translate(`resources.${resource}.fields.${c.name}`, { _: c.name }),
        align: c.align,
        cell: c.cell ?? ((row: RaRecord) => <FieldValue resource={resource} name={c.name} record={row} />),
      }))}
    />
  );
}
