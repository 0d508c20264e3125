/**
 * Below 768 px (SPEC 2): cards instead of the table, with a title bar, a reset button, a dropdown of
 * saved filter views with their result counts, the active filter's name and a 'no results' note.
 * Where the list has bulk actions, each card has a checkbox and the list one for the whole page (the
 * bulk bar then offers every row of the filter, as on the desktop); `j` and `k` move the focus
 * through the cards and Enter opens the focused one (issue 18 items 3 and 8).
 */
import FilterAltOff from '@mui/icons-material/FilterAltOff';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useListContext, useTranslate, type RaRecord } from 'react-admin';
import type { KeyboardEvent, ReactNode } from 'react';
import type { Field, Resource } from '../../../common/schema/types.ts';
import { FieldDisplay } from '../../resources/fields/display.tsx';
import { ToolButton } from './ListToolbar.tsx';
import type { TablePreset } from './persistence.ts';
import type { ActionColumn } from '../../resources/override-contract.ts';
import { rowAttribute, rowsAttribute, useRowShortcuts } from '../shortcuts/rows.ts';
import { halfTickedRef } from './halfTicked.ts';

export const SKELETON_ROWS = 10;

export interface MobileListProps {
  resource: Resource;
  title: string;
  headingId: string;
  columns: Field[];
  labelOf: (field: string) => string;
  /** The field that names a record (`x-label`), when the user may see it. */
  titleField?: Field;
  records: RaRecord[];
  loading: boolean;
  /** The list could not be loaded: what to show instead of the cards (ListScreen's error state). */
  failed?: ReactNode;
  emptyText: string;
  range?: { from: number; to: number; total: number };
  filterActive: boolean;
  onResetFilters: () => void;
  canPresets: boolean;
  presets: TablePreset[];
  counts: Record<string, number>;
  activePresetId?: TablePreset['id'];
  activeFilterName: string;
  onApplyPreset: (preset: TablePreset) => void;
  /** Opens a card's record; absent, the cards are not links (a resource without a detail screen). */
  onOpen?: (record: RaRecord) => void;
  /** The desktop table's last column (an invoice's download), shown on each card too. */
  actionColumn?: ActionColumn;
  /** The list's views and default view (./DefaultViewBar.tsx), in place of the presets' select. */
  viewBar?: ReactNode;
  /** The cards can be ticked for the bulk bar (the list's selection). */
  selectable?: boolean;
  /** The list's bulk bars, shown below the cards (sticking to the screen's bottom) while cards are ticked. */
  bulkBars?: ReactNode;
}

/** A card's or the page's checkbox (half-ticked when some cards are); a click on it does not open the card. */
function SelectBox({
  checked,
  halfTicked = false,
  label,
  onChange,
}: {
  checked: boolean;
  halfTicked?: boolean;
  label: string;
  onChange: (checked: boolean) => void;
}) {
  return (
    <Checkbox
      checked={checked}
      indeterminate={halfTicked}
      inputRef={halfTickedRef(halfTicked)}
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => event.stopPropagation()}
      onChange={(event) => onChange(event.target.checked)}
      slotProps={{ input: { 'aria-label': label } }}
      sx={{ m: -1 }}
    />
  );
}

