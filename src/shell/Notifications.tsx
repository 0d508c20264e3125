import { useEffect, useState } from 'react';
import { Alert, Snackbar } from '@mui/material';
import { useNotificationContext, useTranslate, type NotificationPayload } from 'react-admin';
import { SILENT } from './errors.ts';

/** SPEC 8/9: toasts last 5000 ms, bottom-center; MUI's Snackbar pauses its timer while hovered. */
export const TOAST_DURATION_MS = 5000;

const isSilent = (n: NotificationPayload) => n.message === SILENT;

/**
 * React-admin's toasts, in the spec's form, one at a time from react-admin's queue: silent errors are
 * dropped, and a message of several lines (a 422) shows its first line in bold and the field lines under it.
 */
export function Notifications() {
  const { notifications, takeNotification } = useNotificationContext();
  const translate = useTranslate();
  const [closing, setClosing] = useState(false);
  const current = notifications[0];

  useEffect(() => {
    if (current && isSilent(current)) takeNotification();
  }, [current, takeNotification]);

  if (!current || isSilent(current)) return null;
  const args = current.notificationOptions?.messageArgs;
  const text =
    typeof current.message === 'string' ? translate(current.message, { _: current.message, ...args }) : '';
  // A text with a line break is a 422's (shell/errors.ts): its first line, the message, in bold.
  const [first, ...more] = text.split('\n');
  const bold = more.length > 0;
  const rest = more.filter((line) => line !== '');
  const severity =
    current.type === 'warning' || current.type === 'error' || current.type === 'success'
      ? current.type
      : 'info';
  return (
    <Snackbar
      open={!closing}
      autoHideDuration={current.notificationOptions?.autoHideDuration ?? TOAST_DURATION_MS}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      onClose={(_e, reason) => reason !== 'clickaway' && setClosing(true)}
      slotProps={{
        transition: {
          onExited: () => {
            takeNotification();
            setClosing(false);
          },
        },
      }}
    >
      <Alert
        severity={severity}
        variant="filled"
        onClose={() => setClosing(true)}
        closeText={translate('app.common.close')}
        role={severity === 'error' ? 'alert' : 'status'}
      >
        {bold ? <strong>{first}</strong> : first}
        {rest.map((line, i) => (
          <div key={i}>{line}</div>
        ))}
      </Alert>
    </Snackbar>
  );
}
