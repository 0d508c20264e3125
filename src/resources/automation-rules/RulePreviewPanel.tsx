/**
 * A rule's "which open tickets match now" (issue 37, item 1): a card below the rule's fields with the
 * count of open tickets its conditions hold for, among those the operator may list, and a link that
 * opens the ticket list filtered by the same builder (GET /api/automation-rules/{id}/matches answers
 * both, so the count and the list agree). Read before the detail shows, as the other cards.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { storedUserMay } from '../../authProvider/index.ts';
import { anyFailed, useReadBeforeShow } from '../../custom/detail/readBeforeShow.ts';
import { builderToLinkFilter } from '../../custom/list/filters.ts';
import { listLink } from '../../custom/list/linkedFilter.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { SlaCard } from '../tickets/sla/SlaCard.tsx';
import type { RecordActionsProps } from '../override-contract.ts';

const RESOURCE = 'automation-rules';
const key = (name: string) => `resources.${RESOURCE}.preview.${name}`;

interface Matches {
  count: number;
  builder: unknown[];
}

export default function RulePreviewPanel({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const read = useReadBeforeShow();
  // The call needs the ticket list too: without it there is nothing to preview, and no request.
  const allowed = storedUserMay('backoffice', 'tickets', 'index');
  const { data, refetch } = useSuspenseQuery(
    read.call<Matches>(RESOURCE, `${RESOURCE}/${record.id}/matches`, allowed),
  );
  if (!data) return null;
  const title = translate(key('title'));
  if (anyFailed(data))
    return (
      <SlaCard title={title} testId="rule-preview">
        <LoadFailed compact text="app.errors.generic" onRetry={() => void refetch()} />
      </SlaCard>
    );
  const { count, builder } = data as Matches;
  return (
    <SlaCard title={title} testId="rule-preview">
      {count === 0 ? (
        <Typography color="text.secondary">{translate(key('none'))}</Typography>
      ) : (
        <>
          <Typography sx={{ mb: 1 }}>{translate(key('count'), { smart_count: count })}</Typography>
          <Link component={RouterLink} to={listLink('/tickets', builderToLinkFilter(builder))}>
            {translate(key('show'))}
          </Link>
        </>
      )}
    </SlaCard>
  );
}