export function MobileList(props: MobileListProps) {
  const translate = useTranslate();
  const { resource, columns, titleField, records, loading, actionColumn, selectable } = props;
  const { selectedIds = [], onToggleItem, onSelectAll, onUnselectItems } = useListContext();
  const details = columns.filter((c) => c !== titleField);
  const cards = useRowShortcuts<HTMLDivElement>(!loading && records.length > 0 && props.onOpen !== undefined);
  const pageSelected = records.filter((r) => selectedIds.includes(r.id)).length;
  return (
    <Box>
      {/* The counter stands beside the title: a phone's first card starts within the screen's first
          third (issue 37, item 5). */}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="h5" component="h1" id={props.headingId} sx={{ flex: 1, minWidth: 0 }}>
          {props.title}
        </Typography>
        <Typography variant="body2" color="text.primary" role="status">
          {props.range ? translate('list.counter', props.range) : ''}
        </Typography>
        <ToolButton
          label={translate('list.reset_filters')}
          icon={<FilterAltOff />}
          onClick={props.onResetFilters}
          disabled={!props.filterActive}
        />
      </Box>
      {props.viewBar}
      {props.canPresets && !props.viewBar && (
        <TextField
          select
          fullWidth
          size="small"
          label={translate('list.presets.views')}
          value={props.activePresetId === undefined ? '' : String(props.activePresetId)}
          onChange={(event) => {
            const preset = props.presets.find((p) => String(p.id) === event.target.value);
            if (preset) props.onApplyPreset(preset);
          }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ mb: 1 }}
        >
          <option value="">{translate('list.presets.choose')}</option>
          {props.presets.map((preset) => {
            const count = props.counts[String(preset.id)];
            return (
              <option key={preset.id} value={String(preset.id)}>
                {count === undefined ? preset.label : `${preset.label} (${count})`}
              </option>
            );
          })}
        </TextField>
      )}
      {/* The view bar's select names the view showing; without one, this line names the filter. */}
      {!props.viewBar && (
        <Typography variant="body2" color="text.primary" sx={{ mb: 1 }}>
          {translate('list.active_filter', { name: props.activeFilterName })}
        </Typography>
      )}
      {selectable && !loading && records.length > 0 && (
        <FormControlLabel
          sx={{ ml: 0, mb: 0.5, gap: 1 }}
          control={
            <SelectBox
              checked={pageSelected === records.length}
              halfTicked={pageSelected > 0 && pageSelected < records.length}
              label={translate('app.bulk.select_all_cards')}
              onChange={(on) => (on ? onSelectAll() : onUnselectItems())}
            />
          }
          label={translate('app.bulk.select_all_cards')}
        />
      )}
      <Stack
        spacing={1}
        aria-busy={loading}
        aria-labelledby={props.headingId}
        component="section"
        ref={cards}
        {...rowsAttribute}
      >
        {props.failed ? (
          props.failed
        ) : loading ? (
          Array.from({ length: SKELETON_ROWS }, (_, i) => (
            <Card key={i} variant="outlined" data-testid="skeleton-card">
              <CardContent>
                <Skeleton variant="text" width="60%" />
                <Skeleton variant="text" />
              </CardContent>
            </Card>
          ))
        ) : records.length === 0 ? (
          <Typography variant="body1" color="text.primary" sx={{ py: 4, textAlign: 'center' }}>
            {props.emptyText}
          </Typography>
        ) : (
          records.map((record) => {
            const { onOpen } = props;
            // A record without its title (a draft invoice has no code yet) is named by its id: a card's
            // heading must not be empty (axe: empty-heading).
            const untitled = !titleField || [null, undefined, ''].includes(record[titleField.name]);
            const title = untitled ? (
              `#${record.id}`
            ) : (
              <FieldDisplay resource={resource} field={titleField} record={record} />
            );
            return (
              <Card
                key={record.id}
                variant="outlined"
                {...(onOpen && {
                  ...rowAttribute,
                  tabIndex: 0,
                  onClick: () => onOpen(record),
                  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
                    if (event.key === 'Enter' && event.target === event.currentTarget) onOpen(record);
                  },
                  sx: {
                    cursor: 'pointer',
                    '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 },
                  },
                })}
              >
                <CardContent>
                  <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
                    {selectable && (
                      <SelectBox
                        checked={selectedIds.includes(record.id)}
                        label={translate('app.bulk.select_card', {
                          label: String(record[resource.label] ?? record.id),
                        })}
                        onChange={() => onToggleItem(record.id)}
                      />
                    )}
                    <Typography
                      variant="subtitle1"
                      component="h2"
                      sx={{ fontWeight: 600, flex: 1, minWidth: 0 }}
                    >
                      {onOpen ? (
                        <ButtonBase
                          onClick={(event) => {
                            event.stopPropagation();
                            onOpen(record);
                          }}
                          sx={{
                            display: 'block',
                            textAlign: 'left',
                            width: '100%',
                            borderRadius: 1,
                            font: 'inherit',
                          }}
                        >
                          {title}
                        </ButtonBase>
                      ) : (
                        title
                      )}
                    </Typography>
                  </Box>
                  <Box
                    component="dl"
                    sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2 }}
                  >
                    {details.map((field) => (
                      <Box key={field.name} sx={{ display: 'contents' }}>
                        <Typography component="dt" variant="body2" color="text.secondary">
                          {props.labelOf(field.name)}
                        </Typography>
                        <Typography component="dd" variant="body2" color="text.primary" sx={{ m: 0 }}>
                          <FieldDisplay resource={resource} field={field} record={record} />
                        </Typography>
                      </Box>
                    ))}
                    {actionColumn && (
                      <Box sx={{ display: 'contents' }}>
                        <Typography
                          component="dt"
                          variant="body2"
                          color="text.secondary"
                          sx={{ alignSelf: 'center' }}
                        >
                          {translate(actionColumn.label)}
                        </Typography>
                        <Typography component="dd" variant="body2" color="text.primary" sx={{ m: 0 }}>
                          <actionColumn.Cell record={record} />
                        </Typography>
                      </Box>
                    )}
                  </Box>
                </CardContent>
              </Card>
            );
          })
        )}
      </Stack>
      {props.bulkBars}
    </Box>
  );
}
