import { sql } from 'kysely';
import type { DbTransaction } from '../../db/database.ts';
import { ValidationError } from '../../http/errors.ts';
import type { ResourceHooks } from '../hook-contract.ts';
import { serverText } from '../../../common/server-texts.ts';

const ACCEPTED = 3;
const LOCKED = serverText('quote_locked');

/** Status of a quote, read under a row lock so an accept racing a change cannot slip between. */
async function quoteStatus(trx: DbTransaction, quoteId: unknown): Promise<number | undefined> {
  if (typeof quoteId !== 'number') return undefined;
  const { rows } = await sql<{
    status_id: number;
  }>`select status_id from quotes where id = ${quoteId} for update`.execute(trx);
  return rows[0]?.status_id;
}

async function lineQuote(trx: DbTransaction, lineId: number): Promise<number | undefined> {
  const { rows } = await sql<{
    quote_id: number;
  }>`select quote_id from quote_lines where id = ${lineId}`.execute(trx);
  return rows[0]?.quote_id;
}

/** SPEC/issue 4: an accepted quote is what the client signed; neither it nor its lines change after. */
export const quoteHooks: ResourceHooks = {
  async beforeUpdate(id, _changes, { trx }) {
    if ((await quoteStatus(trx, id)) === ACCEPTED) throw new ValidationError({ status_id: [LOCKED] });
  },
  async beforeDestroy(id, { trx }) {
    if ((await quoteStatus(trx, id)) === ACCEPTED) throw new ValidationError({ status_id: [LOCKED] });
  },
};

export const quoteLineHooks: ResourceHooks = {
  async beforeStore(row, { trx }) {
    if ((await quoteStatus(trx, row.quote_id)) === ACCEPTED)
      throw new ValidationError({ quote_id: [LOCKED] });
  },
  async beforeUpdate(id, changes, { trx }) {
    for (const quoteId of [await lineQuote(trx, id), changes.quote_id]) {
      if ((await quoteStatus(trx, quoteId)) === ACCEPTED) throw new ValidationError({ quote_id: [LOCKED] });
    }
  },
  async beforeDestroy(id, { trx }) {
    if ((await quoteStatus(trx, await lineQuote(trx, id))) === ACCEPTED)
      throw new ValidationError({ quote_id: [LOCKED] });
  },
};
