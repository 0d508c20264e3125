/**
 * The SLA panel of the back office's ticket detail (issue 35, item 4): the SLA that applies and why, and
 * per target what it allows, when it is due, the business time left or how far past it, and its state
 * (running, paused since when, warning, breached, met). Measured live by the server
 * (GET /tickets/{id}/sla), read again as the ticket changes (./useSlaClock.ts).
 */
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import PauseCircleOutline from '@mui/icons-material/PauseCircleOutline';
import { useLocaleState, useTranslate, type TranslateFunction } from 'react-admin';
import { formatDateTime } from '../../../../common/format.ts';
import { anyFailed } from '../../../custom/detail/readBeforeShow.ts';
import { LoadFailed } from '../../../shell/LoadFailed.tsx';
import type { RecordActionsProps } from '../../override-contract.ts';
import { durationText, remainingText, type SlaAnswer, type SlaTarget, type SlaTargetName } from './answer.ts';
import { SlaCard, SlaPill } from './SlaCard.tsx';
import { useSlaClock } from './useSlaClock.ts';

function StateLine({
  target,
  when,
}: {
  target: SlaTarget;
  when: (iso: string | null | undefined) => string;
}) {
  const translate = useTranslate();
  switch (target.state) {
    case 'breached':
      return <SlaPill colour="red">{translate('sla.state.breached')}</SlaPill>;
    case 'warning':
      return (
        <SlaPill colour="yellow">
          {translate('sla.state.warning', { threshold: target.threshold ?? 0 })}
        </SlaPill>
      );
    case 'met':
      return <SlaPill colour="green">{translate('sla.state.met')}</SlaPill>;
    case 'paused':
      return (
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
          <PauseCircleOutline fontSize="small" aria-hidden />
          {translate('sla.state.paused', { time: when(target.paused_since) })}
        </Box>
      );
    default:
      return <span>{translate('sla.state.running')}</span>;
  }
}

/** The lines under a target's state: what it allows, then its due time and what is left, or its end. */
function targetLines(translate: TranslateFunction, target: SlaTarget, when: (iso: string | null) => string) {
  if (target.target === null) return [translate('sla.no_target')];
  const lines = [translate('sla.target', { time: durationText(translate, target.target) })];
  if (target.ended_at) lines.push(translate('sla.ended', { time: when(target.ended_at) }));
  else {
    if (target.due) lines.push(translate('sla.due', { time: when(target.due) }));
    if (typeof target.remaining === 'number')
      lines.push(remainingText(translate, target.remaining, target.state === 'breached'));
  }
  return lines;
}

function TargetBox({ name, target }: { name: SlaTargetName; target: SlaTarget }) {
  const translate = useTranslate();
  const [locale = 'nl'] = useLocaleState();
  const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso, locale) : '');
  const overdue =
    target.ended_at === null &&
    typeof target.remaining === 'number' &&
    (target.remaining < 0 || target.state === 'breached');
  const lines = targetLines(translate, target, when);
  return (
    <Grid size={{ xs: 12, md: 4 }}>
      <Box
        data-sla-target={name}
        data-sla-state={target.state}
        sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, height: '100%' }}
      >
        <Typography variant="subtitle2" component="h3">
          {translate(`sla.targets.${name}`)}
        </Typography>
        {target.target !== null && (
          <Typography variant="body2" component="div" sx={{ my: 0.5 }}>
            <StateLine target={target} when={when} />
          </Typography>
        )}
        {lines.map((line, i) => (
          <Typography
            key={line}
            variant="body2"
            // The last line is the time left: red once overdue (the text says so too).
            color={overdue && i === lines.length - 1 ? 'error' : 'text.secondary'}
          >
            {line}
          </Typography>
        ))}
      </Box>
    </Grid>
  );
}

const NAMES: readonly SlaTargetName[] = ['first_response', 'next_response', 'resolution'];

function PanelBody({ answer }: { answer: SlaAnswer }) {
  const translate = useTranslate();
  const applied = answer.applied;
  if (!applied) return <Typography variant="body2">{translate('sla.none')}</Typography>;
  return (
    <>
      <Typography variant="body1" sx={{ mb: 1.5 }} data-testid="sla-applied">
        <strong>{applied.name}</strong> · {translate(`sla.source.${applied.source}`)}
      </Typography>
      <Grid container spacing={1.5}>
        {NAMES.map((name) => {
          const target = answer[name];
          // The next response shows once a client's reply started a cycle.
          return target ? <TargetBox key={name} name={name} target={target} /> : null;
        })}
      </Grid>
      {answer.business_hours && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          {translate('sla.business_time')}
        </Typography>
      )}
    </>
  );
}

export default function TicketSlaPanel({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const { data, refetch } = useSlaClock(record, true);
  // Not there for this caller (403, 404): no panel, as the other figures of a detail.
  if (data === null) return null;
  return (
    <SlaCard title={translate('sla.title')} testId="sla-panel">
      {anyFailed(data) ? (
        <LoadFailed compact text="sla.failed" onRetry={() => void refetch()} />
      ) : (
        <PanelBody answer={data as SlaAnswer} />
      )}
    </SlaCard>
  );
}
