/**
 * A portal resource by its translated name, plural as a menu names it ('Tickets', 'Facturen'), for the
 * lists of portal resources (`x-input: "portal-resources"`); a name no schema has stays as it is.
 */
import type { TranslateFunction } from 'react-admin';

export const portalResourceName = (translate: TranslateFunction, name: string): string =>
  translate(`resources.${name}.name`, { smart_count: 2, _: name });
