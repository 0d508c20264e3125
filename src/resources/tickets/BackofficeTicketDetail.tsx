/**
 * The back office's ticket detail (SPEC 2, issue 5): the generic detail (fields, edit in place, delete)
 * and the tab bar of the ticket schema's x-tabs: the whole thread with internal notes, replies to the
 * client, '@' mentions of operators; time registrations, used products, the company's assets and its
 * other tickets.
 */
import DetailWithTabs from '../../custom/tabs/DetailWithTabs.tsx';

export default function BackofficeTicketDetail() {
  return <DetailWithTabs />;
}
