import type { ResourceFolder } from '../override-contract.ts';

/**
 * A ticket's checklist has no screens of its own: its card (./ChecklistPanel.tsx) shows on the ticket's
 * detail in both apps, below the SLA's, as the tickets folder's panel (src/resources/tickets/).
 */
export default {} satisfies ResourceFolder;
