/**
 * The optional read replica (DATABASE_READ_URL): where one read that may lag behind the primary runs.
 * A read goes to the streaming hot standby when the standby is reachable, replaying, no further behind
 * than REPLICA_MAX_LAG_MS, and has replayed the caller's own last write (the position the
 * request carries, http/read-position.ts); in every other case, and when the standby fails the read
 * for want of a connection or a recovery conflict, it runs on the primary. A replica that is down or
 * far behind costs the caller nothing but the primary's time: never an error of its own.
 */
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './database.ts';
import { isDatabaseUnavailable } from './unavailable.ts';
import { parseLsn } from './wal-position.ts';

/**
 * What was last seen of the standby. `ok`: reads may go there. `lagging`: it replays, but further
 * behind than allowed. `not_streaming`: no WAL receiver runs, so it may be behind by any amount
 * without knowing. `not_standby`: the address is no standby (not in recovery: promoted, or a
 * mistake), so nothing says it holds the primary's data. `unreachable`: no answer.
 */
export type ReplicaStatus = 'ok' | 'lagging' | 'not_streaming' | 'not_standby' | 'unreachable';

/**
 * Why a read ran where it ran (the reads metric's `reason`): on the replica `ok`; on the primary the
 * replica's status, `own_write` (the standby has not replayed the caller's last write yet) or
 * `replica_failed` (the standby failed the read; it ran again on the primary).
 */
export type ReadReason = Exclude<ReplicaStatus, 'ok'> | 'ok' | 'own_write' | 'replica_failed';

export interface ReplicaView {
  status: ReplicaStatus;
  /** Replay lag in ms when last measured (0 when it has replayed all it received); undefined when unknown. */
  lagMs?: number;
}

interface Seen extends ReplicaView {
  /** performance.now() of the measurement. */
  at: number;
  /** The standby's replay position then; it only moves forward, so it is a lower bound now. */
  replay?: bigint;
}

export interface ReadReplicaOptions {
  primary: Db;
  replica: Db;
  /** Replay lag past which reads go to the primary (REPLICA_MAX_LAG_MS). */
  maxLagMs: number;
  log: FastifyBaseLogger;
  /** Told where each read ran and why (the metrics). */
  onRead?: (database: 'replica' | 'primary', reason: ReadReason) => void;
  /** Told each new measurement (the metrics' gauges). */
  onMeasured?: (view: ReplicaView) => void;
  /** How long one measurement of the standby is used before the next read measures again. */
  freshMs?: number;
  /** After the standby did not answer: how long reads skip it before it is asked again. */
  retryMs?: number;
  /** How long a measurement may take before the standby counts as unreachable. */
  probeTimeoutMs?: number;
}

/**
 * How long one look at the standby serves. Measured (docs/decisions.md, 2026-11-24): the look is one
 * statement of about 0.1 ms, yet looking before every read cost a quarter to a third of the list
 * calls one client makes one after another; at 25 ms it is at most 40 statements a second per instance. A cached replay position is
 * a lower bound (it only grows), so the cache never sends a read to a standby that lacks the caller's
 * write: it only keeps such a read on the primary up to 25 ms longer.
 */
export const REPLICA_FRESH_MS = 25;
const REPLICA_RETRY_MS = 1_000;
const PROBE_TIMEOUT_MS = 1_000;

// SQLSTATE 40001: on a standby, "canceling statement due to conflict with recovery" (the primary
// removed rows the statement still needed); the primary answers the same read without that conflict.
const RECOVERY_CONFLICT = '40001';

function isRecoveryConflict(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === RECOVERY_CONFLICT;
}

export class ReadReplica {
  private seen: Seen | undefined;
  private probing: Promise<Seen> | undefined;
  private readonly freshMs: number;
  private readonly retryMs: number;
  private readonly probeTimeoutMs: number;

  constructor(private readonly options: ReadReplicaOptions) {
    this.freshMs = options.freshMs ?? REPLICA_FRESH_MS;
    this.retryMs = options.retryMs ?? REPLICA_RETRY_MS;
    this.probeTimeoutMs = options.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
  }

