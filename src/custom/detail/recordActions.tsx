/**
 * Building blocks of a record's own action buttons in the detail header (overrides' `actions`): a call
 * with its success toast and the SPEC 8 error toast, a confirmation dialog, and the merge dialog.
 */
import { useState, type ReactNode } from 'react';
import MergeIcon from '@mui/icons-material/CallMerge';
import {
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import {
  useDataProvider,
  useGetList,
  useNotify,
  useLocaleState,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { registry } from '../../schema.ts';
import { MIN_SEARCH_CHARS, SEARCH_DEBOUNCE_MS, searchFilter } from '../list/filterControls.tsx';
import { useDebounced } from '../list/useDebounced.ts';

/**
 * A success toast: an i18n key, or a key with its values ('%{type} created'), and its type: a call that
 * succeeded with a reservation (the quote is sent, its mail is not yet) is a warning.
 */
export type ActionSuccess =
  string | { message: string; args?: Record<string, unknown>; type?: 'success' | 'warning' };

/**
 * Runs an action call: a success toast (fixed, or chosen from the answer), or the error toast of the
 * catalogue (the data provider has shaped the message: a 422 is its message then the field lines, a 403
 * or 404 is silent). `busy` disables the buttons while a call is under way, so a double click does not
 * call twice.
 */
export function useActionCall() {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async <T,>(
    call: () => Promise<T>,
    success: ActionSuccess | ((result: T) => ActionSuccess),
    after?: (result: T) => unknown,
  ) => {
    setBusy(true);
    try {
      const result = await call();
      const notice = typeof success === 'function' ? success(result) : success;
      const { message, args, type = 'success' } = typeof notice === 'string' ? { message: notice } : notice;
      notify(message, { type, messageArgs: args });
      await after?.(result);
      return true;
    } catch (error) {
      notify((error as Error).message || 'app.errors.generic', { type: 'error' });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy };
}

export function useActionsProvider() {
  return useDataProvider<ServiceDeskDataProvider>();
}

/** SPEC 5: a destructive action asks first; closing the dialog is the refusal. */
export function ConfirmDialog({
  open,
  text,
  confirmLabel,
  onClose,
  onConfirm,
  busy,
}: {
  open: boolean;
  text: string;
  confirmLabel: string;
  onClose: () => void;
  onConfirm: () => void;
  busy?: boolean;
}) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="confirm-action-text">
      <DialogContent>
        <DialogContentText id="confirm-action-text">{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button onClick={onConfirm} color="error" variant="contained" disabled={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Chooses other records of the same resource to merge into this one (POST /{resource}/merge with this
 * record's id first: the server keeps the first), then asks for confirmation. The search starts after
 * two typed characters (SPEC 5), as the reference selectors do; `filter` narrows the candidates (the
 * same company for tickets).
 */
export interface MergeDialogProps {
  open: boolean;
  onClose: () => void;
  resource: string;
  record: RaRecord;
  title: string;
  intro: ReactNode;
  /** The confirmation: what the merge does, with the chosen records' labels (in the locale's list form). */
  confirmText: (merged: { labels: string; count: number }) => string;
  /** The merged records are deleted (companies): the confirming button is red. A merge that keeps them is not. */
  deletes?: boolean;
  /** i18n key of the success toast. */
  success: string;
  filter?: Record<string, unknown>;
  /** An option's text when the label alone does not tell records apart (a ticket's reference). */
  describe?: (record: RaRecord) => string;
  onMerged: () => unknown;
}

export function MergeDialog({
  open,
  onClose,
  resource,
  record,
  title,
  intro,
  confirmText,
  deletes = false,
  success,
  filter,
  describe,
  onMerged,
}: MergeDialogProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const schema = registry.require(resource);
  const [chosen, setChosen] = useState<RaRecord[]>([]);
  const [input, setInput] = useState('');
  const [query, setQuery] = useState('');
  const [confirming, setConfirming] = useState(false);
  const setQueryLater = useDebounced(setQuery, SEARCH_DEBOUNCE_MS);
  const text = query.trim();
  const enabled = open && text.length >= MIN_SEARCH_CHARS;
  const { data: found = [], isFetching } = useGetList(
    resource,
    {
      pagination: { page: 1, perPage: 25 },
      sort: { field: schema.label, order: 'ASC' },
      filter: { ...searchFilter(text, schema.search, schema.label), 'id@!=': record.id, ...filter },
      meta: { list: 'merge-search' },
    },
    { enabled },
  );
  const missing = MIN_SEARCH_CHARS - input.trim().length;
  const label = (r: RaRecord) => describe?.(r) ?? String(r[schema.label] ?? r.id);

  const close = () => {
    setChosen([]);
    setInput('');
    setQuery('');
    setConfirming(false);
    onClose();
  };
  const merge = () =>
    run(
      () =>
        dataProvider.collectionAction(resource, 'merge', {
          ids: [record.id, ...chosen.map((r) => r.id as Identifier)],
        }),
      success,
      async () => {
        close();
        await onMerged();
      },
    );

  return (
    <Dialog open={open} onClose={close} aria-labelledby="merge-title" fullWidth maxWidth="sm">
      <DialogTitle id="merge-title">{title}</DialogTitle>
      <DialogContent>
        {confirming ? (
          <DialogContentText>
            {confirmText({
              labels: new Intl.ListFormat(locale, { type: 'conjunction' }).format(
                chosen.map((r) => String(r[schema.label] ?? r.id)),
              ),
              count: chosen.length,
            })}
          </DialogContentText>
        ) : (
          <>
            <DialogContentText sx={{ mb: 2 }}>{intro}</DialogContentText>
            <Autocomplete
              multiple
              options={enabled ? found : []}
              value={chosen}
              onChange={(_e, value) => setChosen(value)}
              inputValue={input}
              onInputChange={(_e, value, reason) => {
                // Choosing an option clears the typed text; keep the search as typed otherwise.
                if (reason === 'reset') return;
                setInput(value);
                setQueryLater(value);
              }}
              filterOptions={(options) => options}
              getOptionLabel={label}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              loading={enabled && isFetching}
              noOptionsText={
                missing > 0
                  ? translate('list.filter.type_more', { smart_count: missing })
                  : translate('list.filter.no_options')
              }
              renderInput={(params) => (
                <TextField {...params} label={translate('app.record_actions.merge_search')} autoFocus />
              )}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('ra.action.cancel')}</Button>
        {confirming ? (
          <Button
            onClick={() => void merge()}
            color={deletes ? 'error' : 'primary'}
            variant="contained"
            disabled={busy}
          >
            {translate('app.record_actions.merge')}
          </Button>
        ) : (
          <Button onClick={() => setConfirming(true)} variant="contained" disabled={chosen.length === 0}>
            {translate('app.record_actions.merge_next')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** The Merge button of a detail header with its dialog (tickets, companies). */
export function MergeAction(props: Omit<MergeDialogProps, 'open' | 'onClose'>) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" startIcon={<MergeIcon />} onClick={() => setOpen(true)}>
        {translate('app.record_actions.merge')}
      </Button>
      <MergeDialog {...props} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
