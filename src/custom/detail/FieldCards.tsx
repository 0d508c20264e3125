/**
 * The field block of the portal's detail screens: a record's fields as a row of labelled cards, each
 * value shown by the one formatter (resources/fields), so a date, an amount or a badge reads the same on
 * every detail.
 */
import type { ReactNode } from 'react';
import { Grid } from '@mui/material';
import { useTranslate, type RaRecord } from 'react-admin';
import { registry } from '../../schema.ts';
import { FieldDisplay } from '../../resources/fields/display.tsx';
import { InfoCard, type Sizes } from './parts.tsx';

/** A readable field of a resource, in full; nothing when the schema has no such field. */
export function FieldValue({ resource, name, record }: { resource: string; name: string; record: RaRecord }) {
  const schema = registry.require(resource);
  const field = schema.fields[name];
  return field ? <FieldDisplay resource={schema} field={field} record={record} full /> : null;
}

export interface FieldCard {
  field: string;
  /** The card's label; by default the field's own (resources.<name>.fields.<field>). */
  label?: string;
  /** Shown instead of the field's formatted value. */
  value?: ReactNode;
  /** Wraps the value in a span with this test id. */
  testId?: string;
}

export function FieldCards({
  resource,
  record,
  cards,
  size,
  valueVariant,
  emptyText = false,
}: {
  resource: string;
  record: RaRecord;
  cards: FieldCard[];
  size?: Sizes;
  valueVariant?: 'h6' | 'body1';
  /** Say "empty" in a card whose field has no value, rather than leave it blank. */
  emptyText?: boolean;
}) {
  const translate = useTranslate();
  return (
    <Grid container spacing={2}>
      {cards.map((card) => {
        const value = card.value ?? <FieldValue resource={resource} name={card.field} record={record} />;
        const empty = record[card.field] === null || record[card.field] === undefined;
        return (
          <InfoCard
            key={card.field}
            size={size}
            valueVariant={valueVariant}
            label={card.label ?? translate(`resources.${resource}.fields.${card.field}`, { _: card.field })}
          >
            {card.testId ? <span data-testid={card.testId}>{value}</span> : value}
            {emptyText && empty ? translate('app.common.empty_value') : null}
          </InfoCard>
        );
      })}
    </Grid>
  );
}