  /**
   * Runs `work` on the standby when it may serve a caller whose last write is at `position` (none:
   * no recent write), else on the primary. `work` must only read: it may run twice.
   */
  async run<T>(position: bigint | undefined, work: (db: Db) => Promise<T>): Promise<T> {
    const reason = await this.reasonFor(position);
    if (reason === 'ok') {
      try {
        const result = await work(this.options.replica);
        this.options.onRead?.('replica', 'ok');
        return result;
      } catch (error) {
        if (!isDatabaseUnavailable(error) && !isRecoveryConflict(error)) {
          // The standby's answer, a 404 or a statement timeout: the primary would give the same.
          this.options.onRead?.('replica', 'ok');
          throw error;
        }
        if (isDatabaseUnavailable(error))
          this.record({ status: 'unreachable', at: performance.now() }, error);
        else this.options.log.warn({ err: error }, 'read replica cancelled a read: it runs on the primary');
        this.options.onRead?.('primary', 'replica_failed');
        return work(this.options.primary);
      }
    }
    this.options.onRead?.('primary', reason);
    return work(this.options.primary);
  }

  /** The standby as last seen, measured now if that is older than a read would use (health checks). */
  async view(): Promise<ReplicaView> {
    const { status, lagMs } = await this.current();
    return { status, lagMs };
  }

  private async reasonFor(position: bigint | undefined): Promise<ReadReason> {
    const seen = await this.current();
    if (seen.status !== 'ok') return seen.status;
    if (position !== undefined && (seen.replay === undefined || seen.replay < position)) return 'own_write';
    return 'ok';
  }

  private current(): Promise<Seen> | Seen {
    const seen = this.seen;
    const age = seen ? performance.now() - seen.at : Infinity;
    if (seen?.status === 'unreachable') {
      // A standby that did not answer is asked again in the background: no read waits on a
      // connection attempt that may take seconds.
      if (age >= this.retryMs) void this.probe();
      return seen;
    }
    return age < this.freshMs ? seen! : this.probe();
  }

  /** One measurement at a time; every read that needs one waits for the same. */
  private probe(): Promise<Seen> {
    this.probing ??= this.measure().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  private async measure(): Promise<Seen> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the read replica did not answer within ${this.probeTimeoutMs} ms`)),
        this.probeTimeoutMs,
      );
    });
    try {
      // Lag is 0 when the standby has replayed all it received; otherwise the age of the last
      // transaction it replayed, which is at least the age of every received one it has not.
      const { rows } = await Promise.race([
        sql<{ standby: boolean; replay: string | null; streaming: boolean; lag_ms: number | null }>`
          select pg_is_in_recovery() as standby,
            pg_last_wal_replay_lsn()::text as replay,
            exists (select 1 from pg_stat_wal_receiver) as streaming,
            case when pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn() then 0
              else extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000
            end::float8 as lag_ms`.execute(this.options.replica),
        timeout,
      ]);
      const row = rows[0]!;
      const at = performance.now();
      const replay = row.replay === null ? undefined : parseLsn(row.replay);
      const lagMs = row.lag_ms === null ? undefined : Math.max(0, Math.round(row.lag_ms));
      if (!row.standby) return this.record({ status: 'not_standby', at });
      if (!row.streaming) return this.record({ status: 'not_streaming', at, replay, lagMs });
      const lagging = lagMs === undefined || lagMs > this.options.maxLagMs;
      return this.record({ status: lagging ? 'lagging' : 'ok', at, replay, lagMs });
    } catch (error) {
      return this.record({ status: 'unreachable', at: performance.now() }, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Keeps a measurement, and logs when the standby's status changes (not at every measurement). */
  private record(seen: Seen, error?: unknown): Seen {
    const before = this.seen?.status;
    this.seen = seen;
    this.options.onMeasured?.({ status: seen.status, lagMs: seen.lagMs });
    if (seen.status === before) return seen;
    const { log, maxLagMs } = this.options;
    const lagMs = seen.lagMs;
    switch (seen.status) {
      case 'ok':
        log.info({ lagMs }, 'read replica serving list and detail reads');
        break;
      case 'lagging':
        log.warn({ lagMs, maxLagMs }, 'read replica lagging behind the primary: reads go to the primary');
        break;
      case 'not_streaming':
        log.warn('read replica not streaming from the primary: reads go to the primary');
        break;
      case 'not_standby':
        log.warn('DATABASE_READ_URL is not a hot standby (not in recovery): reads go to the primary');
        break;
      case 'unreachable':
        log.warn({ err: error }, 'read replica unreachable: reads go to the primary');
        break;
    }
    return seen;
  }
}
