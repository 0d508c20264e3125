/**
 * Record ids as callers send them: in a path (`/tickets/{id}`), as a body field, or as a list
 * (`{ids: [...]}` of merges, invoicing, CSV downloads). One rule for all: a positive whole number that
 * fits PostgreSQL's integer, else a 422 that says so (`idListBody`: the schema of an id list).
 */
const ID = /^[1-9]\d{0,9}$/;
/** The largest id: PostgreSQL's integer. */
export const MAX_ID = 2_147_483_647;

/** Whether a value (number or text) is a valid record id. */
export function isId(value: unknown): boolean {
  return (
    (typeof value === 'number' || typeof value === 'string') &&
    ID.test(String(value)) &&
    Number(value) <= MAX_ID
  );
}

/** The schema of one id in a list: its failure named by its place, `ids.2` (x-error). */
export const ID_ITEM = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_ID,
  'x-error': 'The id must be a positive whole number.',
};

export interface IdListRules {
  min: number;
  max: number;
  /** The line when fewer than `min` are sent. */
  tooFew: string;
  /** The line when more than `max` are sent. */
  tooMany: string;
  description?: string;
}

/**
 * The body `{ids: [...]}` and nothing else: `min` to `max` different valid ids, each failure in the words
 * the routes have always said (x-error, server/schema/input-errors.ts); an id that is not one is named by
 * its place, `ids.2`, as an id that does not exist is by the routes' own checks.
 */
export function idListBody({ min, max, tooFew, tooMany, description }: IdListRules) {
  return {
    type: 'object',
    required: ['ids'],
    additionalProperties: false,
    properties: {
      ids: {
        type: 'array',
        minItems: min,
        maxItems: max,
        uniqueItems: true,
        items: ID_ITEM,
        ...(description ? { description } : {}),
        'x-error': {
          type: 'The ids must be a list.',
          minItems: tooFew,
          maxItems: tooMany,
          uniqueItems: 'The ids must be different.',
        },
      },
    },
  };
}

/** The ids of a body that `idListBody` has checked (server/http/route-validation.ts, `validInput`). */
export const bodyIds = (body: unknown): number[] => (body as { ids: number[] }).ids;
