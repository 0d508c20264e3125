/**
 * The SQL the API runs, as it runs it: a Kysely plugin on the app's database records each statement
 * of one request (compiled text and parameters) and when it started and ended, so the raw side replays
 * the very same statements in the same order: a statement starts once every statement that had ended
 * before it started in the API has ended (a list's page and total side by side, its relations after
 * the page, beside a total still running).
 */
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
}

interface Running {
  statement: Statement;
  ended: boolean;
}

export class StatementCapture implements KyselyPlugin {
  private running: Running[] | null = null;
  private readonly byQuery = new WeakMap<QueryId, Running>();

  constructor(private readonly base: Db) {}

  /** The app's database with this plugin attached. */
  attach(): Db {
    return this.base.withPlugin(this);
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (this.running) {
      const compiled = this.base.getExecutor().compileQuery(node, queryId);
      const after = this.running.flatMap((r, i) => (r.ended ? [i] : []));
      const entry = {
        statement: { sql: compiled.sql, parameters: compiled.parameters, after },
        ended: false,
      };
      this.running.push(entry);
      this.byQuery.set(queryId, entry);
    }
    return node;
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs) {
    const entry = this.byQuery.get(queryId);
    if (entry) entry.ended = true;
    return result;
  }

  /** Records the statements `action` makes (nothing else may use the database meanwhile). */
  async record(action: () => Promise<void>): Promise<Statement[]> {
    this.running = [];
    try {
      await action();
      return this.running.map((r) => r.statement);
    } finally {
      this.running = null;
    }
  }
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
