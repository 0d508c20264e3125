/**
 * "Subscribe by mail" (issue 36, item 4): the report as the page shows it (its tab, grouping, line,
 * filters and breakdown key; never its dates) mailed weekly or monthly, as XLSX files or a link
 * (POST /api/report-subscriptions).
 */
import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import ScheduleSend from '@mui/icons-material/ScheduleSend';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import {
  DELIVERIES,
  FREQUENCIES,
  SUBSCRIPTION_FILTERS,
  type Delivery,
  type Frequency,
  type SubscribedReport,
} from '../../../common/report-subscriptions.ts';
import { chosen } from './parts.tsx';
import type { ReportSettings } from './settings.ts';

/** What the page's settings keep as a subscription's (common/report-subscriptions.ts). */
function subscribed(settings: ReportSettings, report: SubscribedReport) {
  const ids = chosen(settings.filters);
  const filters = Object.fromEntries(
    SUBSCRIPTION_FILTERS[report].flatMap((key) => (ids[key] ? [[key, ids[key]]] : [])),
  );
  return {
    report,
    group: settings.group,
    ...(settings.line === 'all' ? {} : { line: Number(settings.line) }),
    by: report === 'time' ? settings.timeBy : settings.by,
    filters,
  };
}

/** `report`: the page's tab, one a subscription can mail. */
export function SubscribeButton({
  settings,
  report,
  onSaved,
}: {
  settings: ReportSettings;
  report: SubscribedReport;
  onSaved: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [frequency, setFrequency] = useState<Frequency>('weekly');
  const [delivery, setDelivery] = useState<Delivery>('xlsx');
  const t = (key: string, values?: Record<string, unknown>) =>
    translate(`reports.subscriptions.${key}`, values);

  const save = async () => {
    setBusy(true);
    try {
      const body = { ...subscribed(settings, report), frequency, delivery };
      await dataProvider.call('POST', 'report-subscriptions', { body });
      notify('reports.subscriptions.saved', { type: 'success' });
      setOpen(false);
      onSaved();
    } catch {
      notify('reports.subscriptions.failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<ScheduleSend />}
        onClick={() => setOpen(true)}
        sx={{ alignSelf: 'flex-start' }}
      >
        {t('subscribe')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={titleId} fullWidth maxWidth="sm">
        <DialogTitle id={titleId}>{t('dialog_title')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <DialogContentText>
            {t('dialog_intro', { report: translate(`reports.tabs.${report}`) })}
          </DialogContentText>
          <FormControl>
            <FormLabel id={`${titleId}-frequency`}>{t('frequency')}</FormLabel>
            <RadioGroup
              aria-labelledby={`${titleId}-frequency`}
              value={frequency}
              onChange={(e) => setFrequency(e.target.value as Frequency)}
            >
              {FREQUENCIES.map((f) => (
                <FormControlLabel
                  key={f}
                  value={f}
                  control={<Radio />}
                  label={`${t(`frequencies.${f}`)}: ${t(`frequency_hints.${f}`)}`}
                />
              ))}
            </RadioGroup>
          </FormControl>
          <FormControl>
            <FormLabel id={`${titleId}-delivery`}>{t('delivery')}</FormLabel>
            <RadioGroup
              aria-labelledby={`${titleId}-delivery`}
              value={delivery}
              onChange={(e) => setDelivery(e.target.value as Delivery)}
            >
              {DELIVERIES.map((d) => (
                <FormControlLabel key={d} value={d} control={<Radio />} label={t(`deliveries.${d}`)} />
              ))}
            </RadioGroup>
          </FormControl>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('cancel')}</Button>
          <Button variant="contained" disabled={busy} onClick={() => void save()}>
            {t('save')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
