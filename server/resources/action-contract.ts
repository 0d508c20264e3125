/**
 * The contract between app.ts and a resource's extra calls (actions.ts lists who implements it).
 * A leaf module: the per-resource action files import it from here, not from the list that imports
 * them, so no import cycle runs through actions.ts (tests/unit/import-cycles.test.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import type { Config } from '../config.ts';

export interface ActionOptions {
  db: Db;
  registry: Registry;
  config: Config;
}

export type ActionPlugin = (app: FastifyInstance, options: ActionOptions) => Promise<void>;
