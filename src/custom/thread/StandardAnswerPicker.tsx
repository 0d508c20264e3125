/**
 * The standard-answer picker of the back office's message editor (issue 18, item 6): a button that
 * opens a dialog listing the tenant's standard answers (`standard-answers`), searched by title on the
 * server and grouped by category, with a category filter. Choosing one hands its body, placeholders
 * filled in (./placeholders.ts), to `onPick`, which inserts it at the editor's cursor.
 *
 * Keyboard: the search field has the focus when the dialog opens; the down arrow moves into the list,
 * up and down move through it, Home and End go to its ends, Enter or Space chooses, Escape closes.
 * The button shows only for a user who may list the answers (tenant.standard-answers.index).
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItemButton,
  ListItemText,
  ListSubheader,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import Forum from '@mui/icons-material/Forum';
import { useGetList, useTranslate, type RaRecord } from 'react-admin';
import { EditorPickerButton } from './EditorPickerButton.tsx';
import { fillPlaceholders, type PlaceholderValues } from './placeholders.ts';

export const ANSWERS_RESOURCE = 'standard-answers';
/** How long the search waits after the last keystroke before it asks the server. */
const SEARCH_DELAY_MS = 250;
const ALL = '';
const NONE = 'none';

interface Answer extends RaRecord {
  title: string;
  body: string;
  category_id: number | null;
  category?: { id: number; name: string } | null;
}

function useDelayed<T>(value: T, delay: number): T {
  const [delayed, setDelayed] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDelayed(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return delayed;
}

function PickerDialog({
  open,
  onClose,
  onPick,
  values,
}: {
  open: boolean;
  onClose: () => void;
  onPick: (html: string) => void;
  values: PlaceholderValues;
}) {
  const translate = useTranslate();
  const titleId = useId();
  const hintId = useId();
  const listId = useId();
  const [text, setText] = useState('');
  const [category, setCategory] = useState(ALL);
  const search = useDelayed(text.trim(), SEARCH_DELAY_MS);
  const listRef = useRef<HTMLUListElement>(null);
  const filter: Record<string, unknown> = {};
  if (search) filter.q = search;
  if (category === NONE) filter['category_id@null'] = true;
  else if (category !== ALL) filter.category_id = Number(category);
  const { data, isPending, error, refetch } = useGetList<Answer>(
    ANSWERS_RESOURCE,
    {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'title', order: 'ASC' },
      filter,
      meta: { with: ['category'], list: 'standard-answers-picker' },
    },
    { enabled: open, placeholderData: (previous) => previous },
  );
  // The categories the answers use, from an unfiltered list (the filter offers only these).
  const { data: all } = useGetList<Answer>(
    ANSWERS_RESOURCE,
    {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'title', order: 'ASC' },
      meta: { with: ['category'], list: 'standard-answers-categories' },
    },
    { enabled: open },
  );
  const categories = useMemo(() => {
    const seen = new Map<number, string>();
    for (const a of all ?? []) if (a.category) seen.set(a.category.id, a.category.name);
    return [...seen].sort((a, b) => a[1].localeCompare(b[1]));
  }, [all]);
  const groups = useMemo(() => {
    const byName = new Map<string, Answer[]>();
    for (const a of data ?? []) {
      const name = a.category?.name ?? '';
      byName.set(name, [...(byName.get(name) ?? []), a]);
    }
    // Named categories in order, the answers without one last.
    return [...byName].sort((a, b) => (a[0] === '' ? 1 : b[0] === '' ? -1 : a[0].localeCompare(b[0])));
  }, [data]);

  const items = () => Array.from(listRef.current?.querySelectorAll<HTMLElement>('[role="option"]') ?? []);
  const focusItem = (index: number) => {
    const all = items();
    if (all.length === 0) return;
    all[Math.max(0, Math.min(index, all.length - 1))]!.focus();
  };
  const onListKey = (e: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 };
    if (e.key in move) {
      e.preventDefault();
      if (e.key === 'ArrowUp' && at === 0) document.getElementById(`${listId}-search`)?.focus();
      else focusItem(move[e.key]!);
    }
  };
  const choose = (answer: Answer) => onPick(fillPlaceholders(answer.body, values));

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
      // Where the focus goes after is the caller's: the editor after a choice, the button otherwise.
      disableRestoreFocus
    >
      <DialogTitle id={titleId}>{translate('workspace.answers.title')}</DialogTitle>
      <DialogContent>
        <Typography id={hintId} variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {translate('workspace.answers.hint')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 1, mt: 0.5 }}>
          <TextField
            id={`${listId}-search`}
            autoFocus
            fullWidth
            size="small"
            type="search"
            label={translate('workspace.answers.search')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            slotProps={{ htmlInput: { 'aria-controls': listId, 'aria-describedby': hintId } }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                focusItem(0);
              }
            }}
          />
          <TextField
            select
            size="small"
            sx={{ minWidth: 200 }}
            label={translate('workspace.answers.category')}
            value={category}
            onChange={(e) => setCategory(e.target.value)}
          >
            <MenuItem value={ALL}>{translate('workspace.answers.all_categories')}</MenuItem>
            {categories.map(([id, name]) => (
              <MenuItem key={id} value={String(id)}>
                {name}
              </MenuItem>
            ))}
            <MenuItem value={NONE}>{translate('workspace.answers.no_category')}</MenuItem>
          </TextField>
        </Stack>
        {error ? (
          <Alert
            severity="error"
            action={<Button onClick={() => void refetch()}>{translate('ra.action.refresh')}</Button>}
          >
            {translate('workspace.answers.failed')}
          </Alert>
        ) : isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
            <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
          </Box>
        ) : (data ?? []).length === 0 ? (
          <Typography role="status" sx={{ py: 2 }}>
            {translate('workspace.answers.none')}
          </Typography>
        ) : (
          <List
            id={listId}
            ref={listRef}
            role="listbox"
            aria-label={translate('workspace.answers.list')}
            onKeyDown={onListKey}
            dense
            sx={{ maxHeight: 360, overflowY: 'auto' }}
          >
            {groups.map(([name, answers]) => (
              <li key={name || NONE} role="presentation">
                <List role="group" aria-label={name || translate('workspace.answers.no_category')} dense>
                  <ListSubheader role="presentation" sx={{ lineHeight: '32px' }}>
                    {name || translate('workspace.answers.no_category')}
                  </ListSubheader>
                  {answers.map((answer) => (
                    <ListItemButton
                      key={answer.id}
                      role="option"
                      aria-selected={false}
                      onClick={() => choose(answer)}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' || e.key === ' ') {
                          e.preventDefault();
                          choose(answer);
                        }
                      }}
                    >
                      <ListItemText primary={answer.title} />
                    </ListItemButton>
                  ))}
                </List>
              </li>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('workspace.answers.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export default function StandardAnswerPicker({
  values,
  disabled,
  onPick,
}: {
  values: PlaceholderValues;
  disabled?: boolean;
  onPick: (html: string) => void;
}) {
  const translate = useTranslate();
  return (
    <EditorPickerButton
      resource={ANSWERS_RESOURCE}
      icon={<Forum />}
      label={translate('workspace.answers.button')}
      disabled={disabled}
      onPick={onPick}
      Dialog={PickerDialog}
      dialogProps={{ open: true, values }}
    />
  );
}
