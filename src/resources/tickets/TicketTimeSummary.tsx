/**
 * The time on a ticket, in its back-office detail header (issue 18, item 7): the ticket's total time
 * (the sum of its time registrations, HH:MM as SPEC 9 shows minutes) and, when the ticket's company has
 * a contract running today, the time remaining on each (SPEC 3: minutes_remaining; a prepaid card is a
 * contract of period 'none'). Read again after every change (the global reload: a time logged in the
 * ticket's tab).
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Schedule from '@mui/icons-material/Schedule';
import HourglassBottom from '@mui/icons-material/HourglassBottom';
import { useSuspenseQueries } from '@tanstack/react-query';
import { useTranslate, type RaRecord } from 'react-admin';
import { storedUserMay } from '../../authProvider/index.ts';
import { anyFailed, useReadBeforeShow } from '../../custom/detail/readBeforeShow.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { formatMinutes } from '../../../common/format.ts';
import { RAW_BUILDER_KEY } from '../../dataProvider/builder.ts';
import { useReloadOnEvent } from '../../custom/detail/parts.tsx';
import type { RecordActionsProps } from '../override-contract.ts';

/** The sum the ticket answers with `withSum[]=timeRegistrations.time_spent`. */
const TOTAL = 'timeRegistrations_sum_time_spent';

/** A contract runs today: started, and not ended before today (dates as 'YYYY-MM-DD'). */
export function runsOn(contract: RaRecord, today: string): boolean {
  const start = typeof contract.start_date === 'string' ? contract.start_date.slice(0, 10) : undefined;
  const end = typeof contract.end_date === 'string' ? contract.end_date.slice(0, 10) : undefined;
  return (start === undefined || start <= today) && (end === undefined || end >= today);
}

const localDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** A chip whose text wraps inside the group's width instead of running out of it. */
const WRAPPING = { height: 'auto', py: 0.5, '& .MuiChip-label': { whiteSpace: 'normal' } } as const;

const TOTAL_META = { withSum: ['timeRegistrations.time_spent'], list: 'time-summary' };

export default function TicketTimeSummary({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const read = useReadBeforeShow();
  const companyId = typeof record.company_id === 'number' ? record.company_id : undefined;
  const contractsParams = {
    pagination: { page: 1, perPage: 10 },
    sort: { field: 'name', order: 'ASC' as const },
    filter: { [RAW_BUILDER_KEY]: [{ whereHas: ['companies', [{ where: ['id', '=', companyId] }]] }] },
    meta: { list: 'ticket-contracts' },
  };
  // Read before the header shows (readBeforeShow.ts): the chips arrive with the buttons.
  const [totalQuery, contractsQuery] = useSuspenseQueries({
    queries: [
      read.one(
        'tickets',
        { id: record.id, meta: TOTAL_META },
        storedUserMay('backoffice', 'time-registrations', 'list'),
      ),
      read.list(
        'contracts',
        contractsParams,
        companyId !== undefined && storedUserMay('backoffice', 'contracts', 'list'),
      ),
    ],
  });
  useReloadOnEvent(totalQuery.refetch);
  useReloadOnEvent(contractsQuery.refetch);
  if (anyFailed(totalQuery.data, contractsQuery.data)) {
    return (
      <LoadFailed
        compact
        text="ticket_time.failed"
        onRetry={() => {
          void totalQuery.refetch();
          void contractsQuery.refetch();
        }}
      />
    );
  }
  const total = totalQuery.data as RaRecord | null;
  const contracts = contractsQuery.data as RaRecord[] | null;

  const minutes = total ? Number(total[TOTAL] ?? 0) : undefined;
  const today = localDay(new Date());
  const running = (contracts ?? []).filter((c) => runsOn(c, today));
  if (minutes === undefined && running.length === 0) return null;
  return (
    <Box
      role="group"
      aria-label={translate('ticket_time.label')}
      // minWidth 0: as a flex item the group may be narrower than its widest chip, which then wraps its
      // text (a contract's name and what is left of it did not fit a phone in German).
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', minWidth: 0 }}
    >
      {minutes !== undefined && (
        <Chip
          icon={<Schedule />}
          variant="outlined"
          label={translate('ticket_time.total', { time: formatMinutes(minutes) })}
        />
      )}
      {running.map((contract) => (
        <Chip
          key={contract.id}
          icon={<HourglassBottom />}
          variant="outlined"
          color={Number(contract.minutes_remaining) < 0 ? 'error' : 'default'}
          sx={WRAPPING}
          label={translate('ticket_time.remaining', {
            contract: String(contract.name),
            time: formatMinutes(Number(contract.minutes_remaining ?? 0)),
          })}
        />
      ))}
    </Box>
  );
}
