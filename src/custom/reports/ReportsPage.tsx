/**
 * The service report (issue 36, item 1) at /reports: over a period the user picks, per day, week or
 * month, the tickets created, solved and reopened, the backlog, and the median first response and
 * resolution in business time with the share of SLA targets met (./PeriodReport.tsx), the breaches
 * (./BreachesReport.tsx), then the same per operator, company or other key (./BreakdownReport.tsx), for the operators' line and the
 * companies, operators, groups, priorities, types, categories and SLAs chosen with the ticket list's
 * own header controls. For operators with tenant.reports.index (second line by default). The report as
 * shown can be subscribed to by mail (./SubscribeDialog.tsx); the operator's subscriptions are listed
 * last (./SubscriptionList.tsx).
 */
import { useId } from 'react';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { usePermissions, useTranslate } from 'react-admin';
import {
  REPORT_GROUPS,
  REPORTS_PERMISSION,
  type ReportAnswer,
  type ReportGroup,
} from '../../../common/reports.ts';
import { toQueryString } from '../../dataProvider/builder.ts';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { FilterControl } from '../../resources/fields/FilterControl.tsx';
import { PERIOD_PRESETS, presetRange, type PeriodPreset } from './period.ts';
import { chosen, PAGE_FILTERS, tickets } from './parts.tsx';
import { PeriodReport } from './PeriodReport.tsx';
import { LINES, TABS, useReportSettings, type Line } from './settings.ts';
import { TimeReport } from './TimeReport.tsx';
import { ContractsReport } from './ContractsReport.tsx';
import { Loaded, useReport } from './useReport.tsx';
import { BreakdownReport } from './BreakdownReport.tsx';
import { BreachesReport } from './BreachesReport.tsx';
import { SubscribeButton } from './SubscribeDialog.tsx';
import { SubscriptionList } from './SubscriptionList.tsx';
import {
  SUBSCRIBED_REPORTS,
  type ReportSubscription,
  type SubscribedReport,
} from '../../../common/report-subscriptions.ts';
import { SatisfactionReport } from './SatisfactionReport.tsx';

/** The ticket filters the time report knows too (the ticket's company, the operator). */
const TIME_FILTERS = ['company_id', 'operator_id'] as const;

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
  const headingId = useId();
  const subscriptionsId = useId();
  const [settings, update] = useReportSettings();
  const { preset, custom, group, line, filters, tab } = settings;
  const ids = chosen(filters);
  const allowed = Array.isArray(permissions) && permissions.includes(REPORTS_PERMISSION);
  const { from, to } = preset === 'custom' ? custom : presetRange(preset, new Date());
  const query = toQueryString({ from, to, group, ...ids, ...(line === 'all' ? {} : { line }) });

  const valid = !!from && !!to && to >= from;
  const subscriptions = useReport<{ data: ReportSubscription[] }>('report-subscriptions', allowed);
  const periods = useReport<ReportAnswer>(`reports/tickets?${query}`, allowed && valid && tab === 'tickets');
  // The time report knows the company and operator of the ticket filters, and the line.
  const timeIds = Object.fromEntries(TIME_FILTERS.flatMap((k) => (ids[k] ? [[k, ids[k]]] : [])));
  const timeQuery = toQueryString({ from, to, group, ...timeIds, ...(line === 'all' ? {} : { line }) });
  const contractsQuery = toQueryString({
    from,
    to,
    ...(ids.company_id ? { company_id: ids.company_id } : {}),
  });

  const title = translate('reports.title');
  const ticketControls = tab !== 'satisfaction';
  // Only the reports a subscription can mail offer one (common/report-subscriptions.ts).
  const subscribable = (SUBSCRIBED_REPORTS as readonly string[]).includes(tab);

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
      {/* The satisfaction report follows the period only: its ratings have no grouping, line or filters. */}
      {ticketControls && (
        <>
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
        </>
      )}
    </Box>
  );

  const ticketsTab = (
    <Loaded state={periods} height={240}>
      {(answer) => (
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
      )}
    </Loaded>
  );

  const timeTab = (
    <>
      <Typography variant="body2" color="text.secondary">
        {translate('reports.time.filters_note')}
      </Typography>
      <TimeReport
        query={timeQuery}
        headingId={headingId}
        by={settings.timeBy}
        onBy={(timeBy) => update({ timeBy })}
      />
      <Typography component="h2" variant="h6">
        {translate('reports.contracts.title')}
      </Typography>
      <ContractsReport query={contractsQuery} headingId={headingId} />
    </>
  );

  const satisfactionTab = (
    <SatisfactionReport
      from={from}
      to={to}
      headingId={headingId}
      by={settings.satisfactionBy}
      onBy={(satisfactionBy) => update({ satisfactionBy })}
    />
  );

  const body = !allowed ? (
    <Typography>{translate('app.pages.access_denied_text')}</Typography>
  ) : (
    <>
      <Tabs
        value={tab}
        onChange={(_, value) => update({ tab: value })}
        aria-label={title}
        // Three tabs are wider than a phone: they scroll, with arrows, rather than being cut off.
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
      >
        {TABS.map((name) => (
          <Tab key={name} value={name} label={translate(`reports.tabs.${name}`)} />
        ))}
      </Tabs>
      {valid && { tickets: ticketsTab, time: timeTab, satisfaction: satisfactionTab }[tab]}
      <SubscriptionList state={subscriptions} headingId={subscriptionsId} />
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
      {allowed && subscribable && (
        <SubscribeButton settings={settings} report={tab as SubscribedReport} onSaved={subscriptions.retry} />
      )}
      {body}
    </Box>
  );
}
