import { createContext, useContext } from 'react';

/** Which of the two apps a component runs in: the client portal or the operator back office. */
export type AppKind = 'portal' | 'backoffice';

/** Provided by the two shells; the back office when nothing provides it. */
export const AppKindContext = createContext<AppKind>('backoffice');

export function useAppKind(): AppKind {
  return useContext(AppKindContext);
}

/** The prefix of the app's permission names (SPEC 6): 'portal.' in the portal, 'tenant.' in the back office. */
export function permissionPrefix(kind: AppKind): 'portal' | 'tenant' {
  return kind === 'portal' ? 'portal' : 'tenant';
}
