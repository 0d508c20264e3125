/**
 * The back office's ticket detail (SPEC 2, issue 5): the generic detail (fields, edit in place, delete)
 * and the whole thread with internal notes, the reply to the client, internal notes, edit, delete and
 * '@' mentions of operators.
 */
import DetailWithThread from '../../custom/thread/DetailWithThread.tsx';

export default function BackofficeTicketDetail() {
  return <DetailWithThread morphType="ticket" />;
}
