/**
 * The 422 answers of one route to a table of bad inputs: each case's `errors`, its message checked to be
 * the first line, compared as one object so that a failure shows every case that differs.
 */
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';

export type InputCase = [label: string, payload: unknown, errors: Record<string, string[]>];

/** The route's `errors` for `payload`, sent as JSON as it is (a list, null or text too); a 422 or fail. */
export function inputErrorsOf(
  app: () => FastifyInstance,
  url: string,
  headers: () => Record<string, string>,
) {
  return async (payload: unknown): Promise<Record<string, string[]>> => {
    const res = await app().inject({
      method: 'POST',
      url,
      headers: { ...headers(), 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json() as { message: string; errors: Record<string, string[]> };
    expect(body.message).toBe(Object.values(body.errors)[0]![0]);
    return body.errors;
  };
}

/** Every case's answer equals its `errors`. */
export async function expectInputErrors(
  errorsOf: (payload: unknown) => Promise<Record<string, string[]>>,
  cases: InputCase[],
): Promise<void> {
  const answers: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const [label, payload, errors] of cases) {
    answers[label] = await errorsOf(payload);
    expected[label] = errors;
  }
  expect(answers).toEqual(expected);
}

/**
 * A bad body from nobody is a 401 and from a caller without the permission a 403 (`forbidden`): who
 * calls is judged before what is sent.
 */
export async function expectCallerFirst(
  app: FastifyInstance,
  url: string,
  forbidden: Record<string, string>,
) {
  const bad = { name: 5, colour: 'red' };
  const statuses = [];
  for (const headers of [{}, forbidden])
    statuses.push((await app.inject({ method: 'POST', url, headers, payload: bad })).statusCode);
  expect(statuses).toEqual([401, 403]);
}
