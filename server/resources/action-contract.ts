/**
 * The contract between app.ts and a resource's extra calls (each resource folder's index lists its
 * plugins; folders.ts finds them, actions.ts registers them). A leaf module: the per-resource action
 * files import it from here, not from the module that registers them (tests/unit/import-cycles.test.ts).
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
