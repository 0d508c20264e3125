/**
 * The calls of SPEC 7 beyond the generic CRUD routes (accept a quote, buy a prepaid card, …): each
 * resource folder's index lists its Fastify plugins (folders.ts finds them), and app.ts registers them
 * all through this one. Their contract (ActionPlugin, ActionOptions) is in action-contract.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { ActionOptions } from './action-contract.ts';
import { resourceFolders } from './folders.ts';

export async function resourceActions(app: FastifyInstance, options: ActionOptions): Promise<void> {
  for (const plugin of (await resourceFolders()).actions) await app.register(plugin, options);
}
