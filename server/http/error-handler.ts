import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.ts';
import { isStatementTimeout } from '../db/statement-timeout.ts';
import { HttpError, TooManyRequests } from './errors.ts';
import { retryAfterSeconds } from '../auth/rate-limit.ts';
import { isFileStoreUnavailable } from '../files/unavailable.ts';
import { SerializationMismatch } from './serialization-check.ts';
import { HashingBusy } from '../auth/hashing-queue.ts';

/** The database is away (restarting, down): the request was fine, the caller may try again soon. */
function databaseUnavailable(error: Error, request: FastifyRequest, reply: FastifyReply) {
  request.log.warn({ err: error }, 'database unavailable');
  request.server.metrics?.databaseUnavailable.inc();
  return reply
    .status(503)
    .header('retry-after', String(RETRY_AFTER_SECONDS))
    .send({ message: 'The database cannot be reached right now. Try again in a few seconds.' });
}

/** The file store (S3) does not answer: the files wait, the caller may try again soon. */
function fileStoreUnavailable(error: Error, request: FastifyRequest, reply: FastifyReply) {
  request.log.warn({ err: error }, 'file store unavailable');
  return reply
    .status(503)
    .header('retry-after', String(RETRY_AFTER_SECONDS))
    .send({ message: 'The file store cannot be reached right now. Try again in a few seconds.' });
}

/** PostgreSQL stopped a statement at STATEMENT_TIMEOUT_MS: the database is busy, or the query is heavy. */
function statementTimedOut(error: Error, request: FastifyRequest, reply: FastifyReply) {
  request.log.warn({ err: error }, 'statement timeout');
  request.server.metrics?.statementTimeouts.inc();
  return reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({
    message: 'The query took too long and was stopped. Try again in a few seconds, or narrow the filters.',
  });
}

/**
 * Password hashing's queue is full (server/auth/hashing-queue.ts) for a call that is not a login (which
 * answers 429 itself): a password reset, a password set through the records API.
 */
function hashingBusy(error: HashingBusy, request: FastifyRequest, reply: FastifyReply) {
  request.log.warn('password hashing busy');
  const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
  return reply
    .status(503)
    .header('retry-after', String(seconds))
    .send({
      message: `The server is busy checking passwords. Try again in ${seconds} seconds.`,
    });
}

/**
 * The one place that turns errors into responses. 4xx carry a message meant for the caller; anything
 * else is logged in full and answered with a bare 500, so no database text ever reaches a response.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      if (error instanceof TooManyRequests)
        reply.header('retry-after', retryAfterSeconds(error.retryAfterMs));
      return reply
        .status(error.statusCode)
        .send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
    }
    if (error instanceof HashingBusy) return hashingBusy(error, request, reply);
    if (error instanceof SerializationMismatch) {
      // Only the test servers check answers against their schemas (serialization-check.ts): the test
      // that hit a wrong schema reads what is wrong in the body it did not expect.
      request.log.error({ err: error }, 'response schema mismatch');
      return reply.status(500).send({ message: error.message });
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      const errors: Record<string, string[]> = {};
      for (const v of fe.validation) {
        const missing = (v.params as { missingProperty?: string })?.missingProperty;
        const extra = (v.params as { additionalProperty?: string })?.additionalProperty;
        const path = [fe.validationContext, ...v.instancePath.split('/').filter(Boolean)];
        if (missing) path.push(missing);
        if (extra) path.push(extra);
        const key = path.filter(Boolean).join('.') || 'body';
        const line = extra
          ? `${key} is not allowed.`
          : missing
            ? `${key} is required.`
            : `${key} ${v.message}.`;
        (errors[key] ??= []).push(line);
      }
      return reply
        .status(422)
        .send({ message: Object.values(errors)[0]?.[0] ?? 'The given data was invalid.', errors });
    }
    const status = fe.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, body too large, unsupported media type): their
      // messages describe the request, not the server.
      return reply.status(status).send({ message: fe.message });
    }
    // Before the database's check, which would take the store's refused connection (its cause) for its own.
    if (isFileStoreUnavailable(error)) return fileStoreUnavailable(error, request, reply);
    if (isDatabaseUnavailable(error)) return databaseUnavailable(error, request, reply);
    if (isStatementTimeout(error)) return statementTimedOut(error, request, reply);
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Server error.' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ message: 'Not found.' });
  });
}
