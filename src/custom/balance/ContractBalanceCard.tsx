/**
 * The hours of the ticket's company's contracts below a ticket's fields, in the portal and the back
 * office (issue 39, item 2): each running contract's current period as a bar and a number
 * (GET /tickets/{id}/contract-balance), and for a prepaid card that runs low, to whoever may buy, the way
 * to buy more (the contract's page with `?upgrade=1`: its upgrade form in view, or in the back office its
 * dialog open). Nothing when the company has no running contract with a period.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useBasename, useCanAccess, useTranslate } from 'react-admin';
import type { PeriodBalance } from '../../../common/balance.ts';
import { formatPeriodDate } from '../../../common/format.ts';
import { BalanceBar } from './BalanceBar.tsx';
import { useReloadOnEvent } from '../detail/parts.tsx';
import { anyFailed, useReadBeforeShow } from '../detail/readBeforeShow.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import type { RecordActionsProps } from '../../resources/override-contract.ts';
import { SlaCard } from '../../resources/tickets/sla/SlaCard.tsx';

export default function ContractBalanceCard({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const basename = useBasename();
  const read = useReadBeforeShow();
  const { canAccess: canBuy } = useCanAccess({ resource: 'contracts', action: 'buy' });
  const { data, refetch } = useSuspenseQuery(
    read.call<{ data: PeriodBalance[] }>('contracts', `tickets/${record.id}/contract-balance`),
  );
  useReloadOnEvent(refetch);
  if (data === null) return null;
  if (anyFailed(data))
    return (
      <SlaCard title={translate('balance.title')} testId="contract-balance">
        <LoadFailed compact text="balance.failed" onRetry={() => void refetch()} />
      </SlaCard>
    );
  const balances = (data as { data: PeriodBalance[] }).data;
  if (balances.length === 0) return null;
  return (
    <SlaCard title={translate('balance.title')} testId="contract-balance">
      <Box sx={{ display: 'grid', gap: 2 }}>
        {balances.map((b) => (
          <Box key={b.contract_id} component="article" aria-labelledby={`balance-${b.contract_id}`}>
            <Typography id={`balance-${b.contract_id}`} variant="subtitle1" component="h3">
              <Link component={RouterLink} to={`${basename}/contracts/${b.contract_id}`}>
                {b.contract_name}
              </Link>
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {b.prepaid
                ? translate('balance.prepaid')
                : translate('balance.period', {
                    period: `${formatPeriodDate(b.period_start)} – ${b.period_end ? formatPeriodDate(b.period_end) : ''}`,
                  })}
            </Typography>
            <BalanceBar
              name={b.contract_name}
              total={b.minutes_total}
              used={b.registered_time}
              remaining={b.minutes_remaining}
              threshold={b.balance_threshold}
            />
            {b.prepaid && b.level && canBuy && (
              <Button
                component={RouterLink}
                to={`${basename}/contracts/${b.contract_id}?upgrade=1`}
                variant="outlined"
                size="small"
              >
                {translate('balance.buy')}
              </Button>
            )}
          </Box>
        ))}
      </Box>
    </SlaCard>
  );
}
