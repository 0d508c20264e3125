import type { FastifyRequest } from 'fastify';
import type { AuthContext } from './context.ts';

/** Placeholder until the lead's version lands: the named lists `GET /api/auth/me` returns. */
export async function loadLoginLists(_request: FastifyRequest, _auth: AuthContext): Promise<Record<string, unknown[]>> {
  return {};
}
