/**
 * SPEC 5: a destructive action asks 'Do you really want to delete this?'; refusing rejects with
 * 'Not confirmed.'. `confirm()` returns a promise that resolves on yes and rejects with
 * `NotConfirmedError` on no (or Escape, or a click beside the dialog); render `dialog` somewhere.
 */
import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';

export class NotConfirmedError extends Error {
  constructor(message = 'Not confirmed.') {
    super(message);
    this.name = 'NotConfirmedError';
  }
}

export function useConfirm(): { confirm: () => Promise<void>; dialog: ReactNode } {
  const translate = useTranslate();
  const titleId = useId();
  const textId = useId();
  const [open, setOpen] = useState(false);
  const pending = useRef<{ resolve: () => void; reject: (e: Error) => void } | null>(null);

  const confirm = useCallback(
    () =>
      new Promise<void>((resolve, reject) => {
        pending.current?.reject(new NotConfirmedError(translate('app.errors.not_confirmed')));
        pending.current = { resolve, reject };
        setOpen(true);
      }),
    [translate],
  );

  const settle = (yes: boolean) => {
    setOpen(false);
    const p = pending.current;
    pending.current = null;
    if (yes) p?.resolve();
    else p?.reject(new NotConfirmedError(translate('app.errors.not_confirmed')));
  };

  const dialog = (
    <Dialog open={open} onClose={() => settle(false)} aria-labelledby={titleId} aria-describedby={textId}>
      <DialogTitle id={titleId}>{translate('app.confirm.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{translate('app.confirm.delete')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => settle(false)}>{translate('app.confirm.no')}</Button>
        <Button onClick={() => settle(true)} color="error" variant="contained">
          {translate('app.confirm.yes')}
        </Button>
      </DialogActions>
    </Dialog>
  );
  return { confirm, dialog };
}
