/**
 * What a resource folder adds (server/resources/<name>/index.ts, found by folders.ts): its default
 * export is a ResourceFolder, as each folder of react-admin's demo exports its screens. A leaf module
 * that the index files and the scan both import.
 */
import type { ActionPlugin } from './action-contract.ts';
import type { ResourceHooks } from './hook-contract.ts';

export interface ResourceFolder {
  /**
   * Hooks by resource name: the folder's own resource, and the resources that share its code
   * (`ticket-templates` takes the tickets' hooks, `clients` and `operators` the roles' assignment check).
   */
  hooks?: Record<string, ResourceHooks>;
  /** Fastify plugins with the folder's calls beyond the generic routes (SPEC 7), registered in this order. */
  actions?: ActionPlugin[];
}
