/**
 * The SQL the API runs for one call, as it runs it: a Kysely plugin on the app's database records each
 * statement of the measured request (compiled text and parameters) and when it started and ended, so
 * the raw side replays the very same statements in the same order: a statement starts once every
 * statement that had ended before it started in the API has ended (a list's page and total side by
 * side, its relations after the page, beside a total still running).
 *
 * Only the measured request's statements (issue 40): the app's background jobs (mail fetcher, outbox,
 * exports, the SLA pass, the file sweep) share its database and run on timers of their own. Each request
 * that carries the capture header runs in an AsyncLocalStorage context holding the header's value
 * (`attributeRequests` wraps the HTTP server's request listener, so Fastify's whole handling of the
 * request, hooks included, runs inside it); a statement is recorded only when Kysely builds it inside
 * the context of the recording under way. A job started by a timer has a context of its own, so its
 * statements are left out. Work the request itself hands to a timer or an event (an outbox kick after a
 * write) inherits the request's context: it is recorded when it starts before the answer has arrived.
 *
 * Only statements that ran: Kysely also passes a subquery's builder through the plugins when it becomes
 * part of the outer statement; those never get a result and are dropped (so is a statement that failed).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  RootOperationNode,
} from 'kysely';
import type { Db } from '../server/db/database.ts';

export interface Statement {
  sql: string;
  parameters: readonly unknown[];
  /** Indexes of the statements that had ended when this one started. */
  after: number[];
  /** Started after `StatementCapture.markAnswered` (the caller had its answer): set only then. */
  afterAnswer?: true;
}

/** The header that marks a request whose statements are recorded; its value names the recording. */
export const CAPTURE_HEADER = 'x-bench-capture';

const requestContext = new AsyncLocalStorage<string>();

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Runs each request with the capture header in a context of its own, from the moment the server hears
 * it. The app is the product's own (`buildApp`); only the listener around it is the bench's.
 */
export function attributeRequests(server: Server): void {
  const listeners = server.listeners('request') as Listener[];
  server.removeAllListeners('request');
  for (const listener of listeners) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const id = req.headers[CAPTURE_HEADER];
      if (typeof id === 'string') requestContext.run(id, () => listener(req, res));
      else listener(req, res);
    });
  }
}

interface Running {
  statement: Statement;
  ended: boolean;
}

interface Recording {
  id: string;
  running: Running[];
  /** How many statements had started when the caller marked its answer. */
  answeredAt?: number;
}

let recordings = 0;

export class StatementCapture implements KyselyPlugin {
  private recording: Recording | null = null;
  private readonly byQuery = new WeakMap<QueryId, Running>();

  constructor(private readonly base: Db) {}

  /** The app's database with this plugin attached. */
  attach(): Db {
    return this.base.withPlugin(this);
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const recording = this.recording;
    if (recording && requestContext.getStore() === recording.id) {
      const compiled = this.base.getExecutor().compileQuery(node, queryId);
      const after = recording.running.flatMap((r, i) => (r.ended ? [i] : []));
      const entry = {
        statement: { sql: compiled.sql, parameters: compiled.parameters, after },
        ended: false,
      };
      recording.running.push(entry);
      this.byQuery.set(queryId, entry);
    }
    return node;
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs) {
    const entry = this.byQuery.get(queryId);
    if (entry) entry.ended = true;
    return result;
  }

  /**
   * Records the statements of the requests `action` sends with `headers` (the capture header; other
   * requests and the app's own jobs may use the database meanwhile and are not recorded).
   */
  async record(action: (headers: Record<string, string>) => Promise<void>): Promise<Statement[]> {
    const recording: Recording = { id: `r${++recordings}`, running: [] };
    this.recording = recording;
    try {
      await action({ [CAPTURE_HEADER]: recording.id });
    } finally {
      this.recording = null;
    }
    return ranOnly(recording.running, recording.answeredAt ?? Infinity);
  }

  /**
   * Marks, inside `record`'s action, the moment the caller had its answer: statements the request set
   * off that start later are still recorded, with `afterAnswer` (a write's follow-up work).
   */
  markAnswered(): void {
    if (this.recording) this.recording.answeredAt = this.recording.running.length;
  }
}

/** The statements that ran (got a result), their `after` indexes renumbered to the kept ones. */
function ranOnly(running: Running[], answeredAt: number): Statement[] {
  const index = new Map<number, number>();
  running.forEach((r, i) => {
    if (r.ended) index.set(i, index.size);
  });
  return running.flatMap((r, i) =>
    r.ended
      ? [
          {
            ...r.statement,
            after: r.statement.after.flatMap((a) => (index.has(a) ? [index.get(a)!] : [])),
            ...(i >= answeredAt && { afterAnswer: true as const }),
          },
        ]
      : [],
  );
}

/** Runs recorded statements with the order they had: each after those it followed in the API. */
export async function replay(
  statements: Statement[],
  run: (sql: string, parameters: readonly unknown[]) => Promise<unknown>,
): Promise<void> {
  const done: Promise<unknown>[] = [];
  for (const s of statements) {
    done.push(Promise.all(s.after.map((i) => done[i])).then(() => run(s.sql, s.parameters)));
  }
  await Promise.all(done);
}
