/**
 * The permission check by name (SPEC 6). Its own module because the routes, the login lists, the
 * exports and the attachment rule all ask it: none of them has to import another to get it.
 */
import type { AuthContext } from './context.ts';
import type { Resource } from '../../common/schema/types.ts';

/** Permission by name, spec section 6: tenant.<resource>.<action> or portal.<resource>.<action>. */
export function may(auth: AuthContext, resource: Resource, action: string): boolean {
  if (auth.kind === 'operator')
    return resource.actions.includes(action) && auth.permissions.has(`tenant.${resource.name}.${action}`);
  return (
    !!resource.portal?.actions.includes(action) && auth.permissions.has(`portal.${resource.name}.${action}`)
  );
}
