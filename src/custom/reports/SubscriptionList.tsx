/**
 * The operator's own report subscriptions (GET /api/report-subscriptions), each with what it sends and
 * how often, paused or not; pause, resume or delete it (PUT, DELETE /api/report-subscriptions/{id}).
 */
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import type { ReportSubscription } from '../../../common/report-subscriptions.ts';
import { LINES } from './settings.ts';
import { Loaded, type ReportState } from './useReport.tsx';

export function SubscriptionList({
  state,
  headingId,
}: {
  state: ReportState<{ data: ReportSubscription[] }>;
  headingId: string;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const t = (key: string, values?: Record<string, unknown>) =>
    translate(`reports.subscriptions.${key}`, values);

  const act = async (method: 'PUT' | 'DELETE', s: ReportSubscription, body?: object) => {
    try {
      await dataProvider.call(method, `report-subscriptions/${s.id}`, { body });
      if (method === 'DELETE') notify('reports.subscriptions.deleted', { type: 'success' });
      state.retry();
    } catch {
      notify('reports.subscriptions.failed', { type: 'error' });
    }
  };

  const nameOf = (s: ReportSubscription) =>
    t('summary', {
      report: translate(`reports.tabs.${s.report}`),
      frequency: t(`frequencies.${s.frequency}`).toLocaleLowerCase(),
      delivery: t(`deliveries.${s.delivery}`),
    });
  const detailsOf = (s: ReportSubscription) => {
    const by =
      s.report === 'time'
        ? translate(`reports.columns.time_${s.by}`)
        : translate(`resources.tickets.fields.${s.by}`);
    const line = translate(`reports.lines.${s.line ? String(s.line) : LINES[0]}`);
    const filters = Object.values(s.filters).filter((ids) => ids.length > 0).length;
    const text = t('details', { group: t(`groups.${s.group}`), line, by });
    return filters ? `${text}; ${t('filters', { smart_count: filters })}` : text;
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Typography component="h2" variant="h6" id={headingId}>
        {t('title')}
      </Typography>
      <Loaded state={state} height={60}>
        {({ data }) =>
          data.length === 0 ? (
            <Typography color="text.secondary">{t('empty')}</Typography>
          ) : (
            <List aria-labelledby={headingId}>
              {data.map((s) => {
                const name = nameOf(s);
                const label = (action: string) => t('action_label', { action: t(action), name });
                return (
                  <ListItem
                    key={s.id}
                    divider
                    disableGutters
                    sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
                  >
                    <ListItemText primary={name} secondary={detailsOf(s)} sx={{ flex: '1 1 240px' }} />
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      {s.paused && <Chip size="small" label={t('paused')} />}
                      <Button
                        size="small"
                        aria-label={label(s.paused ? 'resume' : 'pause')}
                        onClick={() => void act('PUT', s, { paused: !s.paused })}
                      >
                        {t(s.paused ? 'resume' : 'pause')}
                      </Button>
                      <Button
                        size="small"
                        color="error"
                        aria-label={label('delete')}
                        onClick={() => void act('DELETE', s)}
                      >
                        {t('delete')}
                      </Button>
                    </Stack>
                  </ListItem>
                );
              })}
            </List>
          )
        }
      </Loaded>
    </Paper>
  );
}
