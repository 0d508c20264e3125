/**
 * A tab's rows (SPEC 2, x-tabs): the related resource's list columns in a compact table, 15 rows a page
 * in its default order, each row a link to its detail where the user may open it. One list call and one
 * count, with the references of the columns in the same call.
 */
import { useState } from 'react';
import AddIcon from '@mui/icons-material/Add';
import {
  Box,
  Button,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useCreatePath, useGetList, useResourceDefinition, useTranslate, type RaRecord } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { CreateLinkState } from '../detail/createDefaults.ts';
import { registry } from '../../schema.ts';
import type { BuilderItem } from '../../dataProvider/builder.ts';
import { RAW_BUILDER_KEY } from '../../dataProvider/builder.ts';
import { FieldDisplay } from '../../resources/fields/display.tsx';
import { fieldAlign } from '../../resources/fields/kinds.ts';
import { ScrollableTable } from '../detail/parts.tsx';
import { ListPagination } from '../list/ListPagination.tsx';
import { listModel } from '../list/shape.ts';
import { fixedFields } from './tabs.ts';

const TAB_PAGE_SIZE = 15;

export interface TabListProps {
  /** The resource the tab lists. */
  target: string;
  /** Its rows' conditions; null when the record has nothing to match (no rows, no call). */
  builder: BuilderItem[] | null;
  /** Names the table (the tab's title). */
  label: string;
  /** Whether rows open their detail (the user may show the resource). */
  linkRows: boolean;
  /** An add button's link to the resource's create form (the user may create there), when the tab has one. */
  add?: CreateLinkState;
}

export function TabList({ target, builder, label, linkRows, add }: TabListProps) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const createPath = useCreatePath();
  const [page, setPage] = useState(1);
  // The detail lives at /{resource}/{id} (react-admin's 'edit' path) unless a resource has a show route.
  const definition = useResourceDefinition({ resource: target });
  const pathOf = (record: RaRecord) =>
    createPath({ resource: target, id: record.id, type: definition?.hasShow ? 'show' : 'edit' });
  const resource = registry.require(target);
  const model = listModel(resource, 'backoffice');
  const hidden = fixedFields(builder);
  const columns = (model.defaultColumns.length ? model.defaultColumns : model.columns.slice(0, 5)).filter(
    (name) => !hidden.includes(name),
  );
  const [sortField, sortDir] = model.defaultSort;
  const { data, total, isPending } = useGetList(
    target,
    {
      pagination: { page, perPage: TAB_PAGE_SIZE },
      sort: { field: sortField, order: sortDir === 'desc' ? 'DESC' : 'ASC' },
      filter: { [RAW_BUILDER_KEY]: builder ?? [] },
      meta: { with: model.relationsFor(columns), list: 'tab' },
    },
    { enabled: builder !== null },
  );
  const rows: RaRecord[] = builder === null ? [] : (data ?? []);
  const plural = translate(`resources.${target}.name`, { smart_count: 2, _: resource.title });

  const singular = translate(`resources.${target}.name`, { smart_count: 1, _: resource.title });
  const addButton = add && (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
      <Button
        component={RouterLink}
        to={createPath({ resource: target, type: 'create' })}
        state={add}
        startIcon={<AddIcon />}
        variant="outlined"
        size="small"
      >
        {translate('app.tabs.add', { type: singular })}
      </Button>
    </Box>
  );

  if (builder !== null && isPending)
    return <CircularProgress size={24} aria-label={translate('ra.page.loading')} />;
  if (rows.length === 0) {
    return (
      <Box>
        {addButton}
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {translate('list.empty', { model: plural.toLowerCase() })}
        </Typography>
      </Box>
    );
  }
  const open = (record: RaRecord) => navigate(pathOf(record));
  const lastPage = Math.max(1, Math.ceil((total ?? 0) / TAB_PAGE_SIZE));
  return (
    <Box>
      {addButton}
      <ScrollableTable label={label}>
        <Table size="small">
          <TableHead>
            <TableRow>
              {columns.map((name) => (
                <TableCell key={name} align={fieldAlign(resource, model.fields[name]!)}>
                  {translate(`resources.${target}.fields.${name}`, { _: name })}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((record) => (
              <TableRow
                key={record.id}
                hover={linkRows}
                onClick={linkRows ? () => open(record) : undefined}
                sx={linkRows ? { cursor: 'pointer' } : undefined}
              >
                {columns.map((name, index) => (
                  <TableCell key={name} align={fieldAlign(resource, model.fields[name]!)}>
                    {index === 0 && linkRows ? (
                      // The first cell is a real link, so keyboard and screen-reader users can open the row.
                      <Box
                        component="a"
                        href={pathOf(record)}
                        onClick={(event: React.MouseEvent) => {
                          event.preventDefault();
                          event.stopPropagation();
                          open(record);
                        }}
                        sx={{ color: 'primary.main' }}
                      >
                        <FieldDisplay
                          resource={resource}
                          field={model.fields[name]!}
                          record={record}
                          link={false}
                        />
                      </Box>
                    ) : (
                      <FieldDisplay resource={resource} field={model.fields[name]!} record={record} />
                    )}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollableTable>
      {lastPage > 1 && <ListPagination page={page} lastPage={lastPage} onPage={setPage} compact />}
    </Box>
  );
}
