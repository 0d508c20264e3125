/**
 * "Our promise" on the client's ticket in the portal (issue 35, item 4): when the first response and the
 * resolution are due, within how much business time, and whether they were met. Nothing when the ticket
 * has no SLA, or the tenant hides it (the server answers 404 then: setting `portal_show_sla`).
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatDateTime } from '../../../../common/format.ts';
import { anyFailed } from '../../../custom/detail/readBeforeShow.ts';
import { LoadFailed } from '../../../shell/LoadFailed.tsx';
import type { RecordActionsProps } from '../../override-contract.ts';
import { durationText, type SlaAnswer, type SlaTarget } from './answer.ts';
import { SlaCard, SlaPill } from './SlaCard.tsx';
import { useSlaClock } from './useSlaClock.ts';

function Outcome({ target }: { target: SlaTarget }) {
  const translate = useTranslate();
  const [locale = 'nl'] = useLocaleState();
  const when = (iso: string | null) => (iso ? formatDateTime(iso, locale) : '');
  if (target.state === 'met')
    return (
      <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <SlaPill colour="green">{translate('sla.promise.met_plain')}</SlaPill>
        {target.ended_at && <span>{when(target.ended_at)}</span>}
      </Box>
    );
  if (target.state === 'breached') return <SlaPill colour="red">{translate('sla.promise.breached')}</SlaPill>;
  if (target.state === 'paused' || !target.due) return <span>{translate('sla.promise.paused')}</span>;
  return <span>{translate('sla.promise.expected', { time: when(target.due) })}</span>;
}

const NAMES = ['first_response', 'resolution'] as const;

export default function PortalSlaPromise({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const { data, refetch } = useSlaClock(record, true);
  if (data === null) return null;
  if (anyFailed(data))
    return (
      <SlaCard title={translate('sla.promise.title')} testId="sla-promise">
        <LoadFailed compact text="sla.failed" onRetry={() => void refetch()} />
      </SlaCard>
    );
  const answer = data as SlaAnswer;
  const promised = NAMES.filter((name) => answer[name]);
  if (promised.length === 0) return null;
  return (
    <SlaCard title={translate('sla.promise.title')} testId="sla-promise">
      <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1.5 }}>
        {promised.map((name) => {
          const target = answer[name]!;
          return (
            <Box key={name} data-sla-target={name} data-sla-state={target.state}>
              <Typography component="dt" variant="subtitle2">
                {translate(`sla.promise.${name}`)}{' '}
                <Typography component="span" variant="body2" color="text.secondary">
                  {translate('sla.promise.within', { time: durationText(translate, target.target ?? 0) })}
                </Typography>
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, mt: 0.5 }}>
                <Outcome target={target} />
              </Typography>
            </Box>
          );
        })}
      </Box>
      {answer.business_hours && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          {translate('sla.business_time')}
        </Typography>
      )}
    </SlaCard>
  );
}
