/**
 * Screens a resource needs beyond the generic ones, per app: each lives in src/resources/<name>/ and is
 * listed here as a lazy chunk. The generic screen serves every resource not listed.
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import type { AppKind } from '../custom/appKind.ts';

export interface ResourceOverrides {
  detail?: LazyExoticComponent<ComponentType>;
  create?: LazyExoticComponent<ComponentType>;
}

export const overrides: Record<AppKind, Record<string, ResourceOverrides>> = {
  portal: {},
  backoffice: {},
};
