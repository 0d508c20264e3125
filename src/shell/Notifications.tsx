import { useEffect, useState } from 'react';
import { Alert, Snackbar } from '@mui/material';
import { useNotificationContext, useTranslate, type NotificationPayload } from 'react-admin';
import { SILENT } from './errors.ts';

/** SPEC 8/9: toasts last 5000 ms, bottom-center; MUI's Snackbar pauses its timer while hovered. */
export const TOAST_DURATION_MS = 5000;

/**
 * React-admin's toasts, in the spec's form: silent errors are dropped, and a message of several lines
 * (a 422) shows its first line in bold and the field lines under it.
 */
export function Notifications() {
  const { notifications, takeNotification } = useNotificationContext();
  const translate = useTranslate();
  const [current, setCurrent] = useState<NotificationPayload | undefined>();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (current || notifications.length === 0) return;
    const next = takeNotification();
    if (!next || next.message === SILENT || next.message === 'ra.notification.http_error_silent') return;
    setCurrent(next);
    setOpen(true);
  }, [notifications, current, takeNotification]);

  if (!current) return null;
  const text = typeof current.message === 'string' ? translate(current.message, { _: current.message, ...current.notificationOptions?.messageArgs }) : '';
  const [first, ...rest] = text.split('\n');
  const severity = current.type === 'warning' ? 'warning' : current.type === 'error' ? 'error' : current.type === 'success' ? 'success' : 'info';
  return (
    <Snackbar
      open={open}
      autoHideDuration={current.notificationOptions?.autoHideDuration ?? TOAST_DURATION_MS}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      onClose={(_e, reason) => reason !== 'clickaway' && setOpen(false)}
      slotProps={{ transition: { onExited: () => setCurrent(undefined) } }}
    >
      <Alert severity={severity} variant="filled" onClose={() => setOpen(false)} role={severity === 'error' ? 'alert' : 'status'}>
        {rest.length ? <strong>{first}</strong> : first}
        {rest.map((line, i) => (
          <div key={i}>{line}</div>
        ))}
      </Alert>
    </Snackbar>
  );
}
