/**
 * Reads a ticket's SLA clock (GET /tickets/{id}/sla) for its detail, before the detail shows
 * (readBeforeShow.ts), and again whenever it may have changed: the global reload (a change saved here),
 * a live event about the ticket or a message on it (a change made elsewhere: a reply meets a target),
 * and every minute while a target runs, since business minutes pass without any event.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import type { RaRecord } from 'react-admin';
import { useReadBeforeShow, type ReadFailed } from '../../../custom/detail/readBeforeShow.ts';
import { useReloadOnEvent } from '../../../custom/detail/parts.tsx';
import { useLive } from '../../../live/useLive.ts';
import type { SlaAnswer } from './answer.ts';

const MINUTE_MS = 60_000;

/** The ticket's clock; null when there is none for this caller (a portal that hides it), or READ_FAILED. */
export function useSlaClock(record: RaRecord, allowed: boolean) {
  const read = useReadBeforeShow();
  const query = useSuspenseQuery({
    ...read.call<SlaAnswer>('tickets', `tickets/${record.id}/sla`, allowed),
    refetchInterval: (q) => {
      const data = q.state.data as SlaAnswer | null | ReadFailed | undefined;
      if (!data || typeof data !== 'object') return false;
      const running = [data.first_response, data.next_response, data.resolution].some(
        (t) =>
          t && (t.state === 'running' || t.state === 'warning' || (t.state === 'breached' && !t.ended_at)),
      );
      return running ? MINUTE_MS : false;
    },
  });
  const { refetch } = query;
  useReloadOnEvent(refetch);
  useLive(({ event, data }) => {
    const id = String(record.id);
    const aboutTicket =
      (event === 'record' && data?.resource === 'tickets' && String(data.id) === id) ||
      (event === 'message' && data?.morphable_type === 'ticket' && String(data.morphable_id) === id);
    if (aboutTicket) void refetch();
  });
  return query;
}
