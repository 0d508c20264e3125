/**
 * The macros an operator applies in one click (issue 37, item 3): a button that opens the macros
 * offered to them (GET /api/macros/offered) and applies the chosen one to the ticket shown or to the
 * bulk bar's selection (POST /api/macros/{id}/apply). On a ticket, `m` opens the menu and a macro's
 * digit applies it while the menu is open. The server checks every action against the caller's
 * permissions; a refusal is the error toast.
 */
import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Button, ListItemIcon, ListItemText, Menu, MenuItem, Typography } from '@mui/material';
import AutoFixHighIcon from '@mui/icons-material/AutoFixHigh';
import { useTranslate, type Identifier } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { useActionCall, useActionsProvider } from '../detail/recordActions.tsx';
import { useShortcuts } from '../shortcuts/keys.ts';

export interface OfferedMacro {
  id: number;
  name: string;
  shortcut: number | null;
  personal: boolean;
}

export interface MacroMenuProps {
  ticketIds: Identifier[];
  /** After a macro was applied: the caller loads what it shows again. */
  onApplied: () => unknown;
  /** On a ticket's header: `m` opens the menu. */
  withShortcut?: boolean;
  /** The button's text: the header's 'Macros', the bulk bar's 'Macro…'. */
  label?: string;
}

export default function MacroMenu({ ticketIds, onApplied, withShortcut = false, label }: MacroMenuProps) {
  const translate = useTranslate();
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = anchor !== null;
  // Kept for a minute across tickets, so that m and a digit work at once on the next ticket; read again
  // at every opening, so a macro made meanwhile shows.
  const offered = useQuery({
    queryKey: ['macros', 'offered'],
    queryFn: async () => (await dataProvider.call<{ data: OfferedMacro[] }>('GET', 'macros/offered')).data,
    staleTime: 60_000,
    enabled: withShortcut || open,
  });
  const macros = offered.isError ? [] : (offered.data ?? null);

  const show = (target: HTMLElement) => {
    setAnchor(target);
    void offered.refetch();
  };
  const close = () => setAnchor(null);
  const apply = (macro: OfferedMacro) => {
    close();
    void run(
      () => dataProvider.recordAction('macros', macro.id, 'apply', { ids: ticketIds }),
      { message: 'macros.applied', args: { name: macro.name, smart_count: ticketIds.length } },
      onApplied,
    );
  };

  const buttonId = withShortcut ? 'macro-menu-button' : 'macro-bulk-button';
  useShortcuts(
    {
      m: () => {
        const button = document.getElementById(buttonId);
        if (!button) return false;
        show(button);
      },
    },
    withShortcut && !open && !busy,
  );
  // While the menu is open (the focus is in it), a macro's digit applies it. The menu's own keys run
  // first (a typed character moves to the item it starts), so the digit is read here, not as a page shortcut.
  const byDigit = new Map(
    (macros ?? []).flatMap((m) => (m.shortcut === null ? [] : [[String(m.shortcut), m]])),
  );
  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const macro = byDigit.get(event.key);
    if (!macro || event.ctrlKey || event.altKey || event.metaKey) return;
    event.preventDefault();
    apply(macro);
  };

  return (
    <>
      <Button
        id={buttonId}
        variant="outlined"
        startIcon={<AutoFixHighIcon />}
        disabled={busy || ticketIds.length === 0}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${buttonId}-menu` : undefined}
        {...(withShortcut && { 'aria-keyshortcuts': 'm' })}
        onClick={(event: MouseEvent<HTMLElement>) => show(event.currentTarget)}
      >
        {label ?? translate('macros.button')}
      </Button>
      <Menu
        id={`${buttonId}-menu`}
        anchorEl={anchor}
        open={open}
        onClose={close}
        // In the page's main landmark (axe: all content in landmarks), not at the end of the body.
        container={() => anchor?.closest('main') ?? document.body}
        MenuListProps={{ 'aria-labelledby': buttonId, dense: true, onKeyDown: onMenuKey }}
      >
        {macros === null ? (
          <MenuItem disabled>{translate('ra.page.loading')}</MenuItem>
        ) : macros.length === 0 ? (
          <MenuItem disabled>{translate('macros.none')}</MenuItem>
        ) : (
          macros.map((macro) => (
            <MenuItem
              key={macro.id}
              onClick={() => apply(macro)}
              {...(macro.shortcut !== null && { 'aria-keyshortcuts': String(macro.shortcut) })}
            >
              <ListItemText>{macro.name}</ListItemText>
              {macro.shortcut !== null && (
                <ListItemIcon sx={{ justifyContent: 'flex-end', ml: 2 }}>
                  <Typography variant="body2" color="text.secondary">
                    {translate('macros.shortcut_hint', { digit: macro.shortcut })}
                  </Typography>
                </ListItemIcon>
              )}
            </MenuItem>
          ))
        )}
      </Menu>
    </>
  );
}
