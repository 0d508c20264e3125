/**
 * The SQL the API runs, as it runs it: a Kysely plugin on the app's database records each statement
 * of one request (compiled text and parameters) and which of them were in flight together, so the raw
 * side replays the very same statements with the same concurrency (a list's rows and count together,
 * then one query per relation).
 */
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  RootOperationNode,
} from 'kysely';
import type { Db } from '../server/db/database.ts';

export interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** Statements started while another was still running share a group; groups run one after another. */
export type StatementGroups = Statement[][];

export class StatementCapture implements KyselyPlugin {
  private groups: StatementGroups | null = null;
  private inFlight = 0;

  constructor(private readonly base: Db) {}

  /** The app's database with this plugin attached. */
  attach(): Db {
    return this.base.withPlugin(this);
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (this.groups) {
      const compiled = this.base.getExecutor().compileQuery(node, queryId);
      const statement = { sql: compiled.sql, parameters: compiled.parameters };
      if (this.inFlight > 0 && this.groups.length > 0) this.groups[this.groups.length - 1]!.push(statement);
      else this.groups.push([statement]);
      this.inFlight++;
    }
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs) {
    if (this.groups) this.inFlight--;
    return result;
  }

  /** Records the statements `action` makes (nothing else may use the database meanwhile). */
  async record(action: () => Promise<void>): Promise<StatementGroups> {
    this.groups = [];
    this.inFlight = 0;
    try {
      await action();
      return this.groups;
    } finally {
      this.groups = null;
    }
  }
}
