/**
 * The portal's contract detail (SPEC 2, 4 and 8): cards for period, hours, remaining hours, start and
 * end date (with the contract end badge); each contract period with its registered and remaining time
 * and its time registrations (linking to the ticket); and for a prepaid card (period 'none') the upgrade
 * form, for a client who may `contracts.buy`. Each period's hours show as a bar and a number too (issue
 * 39, item 2); `?upgrade=1` (the low-balance mail's link) brings the upgrade form into view and focus.
 */
import { recordTitle, useReloadOnEvent } from '../../custom/detail/parts.tsx';
import { FieldCards, FieldValue as Value } from '../../custom/detail/FieldCards.tsx';
import { LinesTable } from '../../custom/detail/LinesTable.tsx';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Card, CardContent, Grid, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useBasename, useCanAccess, useShowContext, useTranslate, type RaRecord } from 'react-admin';
import { formatPeriodDate } from '../../../common/format.ts';
import { registry } from '../../schema.ts';
import { referencesOf } from '../../custom/detail/DetailScreen.tsx';
import { ShowRecord } from '../../custom/detail/ShowRecord.tsx';
import { UpgradeForm } from './UpgradeForm.tsx';
import { READ_FAILED, useReadBeforeShow } from '../../custom/detail/readBeforeShow.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { ScreenFrame } from '../../custom/detail/ScreenFrame.tsx';
import { BalanceBar } from '../../custom/balance/BalanceBar.tsx';
import { useSearchParams } from 'react-router-dom';

const PREPAID = 'none';
/** The relation of a time registration that names its ticket (loaded with the rows). */
const TICKET = 'ticket';

function TimeRegistrations({ period }: { period: RaRecord }) {
  const translate = useTranslate();
  const basename = useBasename();
  const read = useReadBeforeShow();
  const schema = registry.require('time-registrations');
  const { data: answer, refetch } = useSuspenseQuery(
    read.list(schema.name, {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'executed_at', order: 'DESC' },
      filter: { contract_period_id: period.id },
      meta: { with: referencesOf(schema, true), list: `period-${period.id}` },
    }),
  );
  useReloadOnEvent(refetch);
  if (answer === READ_FAILED)
    return (
      <LoadFailed compact text="app.contract.time_registrations_failed" onRetry={() => void refetch()} />
    );
  const data = answer ?? [];
  if (data.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('app.contract.no_time_registrations')}
      </Typography>
    );
  const plain = (name: string) => ({
    name,
    align: name === 'time_spent' ? ('right' as const) : ('left' as const),
  });
  // SPEC 2: a time registration links to its ticket, named by the ticket's reference.
  const ticket = {
    name: 'ticket_id',
    align: 'left' as const,
    cell: (row: RaRecord) => {
      if (!row.ticket_id) return null;
      const reference = String(row[TICKET]?.reference ?? row.ticket_id);
      return (
        <Link component={RouterLink} to={`${basename}/tickets/${row.ticket_id}`}>
          {reference}
        </Link>
      );
    },
  };
  return (
    <LinesTable
      resource={schema.name}
      label={translate('app.contract.time_registrations')}
      rows={data}
      columns={[
        plain('executed_at'),
        ticket,
        plain('activity_id'),
        plain('description'),
        plain('operator_id'),
        plain('time_spent'),
      ]}
    />
  );
}

