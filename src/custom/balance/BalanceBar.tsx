/**
 * A contract period's hours as a bar and a number (issue 39, item 2): the part that remains, how many
 * hours were used, and a pill when the balance is low or used up (the rule of common/balance.ts, the
 * alert job's). The bar is a progressbar named by its contract, its value the remaining share, its text
 * the numbers, so a screen reader hears what the eye sees.
 */
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { balanceLevel, DEFAULT_BALANCE_THRESHOLD } from '../../../common/balance.ts';
import { formatMinutes } from '../../../common/format.ts';
import { BADGE_PILL, COLOURS } from '../detail/DateBadge.tsx';

export interface BalanceBarProps {
  /** The contract's name: names the bar. */
  name: string;
  /** Minutes of the period, used (registered, rounded) and remaining. */
  total: number;
  used: number;
  remaining: number;
  /** The contract's threshold in percent. */
  threshold?: number | null;
}

export function BalanceBar({ name, total, used, remaining, threshold }: BalanceBarProps) {
  const translate = useTranslate();
  const level = balanceLevel(total, remaining, threshold ?? DEFAULT_BALANCE_THRESHOLD);
  const share = total > 0 ? Math.min(100, Math.max(0, (remaining / total) * 100)) : 0;
  const text = translate('balance.remaining', {
    remaining: formatMinutes(remaining),
    total: formatMinutes(total),
  });
  return (
    <Box data-testid="balance-bar" data-level={level ?? 'ok'} sx={{ my: 1 }}>
      <Box
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1.5, rowGap: 0.5, mb: 0.5 }}
      >
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {text}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('balance.used', { used: formatMinutes(used) })}
        </Typography>
        {level && (
          <Box component="span" sx={{ ...COLOURS[level === 'empty' ? 'red' : 'yellow'], ...BADGE_PILL }}>
            {translate(`balance.${level}`)}
          </Box>
        )}
      </Box>
      <LinearProgress
        variant="determinate"
        value={share}
        color={level === 'empty' ? 'error' : level === 'low' ? 'warning' : 'primary'}
        aria-label={translate('balance.bar', { contract: name })}
        aria-valuetext={text}
        sx={{ height: 10, borderRadius: 5 }}
      />
    </Box>
  );
}
