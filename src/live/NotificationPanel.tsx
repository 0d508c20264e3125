/**
 * The operator's notifications, newest first, under the bell: each opens its ticket and is marked
 * read; 'Mark all read'; and per kind whether it comes by e-mail too (in the app always).
 *
 * GET /api/notifications?perPage=20 · POST /api/notifications/{id}/read · POST /api/notifications/read-all
 * GET and PUT /api/notification-preferences
 */
import { useEffect, useId, useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  Divider,
  FormControlLabel,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Popover,
  Typography,
} from '@mui/material';
import { useBasename, useDataProvider, useLocale, useTranslate } from 'react-admin';
import { pathFor } from '../shell/routes.ts';
import { useNavigate } from 'react-router-dom';
import type { ServiceDeskDataProvider } from '../dataProvider/index.ts';
import { useLive } from './useLive.ts';

interface Notification {
  id: number;
  kind: string;
  ticket_id: number | null;
  ticket_reference: string | null;
  ticket_description: string | null;
  actor_name: string | null;
  /** Its own words (a rule's notice, a disabled webhook's reason), shown under its kind. */
  text?: string | null;
  read_at: string | null;
  created_at: string;
}

interface Preference {
  kind: string;
  email: boolean;
}

const PAGE = 20;

export default function NotificationPanel({
  anchor,
  onClose,
  onCount,
}: {
  anchor: HTMLElement;
  onClose: () => void;
  onCount: (unread: number) => void;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const navigate = useNavigate();
  const basename = useBasename();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const headingId = useId();
  const [items, setItems] = useState<Notification[] | undefined>();
  const [failed, setFailed] = useState(false);
  const [preferences, setPreferences] = useState<Preference[] | undefined>();
  const [showPreferences, setShowPreferences] = useState(false);

  // Read again when opened, when a notification comes and after 'Mark all read'.
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    dataProvider.call<{ data: Notification[]; unread: number }>('GET', `/notifications?perPage=${PAGE}`).then(
      (answer) => {
        if (!current) return;
        setItems(answer.data);
        onCount(answer.unread);
        setFailed(false);
      },
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [dataProvider, onCount, version]);
  useLive(({ event }) => {
    if (event === 'notifications') setVersion((v) => v + 1);
  });

  const open = async (n: Notification) => {
    if (!n.read_at) {
      const answer = await dataProvider.call<{ unread: number }>('POST', `/notifications/${n.id}/read`);
      onCount(answer.unread);
    }
    onClose();
    if (n.ticket_id) navigate(`${basename}${pathFor('tickets.show', n.ticket_id)}`);
  };
  const readAll = async () => {
    const answer = await dataProvider.call<{ unread: number }>('POST', '/notifications/read-all');
    onCount(answer.unread);
    setVersion((v) => v + 1);
  };
  const togglePreferences = async () => {
    setShowPreferences((v) => !v);
    if (!preferences) {
      const answer = await dataProvider.call<{ data: Preference[] }>('GET', '/notification-preferences');
      setPreferences(answer.data);
    }
  };
  const choose = async (kind: string, email: boolean) => {
    const answer = await dataProvider.call<{ data: Preference[] }>('PUT', '/notification-preferences', {
      body: { data: [{ kind, email }] },
    });
    setPreferences(answer.data);
  };
  const when = (iso: string) =>
    new Date(iso).toLocaleString(locale === 'en' ? 'en-GB' : locale, {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });

  return (
    <Popover
      open
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-labelledby': headingId,
          sx: { width: { xs: 'calc(100vw - 16px)', sm: 380 }, maxHeight: '80vh' },
        } as object,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, pt: 1.5, pb: 1, gap: 1 }}>
        <Typography id={headingId} component="h2" variant="h6" sx={{ flex: 1, fontSize: '1.1rem' }}>
          {translate('live.bell.title')}
        </Typography>
        <Button size="small" onClick={() => void readAll()} disabled={!items?.some((n) => !n.read_at)}>
          {translate('live.bell.read_all')}
        </Button>
      </Box>
      <Divider />
      {failed && (
        <Typography role="alert" sx={{ p: 2 }}>
          {translate('live.bell.failed')}
        </Typography>
      )}
      {items && items.length === 0 && <Typography sx={{ p: 2 }}>{translate('live.bell.empty')}</Typography>}
      {items && items.length > 0 && (
        <List dense disablePadding aria-labelledby={headingId}>
          {items.map((n) => (
            <ListItem key={n.id} disablePadding>
              <ListItemButton
                onClick={() => void open(n)}
                sx={{ alignItems: 'flex-start', bgcolor: n.read_at ? undefined : 'action.selected' }}
              >
                <ListItemText
                  primary={
                    <>
                      {translate(`enums.notificationKinds.${n.kind}`, { _: n.kind })}
                      {!n.read_at && (
                        <Box component="span" sx={visuallyHidden}>
                          {` (${translate('live.bell.unread')})`}
                        </Box>
                      )}
                    </>
                  }
                  secondary={[
                    n.text,
                    [n.ticket_reference, n.ticket_description].filter(Boolean).join(' · '),
                    [n.actor_name, when(n.created_at)].filter(Boolean).join(' · '),
                  ]
                    .filter(Boolean)
                    .join(' — ')}
                  slotProps={{
                    primary: { sx: { fontWeight: n.read_at ? 400 : 700 } },
                    secondary: { sx: { color: 'text.primary' } },
                  }}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
      <Divider />
      <Box sx={{ px: 2, py: 1 }}>
        <Button size="small" onClick={() => void togglePreferences()} aria-expanded={showPreferences}>
          {translate('live.bell.email_choices')}
        </Button>
        {showPreferences && preferences && (
          <Box
            role="group"
            aria-label={translate('live.bell.email_choices')}
            sx={{ display: 'flex', flexDirection: 'column' }}
          >
            {preferences.map((p) => (
              <FormControlLabel
                key={p.kind}
                control={
                  <Checkbox
                    size="small"
                    checked={p.email}
                    onChange={(e) => void choose(p.kind, e.target.checked)}
                  />
                }
                label={translate(`enums.notificationKinds.${p.kind}`, { _: p.kind })}
              />
            ))}
          </Box>
        )}
      </Box>
    </Popover>
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
