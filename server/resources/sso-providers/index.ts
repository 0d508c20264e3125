import type { ResourceFolder } from '../folder-contract.ts';
import { ssoProviderHooks } from './hooks.ts';

/** The single sign-on providers' secret and domains (hooks.ts); the sign-in itself is server/auth/oidc/. */
export default { hooks: { 'sso-providers': ssoProviderHooks } } satisfies ResourceFolder;
