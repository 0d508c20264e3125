import type { ResourceFolder } from '../folder-contract.ts';
import { macroRoutes } from './routes.ts';
import { macroHooks } from './hooks.ts';

export default {
  hooks: { macros: macroHooks },
  actions: [macroRoutes],
} satisfies ResourceFolder;
