/**
 * The portal's ticket detail (SPEC 2, issue 5): the ticket's fields as the generic detail shows them,
 * then its conversation (the client's messages and the replies sent to them, never internal notes) and
 * the reply form.
 */
import DetailWithThread from '../../custom/thread/DetailWithThread.tsx';

export default function PortalTicketDetail() {
  return <DetailWithThread morphType="ticket" />;
}
