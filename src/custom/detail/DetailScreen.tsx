/**
 * The generic detail screen (SPEC 2): loads the record by the id route param, shows a card, sets the
 * page title to the record label plus the type name, reloads on the global reload event; edits in
 * place where the caller may update, and deletes after confirmation. A 404 returns to the list, any
 * other failed load shows an error state with a retry (ShowRecord).
 */
import { useReloadOnEvent, recordTitle } from './parts.tsx';
import { Suspense, useState, type ReactNode } from 'react';
import {
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  Grid,
  Typography,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  EditBase,
  SaveButton,
  SimpleForm,
  Toolbar,
  useCanAccess,
  useDelete,
  useShowContext,
  useNotify,
  useRedirect,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import type { Resource } from '../../../common/schema/types.ts';
import {
  BASE_LANGUAGE,
  hasTranslations,
  readableFieldsFor,
  writableFieldsFor,
} from '../../../common/schema/fields.ts';
import { registry } from '../../schema.ts';
import { useAppKind } from '../appKind.ts';
import { inDetail } from '../../../common/schema/display.ts';
import { FieldDisplay } from '../../resources/fields/display.tsx';
import { FieldInput } from '../../resources/fields/inputs.tsx';
import { CustomFieldInputs, CustomFieldsDisplay } from '../forms/CustomFields.tsx';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { overrides } from '../../resources/override-contract.ts';
import { ShowRecord } from './ShowRecord.tsx';
import { requestReload } from '../../dataProvider/reload.ts';
import { InvalidFieldsNotice } from '../forms/InvalidFieldsNotice.tsx';

/** belongsTo relations, loaded with the record so references show their label without extra calls. */
export function referencesOf(resource: Resource, portal: boolean): string[] {
  return Object.values(resource.relations)
    .filter((r) => r.kind === 'belongsTo')
    .filter((r) => !portal || registry.get(r.resource)?.portal)
    .filter((r) => readableFieldsFor(resource, portal).some((f) => f.name === (r as { key: string }).key))
    .map((r) => r.name);
}

function ConfirmDelete({
  open,
  onClose,
  onConfirm,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="confirm-delete-text">
      <DialogContent>
        <DialogContentText id="confirm-delete-text">{translate('app.confirm.delete')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button onClick={onConfirm} color="error" variant="contained">
          {translate('ra.action.delete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const headerRow = { display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' } as const;

function DetailBody({ resource, children }: { resource: Resource; children?: ReactNode }) {
  const translate = useTranslate();
  const kind = useAppKind();
  const portal = kind === 'portal';
  const { record, refetch, isPending } = useShowContext();
  const { canAccess: canUpdate } = useCanAccess({ resource: resource.name, action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: resource.name, action: 'delete' });
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleteOne] = useDelete();
  const notify = useNotify();
  const redirect = useRedirect();
  const RecordActions = overrides[kind][resource.name]?.actions;
  const RecordSummary = overrides[kind][resource.name]?.summary;
  const RecordPanel = overrides[kind][resource.name]?.panel;

  useReloadOnEvent(refetch);

  if (isPending || !record) return null;
  const title = recordTitle(translate, resource, record);
  const fields = readableFieldsFor(resource, portal).filter((f) => f.name !== 'id' && inDetail(f));
  const writable = writableFieldsFor(resource, portal).filter((f) => !f.writeOnly || editing);

  const remove = () =>
    deleteOne(
      resource.name,
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('app.notifications.item_deleted', { type: 'success' });
          redirect('list', resource.name);
        },
      },
    );

  const heading = (
    <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
      {title}
    </Typography>
  );
  const buttons = (
    <>
      {RecordActions && !editing && <RecordActions record={record} refetch={refetch} />}
      {canUpdate && !editing && writable.length > 0 && (
        <Button startIcon={<EditIcon />} onClick={() => setEditing(true)} variant="outlined">
          {translate('ra.action.edit')}
        </Button>
      )}
      {canDelete && (
        <Button
          startIcon={<DeleteIcon />}
          onClick={() => setConfirming(true)}
          color="error"
          variant="outlined"
        >
          {translate('ra.action.delete')}
        </Button>
      )}
    </>
  );

  // One boundary for the whole screen: it shows once the resource's own (lazy) parts have loaded and the
  // figures they read first are there (readBeforeShow.ts), with its header, card and what the caller adds
  // below (the tab bar) in place, so nothing moves under a pointer that aims at a button or a tab while
  // they arrive (preloadDetail starts the parts' downloads early).
  return (
    <Suspense fallback={null}>
      <Box sx={{ p: { xs: 1, sm: 2 } }}>
        <DocumentTitle section={title} />
        {RecordSummary ? (
          // The summary's figures on a row of their own beside the title: when they are read again (a time
          // logged) and their number changes, no button below moves.
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, mb: 2 }}>
            <Box sx={headerRow}>
              {heading}
              <RecordSummary record={record} refetch={refetch} />
            </Box>
            <Box sx={headerRow}>{buttons}</Box>
          </Box>
        ) : (
          <Box sx={{ ...headerRow, mb: 2 }}>
            {heading}
            {buttons}
          </Box>
        )}
        <Card>
          {editing ? (
            // Editing is its own controller, mounted only for a caller who may update (react-admin checks
            // the 'edit' access of an EditBase); reading needs 'show' only.
            <EditBase
              id={record.id}
              mutationMode="pessimistic"
              redirect={false}
              // A form edits what is stored: a translated field's own (Dutch) text, not the reader's language.
              queryOptions={{ meta: hasTranslations(resource) ? { language: BASE_LANGUAGE } : undefined }}
              mutationOptions={{
                onSuccess: () => {
                  notify('app.notifications.item_updated', { type: 'success' });
                  setEditing(false);
                  // Everything on the screen that shows the record is read again: the record itself, its
                  // custom values (stored with it) and what else listens (a history tab, the badges).
                  requestReload();
                },
              }}
            >
              <SimpleForm
                disableInvalidFormNotification
                toolbar={
                  <Toolbar>
                    <SaveButton />
                    <Button sx={{ ml: 1 }} onClick={() => setEditing(false)}>
                      {translate('ra.action.cancel')}
                    </Button>
                  </Toolbar>
                }
              >
                <InvalidFieldsNotice />
                {writable.map((field) => (
                  <FieldInput key={field.name} resource={resource} field={field} />
                ))}
                {!portal && <CustomFieldInputs resource={resource} recordId={record.id} />}
              </SimpleForm>
            </EditBase>
          ) : (
            <CardContent>
              <Grid container spacing={2} component="dl" sx={{ m: 0 }}>
                {fields.map((field) => (
                  <Grid key={field.name} size={{ xs: 12, sm: 6, md: 4 }}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {translate(`resources.${resource.name}.fields.${field.name}`, { _: field.name })}
                    </Typography>
                    <Typography component="dd" variant="body1" sx={{ m: 0 }}>
                      <FieldDisplay resource={resource} field={field} full />
                    </Typography>
                  </Grid>
                ))}
                {!portal && <CustomFieldsDisplay resource={resource} recordId={record.id} />}
              </Grid>
            </CardContent>
          )}
        </Card>
        {RecordPanel && !editing && <RecordPanel record={record} refetch={refetch} />}
        <ConfirmDelete open={confirming} onClose={() => setConfirming(false)} onConfirm={remove} />
      </Box>
      {children}
    </Suspense>
  );
}

/** The detail of the route's record; `children` (a tab bar) show below it, together with it. */
export default function DetailScreen({ children }: { children?: ReactNode }) {
  const name = useResourceContext()!;
  const resource = registry.require(name);
  const portal = useAppKind() === 'portal';
  return (
    <ShowRecord meta={{ with: referencesOf(resource, portal) }}>
      <DetailBody resource={resource}>{children}</DetailBody>
    </ShowRecord>
  );
}
