/** What every quote call (./actions.ts) works with: the app, the quotes resource, the repository's deps. */
import type { FastifyInstance } from 'fastify';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionOptions } from '../action-contract.ts';
import type { Deps } from '../repository.ts';
import type { Resource } from '../../../common/schema/types.ts';
import { recordRef } from '../../docs/action-schema.ts';

export interface QuoteCalls extends ActionOptions {
  app: FastifyInstance;
  quotes: Resource;
  deps: Deps;
  /** The quote's schema reference, for the answers that are the quote. */
  quote: ReturnType<typeof recordRef>;
}

export function quoteCalls(app: FastifyInstance, { db, registry, config }: ActionOptions): QuoteCalls {
  const quotes = registry.require('quotes');
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  const quote = recordRef(registry, quotes);
  return { app, db, registry, config, quotes, deps, quote };
}
