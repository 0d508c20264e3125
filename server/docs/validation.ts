import type { FastifySchemaCompiler } from 'fastify';

/**
 * A validator compiler that accepts everything: for routes whose schemas document and serialise while
 * the handler checks its input itself, with the messages the API promises (SPEC 7/8), and whose query
 * strings qs has already parsed in a shape Fastify's ajv would reject or coerce.
 */
export const documentationOnly: FastifySchemaCompiler<unknown> = () => () => true;
