/**
 * The SPEC 4 date badges, for every field whose schema says `x-badge` (schemas/README.md), in lists,
 * cards and details of both apps:
 *   due date      red 'past', yellow 'upcoming' (within DUE_SOON_DAYS), no colour further away, a check
 *                 mark without a date (named by the field: 'No warranty date known' is not 'covered');
 *   contract end  green when set, yellow within a month, red when past; without an end date no badge.
 *   validity      red 'Expired' from the day after the date (in Amsterdam: common/quote-validity.ts, the
 *                 same rule the server refuses an accept by); nothing before it, nor without a date.
 * A settled record (a paid invoice, a resolved ticket) shows its date without a badge.
 * A due date with a stored state (an SLA target's, x-badge `state`, issue 35) shows what the server
 * measured rather than what this browser's clock says: met or no target the check mark (named for
 * which), breached red, paused the word; running and warning the date's own rule (a warning yellow).
 */
import Box from '@mui/material/Box';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import { useTranslate } from 'react-admin';
import { contractEndBadge, dueDateBadge } from '../../../common/format.ts';
import { validityPassed } from '../../../common/quote-validity.ts';
import type { BadgeKind } from '../../../common/schema/display.ts';

/** What an empty date means, per badge kind, where the field has no words of its own. */
export const EMPTY_BADGE_LABELS: Record<BadgeKind, string> = {
  'due-date': 'app.due_date.none',
  'contract-end': 'app.contract_end.none',
  validity: 'validity.none',
};

/** Badge colours with AA contrast for their text (the SLA states take them too). */
export const COLOURS = {
  red: { bgcolor: '#b71c1c', color: '#ffffff' },
  yellow: { bgcolor: '#ffe082', color: '#000000' },
  green: { bgcolor: '#1b5e20', color: '#ffffff' },
} as const;

/** The pill a coloured badge's words sit in. */
export const BADGE_PILL = {
  px: 1,
  borderRadius: 2,
  fontSize: '0.8125rem',
  lineHeight: 1.8,
  whiteSpace: 'nowrap',
} as const;

type State =
  | { colour: keyof typeof COLOURS; label: string }
  | { colour: 'none'; label?: undefined }
  | { colour: 'empty'; label?: undefined }
  | { colour: 'check'; label: string }
  | { colour: 'paused'; label: string };

/** The badge of a due date whose server-side state is known (x-badge `state`). */
function stateful(date: unknown, stored: unknown, translate: (key: string) => string): State {
  if (stored === null || stored === undefined || stored === '')
    return { colour: 'check', label: translate('app.sla_badge.none') };
  if (stored === 'met') return { colour: 'check', label: translate('app.sla_badge.met') };
  if (stored === 'paused') return { colour: 'paused', label: translate('app.sla_badge.paused') };
  if (stored === 'breached') return { colour: 'red', label: translate('app.sla_badge.breached') };
  const value = typeof date === 'string' || date instanceof Date ? date : null;
  const badge = dueDateBadge(value);
  if (badge === 'past') return { colour: 'red', label: translate('app.due_date.past') };
  if (badge === 'upcoming' || stored === 'warning' || badge === 'none')
    return { colour: 'yellow', label: translate('app.due_date.upcoming') };
  return { colour: 'none' };
}

function stateOf(kind: BadgeKind, date: unknown, translate: (key: string) => string): State {
  const value = typeof date === 'string' || date instanceof Date ? date : null;
  if (kind === 'validity') {
    if (value === null) return { colour: 'empty' };
    return validityPassed(value)
      ? { colour: 'red', label: translate('validity.expired') }
      : { colour: 'none' };
  }
  if (kind === 'contract-end') {
    const badge = contractEndBadge(value);
    if (badge === 'none') return { colour: 'empty' };
    return { colour: badge, label: translate(`app.contract_end.${badge}`) };
  }
  const badge = dueDateBadge(value);
  if (badge === 'none') return { colour: 'empty' };
  if (badge === 'later') return { colour: 'none' };
  return { colour: badge === 'past' ? 'red' : 'yellow', label: translate(`app.due_date.${badge}`) };
}

export interface DateBadgeProps {
  kind: BadgeKind;
  date: unknown;
  /** The date as the field shows it. */
  text: string;
  /** What an empty date means for this field ('No due date', 'No warranty date known', 'No end date'). */
  emptyLabel: string;
  /** The record no longer needs attention: the date alone. */
  settled?: boolean;
  /** A detail or card (the empty label is written out) rather than a table cell. */
  full?: boolean;
  /** The date's stored state decides (x-badge `state`): its value, empty without a target. */
  stored?: { state: unknown };
}

export function DateBadge({ kind, date, text, emptyLabel, settled, full, stored }: DateBadgeProps) {
  const translate = useTranslate();
  const state: State = stored
    ? stateful(date, stored.state, translate)
    : settled && text !== ''
      ? { colour: 'none' }
      : stateOf(kind, date, translate);
  const marker = `${kind}:${state.colour}`;

  if (state.colour === 'check' || state.colour === 'paused') {
    // A met or absent target needs no attention (the check mark, named, with its date if one is kept);
    // a paused one has no due to show: the word says why.
    return (
      <Box
        component="span"
        data-badge={marker}
        title={state.label}
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap' }}
      >
        {state.colour === 'check' && (
          <CheckCircleOutline
            fontSize="small"
            sx={{ color: 'text.secondary' }}
            titleAccess={full ? undefined : state.label}
            aria-hidden={full ? true : undefined}
          />
        )}
        {(full || state.colour === 'paused') && <span>{state.label}</span>}
      </Box>
    );
  }

  if (state.colour === 'empty') {
    if (kind !== 'due-date') return full ? <span data-badge={marker}>{emptyLabel}</span> : null;
    // SPEC 4: a check mark without a date; neutral, and named, so that it does not read as 'all fine'.
    return (
      <Box
        component="span"
        data-badge={marker}
        title={emptyLabel}
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
      >
        <CheckCircleOutline
          fontSize="small"
          sx={{ color: 'text.secondary' }}
          titleAccess={full ? undefined : emptyLabel}
          aria-hidden={full ? true : undefined}
        />
        {full && <span>{emptyLabel}</span>}
      </Box>
    );
  }
  if (state.colour === 'none') return <span data-badge={marker}>{text}</span>;
  return (
    <Box
      component="span"
      data-badge={marker}
      sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}
    >
      <span>{text}</span>
      <Box component="span" sx={{ ...COLOURS[state.colour], ...BADGE_PILL }}>
        {state.label}
      </Box>
    </Box>
  );
}
