/**
 * The write scenarios (issue 40): an operator creates a ticket (POST /api/tickets with a description,
 * as the embedded office load does) and posts a message on it (POST /api/messages as a multipart form,
 * as the ticket screen's editor sends it). Each is called one call after another; per write its
 * median and p99, and the statements one call ran (captured as the lists' are: only this request's),
 * named by verb and table. Statements the request set off that started after its answer had arrived
 * (work handed to a timer or an event, such as the outbox's kick) are counted apart: they did not make
 * the caller wait. No SQL side: replaying inserts measures nothing the lists do not.
 */
import type { StatementCapture } from './capture.ts';
import { mark, median, ms, percentile, table, timeCalls, type Budget } from './stats.ts';

export interface WriteResult {
  name: string;
  samples: number;
  median: number;
  p99: number;
  /** Statements the call ran before its answer (Kysely's: BEGIN and COMMIT are the driver's, not counted). */
  statements: number;
  /** Verb and table of each, in order ("insert tickets", …). */
  kinds: string[];
  /** Statements the call set off that started after its answer, within `LINGER_MS`. */
  afterAnswer: number;
}

/** The target for a ticket create. */
export const TICKET_CREATE_STATEMENTS = 3;

/** How long after the answer statements the request set off are still counted (as `afterAnswer`). */
const LINGER_MS = 300;

/**
 * "insert into "tickets" …" -> "insert tickets"; a select -> "select <its first table>"; a statement
 * with common table expressions by what it changes ("with: update tickets"), else "with: select …".
 */
export function statementKind(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').trim().toLowerCase();
  const verb = text.split(' ')[0] ?? '';
  const change = /\b(insert into|update|delete from) "?([\w.]+)"?/.exec(text);
  const from = /\bfrom "?([\w.]+)"?/.exec(text)?.[1];
  if (verb === 'with') {
    const names = [...text.matchAll(/(?:with|,) "?(\w+)"? as \(/g)].map((m) => m[1]);
    const table = [...text.matchAll(/\bfrom "?([\w.]+)"?/g)].map((m) => m[1]).find((t) => !names.includes(t));
    return change ? `with: ${change[1]!.split(' ')[0]} ${change[2]}` : `with: select ${table ?? ''}`.trim();
  }
  if (change && text.startsWith(change[1]!)) return `${verb} ${change[2]}`;
  return from ? `${verb} ${from}` : verb;
}

export async function measureWrites(
  base: string,
  token: string,
  capture: StatementCapture,
  budget: Budget,
): Promise<{ results: WriteResult[]; ticketIds: number[]; messageIds: number[] }> {
  const ticketIds: number[] = [];
  const messageIds: number[] = [];
  let n = 0;
  const send = async (path: string, body: BodyInit, extra: Record<string, string>, json: boolean) => {
    const res = await fetch(base + path, {
      method: 'POST',
      body,
      headers: {
        authorization: `Bearer ${token}`,
        ...(json ? { 'content-type': 'application/json' } : {}),
        ...extra,
      },
    });
    const text = await res.text();
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`POST ${path}: ${res.status} ${text.slice(0, 300)}`);
    return Number((JSON.parse(text) as { id: number }).id);
  };
  const createTicket = async (extra: Record<string, string> = {}) => {
    const id = await send(
      '/api/tickets',
      JSON.stringify({ description: `Bench write ${++n}: the printer on the second floor` }),
      extra,
      true,
    );
    ticketIds.push(id);
    return id;
  };
  const first = await createTicket();
  const postMessage = async (extra: Record<string, string> = {}) => {
    const form = new FormData();
    form.set('morphable_type', 'ticket');
    form.set('morphable_id', String(first));
    form.set('message', `<p>Bench message ${++n}: it prints again.</p>`);
    messageIds.push(await send('/api/messages', form, extra, false));
  };

  const results: WriteResult[] = [];
  for (const [name, write] of [
    ['create a ticket (operator)', createTicket],
    ['post a message (operator)', postMessage],
  ] as const) {
    for (let i = 0; i < budget.warmup; i++) await write();
    const statements = await capture.record(async (headers) => {
      await write(headers);
      capture.markAnswered();
      await new Promise((resolve) => setTimeout(resolve, LINGER_MS));
    });
    const times = await timeCalls(() => write(), budget);
    const before = statements.filter((s) => !s.afterAnswer);
    results.push({
      name,
      samples: times.length,
      median: median(times),
      p99: percentile(times, 99),
      statements: before.length,
      kinds: before.map((s) => statementKind(s.sql)),
      afterAnswer: statements.length - before.length,
    });
  }
  return { results, ticketIds, messageIds };
}

/** The writes' table, and under it what each write's statements were. */
export function writesTable(results: WriteResult[]): string {
  const rows = table(
    ['write', 'n', 'p50', 'p99', 'stmts', 'after answer', 'target'],
    results.map((r) => [
      r.name,
      r.samples,
      ms(r.median),
      ms(r.p99),
      r.statements,
      r.afterAnswer,
      r.name.startsWith('create a ticket')
        ? `stmts<=${TICKET_CREATE_STATEMENTS} ${mark(r.statements <= TICKET_CREATE_STATEMENTS)}`
        : '-',
    ]),
  );
  const kinds = results.map((r) => `${r.name}: ${countedKinds(r.kinds)}`);
  return [rows, '', ...kinds].join('\n');
}

/** "select users, insert tickets ×2, …": runs of the same kind counted, in order. */
function countedKinds(kinds: string[]): string {
  const out: [string, number][] = [];
  for (const kind of kinds) {
    const last = out[out.length - 1];
    if (last && last[0] === kind) last[1]++;
    else out.push([kind, 1]);
  }
  return out.map(([kind, n]) => (n > 1 ? `${kind} x${n}` : kind)).join(', ') || '-';
}

/**
 * Deletes the tickets the writes made, through the API as an operator does (their messages go with
 * them): they would otherwise head the default list, sorted by last change, in every later section and
 * every later run on the same data set.
 */
export async function removeWrites(base: string, token: string, ticketIds: number[]): Promise<void> {
  for (const id of ticketIds) {
    const res = await fetch(`${base}/api/tickets/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`DELETE /api/tickets/${id}: ${res.status}`);
  }
}
