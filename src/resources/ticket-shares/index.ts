import type { ResourceFolder } from '../override-contract.ts';

/**
 * A ticket's shares have no screens of their own: their card (./SharesPanel.tsx) shows on the portal's
 * ticket detail, as part of the tickets folder's panel (src/resources/tickets/).
 */
export default {} satisfies ResourceFolder;