function Periods({ contract }: { contract: RaRecord }) {
  const translate = useTranslate();
  const read = useReadBeforeShow();
  const schema = registry.require('contract-periods');
  const { data: answer, refetch } = useSuspenseQuery(
    read.list(schema.name, {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'period_start', order: 'DESC' },
      filter: { contract_id: contract.id },
    }),
  );
  // The remaining time of a period changes with a purchase: read again when the contract changes.
  const remaining = contract.minutes_remaining;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void refetch();
  }, [remaining, refetch]);
  if (answer === READ_FAILED)
    return <LoadFailed compact text="app.contract.periods_failed" onRetry={() => void refetch()} />;
  const data = answer ?? [];
  return (
    <Stack spacing={2} component="section" aria-labelledby="contract-periods-title">
      <Typography id="contract-periods-title" variant="h6" component="h2">
        {translate('app.contract.periods')}
      </Typography>
      {data.map((period) => (
        <Card key={period.id} component="article" aria-labelledby={`period-${period.id}`}>
          <CardContent>
            <Typography id={`period-${period.id}`} variant="subtitle1" component="h3" gutterBottom>
              {/* SPEC 9: periods read DD-MM-YYYY; a prepaid period has a start and runs until used. */}
              {formatPeriodDate(period.period_start)} –{' '}
              {period.period_end ? formatPeriodDate(period.period_end) : translate('app.contract.open_end')}
            </Typography>
            <BalanceBar
              name={String(contract.name ?? '')}
              total={Number(period.minutes_total ?? 0)}
              used={Number(period.registered_time ?? 0)}
              remaining={Number(period.minutes_remaining ?? 0)}
              threshold={contract.balance_threshold as number | undefined}
            />
            <Grid container spacing={2} component="dl" sx={{ m: 0, mb: 1 }}>
              <Grid size={{ xs: 6 }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {translate('app.contract.registered_time')}
                </Typography>
                <Typography component="dd" sx={{ m: 0 }}>
                  <Value resource={schema.name} name="registered_time" record={period} />
                </Typography>
              </Grid>
              <Grid size={{ xs: 6 }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {translate('app.contract.remaining_time')}
                </Typography>
                <Typography component="dd" sx={{ m: 0 }}>
                  <Value resource={schema.name} name="minutes_remaining" record={period} />
                </Typography>
              </Grid>
            </Grid>
            <TimeRegistrations period={period} />
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

function ContractBody() {
  const translate = useTranslate();
  const { record: loaded, refetch, isPending } = useShowContext();
  const { canAccess: canBuy } = useCanAccess({ resource: 'contracts', action: 'buy' });
  const [bought, setBought] = useState<RaRecord | null>(null);
  const [search] = useSearchParams();

  useReloadOnEvent(refetch);

  if (isPending || !loaded) return null;
  // The buy call answers the contract: shown at once, without reloading.
  const record = bought && bought.id === loaded.id ? { ...loaded, ...bought } : loaded;
  const resource = registry.require('contracts');
  const title = recordTitle(translate, resource, record);

  // One boundary for the whole screen, as the back office's detail (DetailScreen): it shows once the
  // periods and their time registrations are read (readBeforeShow.ts), so the page does not grow in
  // steps under a reader who has started to scroll.
  return (
    <Suspense fallback={null}>
      <ScreenFrame title={title}>
        <Stack spacing={2}>
          <FieldCards
            resource={resource.name}
            record={record}
            size={{ xs: 12, sm: 6, md: 4, lg: 2.4 }}
            cards={[
              { field: 'period', label: translate('app.contract.period') },
              { field: 'quantity', label: translate('app.contract.hours') },
              {
                field: 'minutes_remaining',
                label: translate('app.contract.remaining_hours'),
                testId: 'contract-remaining',
              },
              { field: 'start_date', label: translate('app.contract.start_date') },
              // The contract end badge (SPEC 4), from the schema's x-badge.
              { field: 'end_date', label: translate('app.contract.end_date') },
            ]}
          />
          {record.period === PREPAID && canBuy && (
            <UpgradeForm contract={record} onBought={setBought} focus={search.get('upgrade') === '1'} />
          )}
          <Periods contract={record} />
        </Stack>
      </ScreenFrame>
    </Suspense>
  );
}

export default function PortalContractDetail() {
  return (
    <ShowRecord resource="contracts" meta={{ with: referencesOf(registry.require('contracts'), true) }}>
      <ContractBody />
    </ShowRecord>
  );
}
