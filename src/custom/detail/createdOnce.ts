/**
 * What a create's answer says once and no read says again (a webhook's signing secret): the generic
 * create screen keeps the answer here, in memory only (not in the history's state, which the browser
 * may write to disk), and the record's own screen takes it once after the redirect.
 */
const answers = new Map<string, Record<string, unknown>>();

export function rememberCreated(resource: string, record: Record<string, unknown>): void {
  answers.set(`${resource}:${String(record.id)}`, record);
}

/** The create answer of the record, once: a second call gets nothing. */
export function takeCreated(resource: string, id: unknown): Record<string, unknown> | undefined {
  const key = `${resource}:${String(id)}`;
  const answer = answers.get(key);
  answers.delete(key);
  return answer;
}
