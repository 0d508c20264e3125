/** What every detail screen shares: reloading on the global event, its title, a labelled info card. */
import { useEffect, type ReactNode } from 'react';
import { Card, CardContent, Grid, TableContainer, Typography, type GridSize } from '@mui/material';
import type { RaRecord, TranslateFunction } from 'react-admin';
import type { Resource } from '../../../common/schema/types.ts';
import { onReload } from '../../dataProvider/reload.ts';

/** SPEC 2: a detail screen reloads when the global reload event fires. */
export function useReloadOnEvent(refetch: () => unknown): void {
  useEffect(() => onReload(() => void refetch()), [refetch]);
}

/** SPEC 2: the page title of a detail screen is the record label plus the type name. */
export function recordTitle(translate: TranslateFunction, resource: Resource, record: RaRecord): string {
  const type = translate(`resources.${resource.name}.name`, { smart_count: 1, _: resource.title });
  const label = String(record[resource.label] ?? record.id);
  return translate('app.title.record', { label, type });
}

export type Sizes = Partial<Record<'xs' | 'sm' | 'md' | 'lg', GridSize>>;

/** One figure of a record (period, hours, total…) as a card: its label, then its value. */
export function InfoCard({
  label,
  children,
  size,
  valueVariant = 'h6',
}: {
  label: string;
  children: ReactNode;
  size?: Sizes;
  /** A figure reads large (h6); a name or a status can read as body text. */
  valueVariant?: 'h6' | 'body1';
}) {
  return (
    <Grid size={size ?? { xs: 12, sm: 6, md: 3 }}>
      <Card sx={{ height: '100%' }}>
        <CardContent component="dl" sx={{ m: 0 }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant={valueVariant} sx={{ m: 0 }}>
            {children}
          </Typography>
        </CardContent>
      </Card>
    </Grid>
  );
}

/**
 * A table that scrolls sideways inside its card on a narrow screen. Focusable, so that keyboard users can
 * scroll it too (axe: scrollable-region-focusable), and named by its heading or caption.
 */
export function ScrollableTable({
  label,
  labelledBy,
  children,
}: {
  label?: string;
  labelledBy?: string;
  children: ReactNode;
}) {
  return (
    <TableContainer
      tabIndex={0}
      role="group"
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : label}
    >
      {children}
    </TableContainer>
  );
}
