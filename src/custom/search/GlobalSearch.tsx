/**
 * The back office's global search in the app bar (issue 18 item 2): a combobox (WAI-ARIA 1.2, list
 * autocomplete) whose listbox holds the matches grouped per resource as the user types. `/` focuses it;
 * the arrow keys move through the matches, Enter opens the one chosen, Escape closes the list. Each
 * text is asked once it rests for a moment, and a newer text cancels the call still under way.
 */
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Box, InputBase, Paper, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useBasename, useDataProvider, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { SearchGroup, ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { pathFor } from '../../shell/routes.ts';
import { useDebounced } from '../list/useDebounced.ts';
import { useShortcuts } from '../shortcuts/keys.ts';

/** As the server's MIN_SEARCH_LENGTH (server/search/global-search.ts): fewer characters are not asked. */
export const MIN_SEARCH_LENGTH = 3;
const MAX_SEARCH_LENGTH = 100;
const DEBOUNCE_MS = 250;

type Status = 'idle' | 'short' | 'loading' | 'done' | 'failed';

interface Option {
  resource: string;
  id: number;
  label: string;
  detail: string | null;
}

export function GlobalSearch() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const navigate = useNavigate();
  const basename = useBasename();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const call = useRef<AbortController | undefined>(undefined);
  const [text, setText] = useState('');
  const [groups, setGroups] = useState<SearchGroup[]>([]);
  const [status, setStatus] = useState<Status>('idle');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  const options: Option[] = groups.flatMap((g) => g.records.map((r) => ({ resource: g.resource, ...r })));
  const optionId = (i: number) => `${id}-option-${i}`;

  const ask = useCallback(
    async (value: string) => {
      call.current?.abort();
      const controller = new AbortController();
      call.current = controller;
      try {
        const found = await dataProvider.search(value, { signal: controller.signal });
        if (controller.signal.aborted) return;
        setGroups(found);
        setActive(-1);
        setStatus('done');
      } catch {
        if (!controller.signal.aborted) setStatus('failed');
      }
    },
    [dataProvider],
  );
  const askLater = useDebounced(ask, DEBOUNCE_MS);
  // The active match stays in sight while the arrows move through a list taller than the screen.
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  });
  useEffect(() => () => call.current?.abort(), []);

  useShortcuts({
    '/': () => input.current?.focus(),
  });

  function change(value: string) {
    setText(value);
    setOpen(true);
    const trimmed = value.trim();
    if (trimmed.length < MIN_SEARCH_LENGTH) {
      askLater.cancel();
      call.current?.abort();
      setGroups([]);
      setStatus(trimmed ? 'short' : 'idle');
      return;
    }
    setStatus('loading');
    askLater(trimmed);
  }

  function choose(option: Option) {
    setOpen(false);
    setText('');
    setGroups([]);
    setStatus('idle');
    input.current?.blur();
    navigate(`${basename}${pathFor(`${option.resource}.show`, option.id)}`);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + options.length + (i < 0 && step < 0 ? 1 : 0)) % options.length);
    } else if (event.key === 'Enter') {
      const option = options[active] ?? (options.length === 1 ? options[0] : undefined);
      if (option) {
        event.preventDefault();
        choose(option);
      }
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setOpen(false);
      } else {
        change('');
      }
    }
  }

  const expanded = open && status !== 'idle';
  const message =
    status === 'short'
      ? translate('workspace.search.too_short', { smart_count: MIN_SEARCH_LENGTH })
      : status === 'loading'
        ? translate('workspace.search.searching')
        : status === 'failed'
          ? translate('workspace.search.failed')
          : status === 'done' && options.length === 0
            ? translate('workspace.search.none', { text: text.trim() })
            : '';
  let index = 0;

  return (
    <Box
      sx={{
        position: { xs: 'static', sm: 'relative' },
        flex: 1,
        minWidth: 0,
        maxWidth: 420,
        mx: { xs: 0.5, sm: 2 },
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          borderRadius: 1,
          // Darker than the bar, not lighter: the white text keeps its contrast (axe) on hover too.
          bgcolor: 'rgba(0, 0, 0, 0.2)',
          '&:hover, &:focus-within': { bgcolor: 'rgba(0, 0, 0, 0.3)' },
          px: 1,
        }}
      >
        <SearchIcon fontSize="small" aria-hidden />
        <InputBase
          inputRef={input}
          value={text}
          onChange={(event) => change(event.target.value)}
          onFocus={() => setOpen(true)}
          onKeyDown={onKeyDown}
          placeholder={translate('workspace.search.placeholder')}
          sx={{ color: 'inherit', flex: 1, minWidth: 0, ml: 1, '& input::placeholder': { opacity: 0.85 } }}
          inputProps={{
            role: 'combobox',
            type: 'search',
            maxLength: MAX_SEARCH_LENGTH,
            'aria-label': translate('workspace.search.label'),
            'aria-expanded': expanded,
            'aria-controls': `${id}-listbox`,
            'aria-autocomplete': 'list',
            'aria-activedescendant': expanded && active >= 0 ? optionId(active) : undefined,
            'aria-keyshortcuts': '/',
            autoComplete: 'off',
          }}
        />
      </Box>
      {/* Focusable: many matches scroll, and a keyboard must be able to scroll them (axe). */}
      <Paper
        elevation={8}
        hidden={!expanded}
        tabIndex={0}
        sx={{
          position: 'absolute',
          top: { xs: 56, sm: '100%' },
          left: { xs: 8, sm: 0 },
          right: { xs: 8, sm: 'auto' },
          width: { sm: 480 },
          mt: { sm: 0.5 },
          maxHeight: '70vh',
          overflowY: 'auto',
          zIndex: (theme) => theme.zIndex.modal,
          color: 'text.primary',
        }}
      >
        {message && (
          <Typography variant="body2" sx={{ px: 2, py: 1.5 }}>
            {message}
          </Typography>
        )}
        <Box
          component="ul"
          role="listbox"
          id={`${id}-listbox`}
          aria-label={translate('workspace.search.results')}
          sx={{ listStyle: 'none', m: 0, p: 0 }}
        >
          {groups.map((group) => (
            <Box component="li" role="presentation" key={group.resource}>
              <Box component="ul" role="group" aria-labelledby={`${id}-${group.resource}`} sx={{ p: 0 }}>
                <Typography
                  component="li"
                  role="presentation"
                  id={`${id}-${group.resource}`}
                  variant="overline"
                  sx={{ display: 'block', px: 2, pt: 1, color: 'text.secondary' }}
                >
                  {translate(`resources.${group.resource}.name`, { smart_count: 2 })}
                </Typography>
                {group.records.map((record) => {
                  const i = index++;
                  const option = options[i]!;
                  return (
                    <Box
                      component="li"
                      role="option"
                      key={record.id}
                      id={optionId(i)}
                      aria-selected={i === active}
                      // Keep the focus in the field: the click chooses, the blur would close first.
                      onMouseDown={(event) => event.preventDefault()}
                      onClick={() => choose(option)}
                      onMouseMove={() => setActive(i)}
                      sx={{
                        px: 2,
                        py: 0.75,
                        cursor: 'pointer',
                        bgcolor: i === active ? 'action.selected' : undefined,
                      }}
                    >
                      <Typography variant="body2" noWrap>
                        {record.label}
                      </Typography>
                      {record.detail && (
                        <Typography variant="caption" color="text.secondary" noWrap component="div">
                          {record.detail}
                        </Typography>
                      )}
                    </Box>
                  );
                })}
              </Box>
            </Box>
          ))}
        </Box>
      </Paper>
      {/* Said to screen readers as the matches arrive; the list itself is read by moving through it. */}
      <Box role="status" sx={visuallyHidden}>
        {status === 'done' ? translate('workspace.search.count', { smart_count: options.length }) : ''}
      </Box>
    </Box>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
