import type { ResourceFolder } from '../folder-contract.ts';
import surveyRoutes from './routes.ts';

/** Satisfaction surveys (issue 39, item 3): mailed from tickets/history.ts, rated through these calls. */
export default { actions: [surveyRoutes] } satisfies ResourceFolder;
