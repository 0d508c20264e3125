/**
 * The cards below a client's ticket in the portal: the SLA's promise, the hours of the company's
 * contracts (issue 39, item 2), then the checklist items shown to clients, which the client ticks
 * (issue 37, item 4), and the colleagues the ticket is shared with (issue 39, item 1).
 */
import type { RecordActionsProps } from '../override-contract.ts';
import PortalSlaPromise from './sla/PortalSlaPromise.tsx';
import ChecklistPanel from '../checklist-items/ChecklistPanel.tsx';
import ContractBalanceCard from '../../custom/balance/ContractBalanceCard.tsx';
import SharesPanel from '../ticket-shares/SharesPanel.tsx';

export default function PortalTicketPanels(props: RecordActionsProps) {
  return (
    <>
      <PortalSlaPromise {...props} />
      <ContractBalanceCard {...props} />
      <ChecklistPanel {...props} />
      <SharesPanel {...props} />
    </>
  );
}
