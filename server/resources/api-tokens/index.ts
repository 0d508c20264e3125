import type { ResourceFolder } from '../folder-contract.ts';
import { apiTokenHooks } from './hooks.ts';
import { apiTokenRoutes } from './routes.ts';

export default {
  hooks: { 'api-tokens': apiTokenHooks },
  actions: [apiTokenRoutes],
} satisfies ResourceFolder;
