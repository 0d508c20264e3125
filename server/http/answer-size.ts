/**
 * The size ceiling of list and record answers (query/limits.ts ANSWER_LIMITS): an `onSend` hook of
 * those routes, so it measures the answer as it is really written (after the response schema's
 * serialiser). An answer past it becomes a 422 under `key` (the builder of a list, `with` of a record)
 * whose text asks for fewer rows or relations; the caller never receives a cut-off JSON.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ANSWER_LIMITS } from '../query/limits.ts';
import { serverText } from '../../common/server-texts.ts';

const MB = 1_000_000;

export function answerSizeCeiling(key: 'builder' | 'with') {
  return async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const bytes = Buffer.byteLength(payload);
    if (bytes <= ANSWER_LIMITS.maxBytes || reply.statusCode !== 200) return payload;
    const message = serverText('answer_too_large', {
      count: Math.ceil(bytes / MB),
      max: Math.floor(ANSWER_LIMITS.maxBytes / MB),
    });
    reply.code(422).header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify({ message, errors: { [key]: [message] } });
  };
}
