/**
 * The cards below a ticket's fields in the back office: its SLA clock, the hours of its company's
 * contracts (issue 39, item 2), then its checklist (issue 37, item 4). One panel per resource and app
 * (override-contract.ts), so the ticket's is this set.
 */
import type { RecordActionsProps } from '../override-contract.ts';
import TicketSlaPanel from './sla/TicketSlaPanel.tsx';
import ChecklistPanel from '../checklist-items/ChecklistPanel.tsx';
import ContractBalanceCard from '../../custom/balance/ContractBalanceCard.tsx';

export default function TicketPanels(props: RecordActionsProps) {
  return (
    <>
      <TicketSlaPanel {...props} />
      <ContractBalanceCard {...props} />
      <ChecklistPanel {...props} />
    </>
  );
}
