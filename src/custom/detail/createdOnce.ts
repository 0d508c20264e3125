/**
 * What a create's answer says once and no read says again (a webhook's signing secret): the generic
 * create screen keeps the answer here, in memory only (not in the history's state, which the browser
 * may write to disk), for the record's own screen after the redirect, which forgets it once shown and
 * closed (a screen may mount twice while the record loads: reading does not forget).
 */
const answers = new Map<string, Record<string, unknown>>();

const keyOf = (resource: string, id: unknown) => `${resource}:${String(id)}`;

export function rememberCreated(resource: string, record: Record<string, unknown>): void {
  answers.set(keyOf(resource, record.id), record);
}

/** The create answer of the record, until it is forgotten. */
export function createdAnswer(resource: string, id: unknown): Record<string, unknown> | undefined {
  return answers.get(keyOf(resource, id));
}

export function forgetCreated(resource: string, id: unknown): void {
  answers.delete(keyOf(resource, id));
}
