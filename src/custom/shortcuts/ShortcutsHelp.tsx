/**
 * `?` and its visible twin, the keyboard button in the back office's app bar: a dialog that lists the
 * shortcuts (issue 18 item 8). The dialog is a chunk of its own, fetched the first time it opens.
 */
import { lazy, Suspense, useState } from 'react';
import { IconButton, Tooltip } from '@mui/material';
import KeyboardIcon from '@mui/icons-material/Keyboard';
import { useTranslate } from 'react-admin';
import { useShortcuts } from './keys.ts';

const ShortcutsDialog = lazy(() => import('./ShortcutsDialog.tsx'));

export function ShortcutsHelp() {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  useShortcuts({ '?': () => setOpen(true) });
  const label = translate('workspace.shortcuts.button');
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-keyshortcuts="?"
          onClick={() => setOpen(true)}
          // A phone has no keyboard to press them with: its narrow bar keeps the room for the search.
          sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
        >
          <KeyboardIcon />
        </IconButton>
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <ShortcutsDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
