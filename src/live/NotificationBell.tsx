/**
 * The bell in the back office's app bar (issue 19, item 3): the operator's unread count, kept up to
 * date by the live events (`ready` and `notifications` carry it), in the badge and in the button's
 * accessible name. It opens the list of notifications (a chunk of its own, fetched when first opened).
 */
import { lazy, Suspense, useState } from 'react';
import { Badge, IconButton, Tooltip } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useTranslate } from 'react-admin';
import { useLive } from './useLive.ts';

const NotificationPanel = lazy(() => import('./NotificationPanel.tsx'));

export function NotificationBell() {
  const translate = useTranslate();
  const [unread, setUnread] = useState(0);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  useLive(({ event, data }) => {
    if ((event === 'ready' || event === 'notifications') && typeof data?.unread === 'number')
      setUnread(data.unread);
  });
  const label = translate('live.bell.label', { smart_count: unread });
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={anchor ? 'true' : 'false'}
          onClick={(e) => setAnchor(e.currentTarget)}
          data-unread={unread}
        >
          <Badge badgeContent={unread} max={99} color="error">
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      {anchor && (
        <Suspense fallback={null}>
          <NotificationPanel anchor={anchor} onClose={() => setAnchor(null)} onCount={setUnread} />
        </Suspense>
      )}
    </>
  );
}
