import type { ResourceFolder } from '../folder-contract.ts';
import { governedBySetting, recheckOn } from '../../sla/governed.ts';

/** The tenant's default SLA (setting default_sla_id) changed: the tickets it governs are measured again. */
export default { hooks: { config: recheckOn(governedBySetting) } } satisfies ResourceFolder;
