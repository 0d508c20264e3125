/**
 * The service report (issue 36, item 1) at /reports: over a period the user picks, per day, week or
 * month, the tickets created, solved and reopened, the backlog, and the median first response and
 * resolution in business time with the share of SLA targets met (./PeriodReport.tsx), the breaches
 * (./BreachesReport.tsx), then the same per operator, company or other key (./BreakdownReport.tsx), for the operators' line and the
 * companies, operators, groups, priorities, types, categories and SLAs chosen with the ticket list's
 * own header controls. For operators with tenant.reports.index (second line by default).
 */
import { useEffect, useId, useState } from 'react';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useDataProvider, usePermissions, useTranslate } from 'react-admin';
import {
  REPORT_GROUPS,
  REPORTS_PERMISSION,
  type ReportAnswer,
  type ReportGroup,
} from '../../../common/reports.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { toQueryString } from '../../dataProvider/builder.ts';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { FilterControl } from '../../resources/fields/FilterControl.tsx';
import { PERIOD_PRESETS, presetRange, type PeriodPreset } from './period.ts';
import { chosen, PAGE_FILTERS, tickets } from './parts.tsx';
import { PeriodReport } from './PeriodReport.tsx';
import { LINES, useReportSettings, type Line } from './settings.ts';
import { BreakdownReport } from './BreakdownReport.tsx';
import { BreachesReport } from './BreachesReport.tsx';

/** The controls in columns as wide as the screen allows, the custom period's two days included. */
const CONTROLS = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
  gap: 2,
  alignItems: 'end',
} as const;

export default function ReportsPage() {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const headingId = useId();
  const [settings, update] = useReportSettings();
  const { preset, custom, group, line, filters } = settings;
  const ids = chosen(filters);
  const [state, setState] = useState<{ answer?: ReportAnswer; failed?: boolean }>({});
  const [round, setRound] = useState(0);
  const allowed = Array.isArray(permissions) && permissions.includes(REPORTS_PERMISSION);
  const { from, to } = preset === 'custom' ? custom : presetRange(preset, new Date());
  const query = toQueryString({ from, to, group, ...ids, ...(line === 'all' ? {} : { line }) });

  useEffect(() => {
    if (!allowed || !from || !to || to < from) return undefined;
    let current = true;
    dataProvider.call<ReportAnswer>('GET', `reports/tickets?${query}`).then(
      (answer) => current && setState({ answer }),
      () => current && setState((shown) => ({ ...shown, failed: true })),
    );
    return () => {
      current = false;
    };
  }, [allowed, dataProvider, from, to, query, round]);

  const title = translate('reports.title');
  const answer = state.answer;

  const controls = (
    <Box sx={CONTROLS}>
      <TextField
        select
        size="small"
        label={translate('reports.period')}
        value={preset}
        onChange={(e) => update({ preset: e.target.value as PeriodPreset })}
      >
        {PERIOD_PRESETS.map((p) => (
          <MenuItem key={p} value={p}>
            {translate(`reports.presets.${p}`)}
          </MenuItem>
        ))}
      </TextField>
      {preset === 'custom' &&
        (['from', 'to'] as const).map((bound) => (
          <TextField
            key={bound}
            type="date"
            size="small"
            label={translate(`reports.${bound}`)}
            value={custom[bound]}
            onChange={(e) => {
              const day = e.target.value;
              update((now) => ({ custom: { ...now.custom, [bound]: day } }));
            }}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        ))}
      <TextField
        select
        size="small"
        label={translate('reports.group')}
        value={group}
        onChange={(e) => update({ group: e.target.value as ReportGroup })}
      >
        {REPORT_GROUPS.map((g) => (
          <MenuItem key={g} value={g}>
            {translate(`reports.groups.${g}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={translate('reports.line')}
        value={line}
        onChange={(e) => update({ line: e.target.value as Line })}
      >
        {LINES.map((l) => (
          <MenuItem key={l} value={l}>
            {translate(`reports.lines.${l}`)}
          </MenuItem>
        ))}
      </TextField>
      {PAGE_FILTERS.map((key) => (
        <Box key={key} sx={{ minWidth: 0 }}>
          {/* Seen above the control, which carries the same words as its accessible name. */}
          <Typography variant="caption" color="text.secondary" component="div" aria-hidden>
            {translate(`resources.tickets.fields.${key}`)}
          </Typography>
          <FilterControl
            resource={tickets}
            field={tickets.fields[key]!}
            label={translate(`resources.tickets.fields.${key}`)}
            value={filters[key]}
            onChange={(value) => update((now) => ({ filters: { ...now.filters, [key]: value } }))}
          />
        </Box>
      ))}
    </Box>
  );

  const body = !allowed ? (
    <Typography>{translate('app.pages.access_denied_text')}</Typography>
  ) : state.failed && !answer ? (
    <LoadFailed text="reports.failed" onRetry={() => setRound((n) => n + 1)} />
  ) : !answer ? (
    <Box aria-busy>
      <Skeleton variant="rectangular" height={240} />
    </Box>
  ) : (
    <>
      <PeriodReport answer={answer} filters={filters} query={query} headingId={headingId} />
      <Typography variant="body2" color="text.secondary">
        {translate('reports.explained')}
      </Typography>
      <BreachesReport query={query} headingId={headingId} />
      <BreakdownReport
        query={query}
        filters={filters}
        days={answer}
        headingId={headingId}
        by={settings.by}
        onBy={(by) => update({ by })}
      />
    </>
  );

  return (
    <Box component="section" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
      <DocumentTitle section={title} />
      <Typography variant="h5" component="h1" id={headingId}>
        {title}
      </Typography>
      <Typography>{translate('reports.intro')}</Typography>
      {allowed && controls}
      {body}
    </Box>
  );
}
