/**
 * The export worker of this process: takes waiting jobs from the database one at a time, runs them and
 * mails the user. It starts with the app and looks at once for jobs an earlier process left (queued,
 * or running under a lease that ran out); a new job wakes it, and it also looks every `pollMs` for jobs
 * queued by other processes and leases that ran out.
 *
 * Stopping hands the job in hand back (queued), so the next start finishes it without waiting for the
 * lease; a process that dies instead leaves a lease that runs out after `leaseMs`.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import type { FileStore } from '../files/store.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { HttpError } from '../http/errors.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { isFileStoreUnavailable } from '../files/unavailable.ts';
import { exportMail } from './messages.ts';
import { claimJob, extendLease, failJob, finishJob, giveUpJobs, releaseJob, type ExportJob } from './jobs.ts';
import { ExportInterrupted, runExport } from './run.ts';
import { removeAbandonedExportFolders } from './files.ts';
import { WakeLoop } from '../system/wake-loop.ts';

export interface ExportWorkerOptions {
  /** false: jobs are queued but this process runs none (tests; a web-only process). Default true. */
  enabled?: boolean;
  /** Rows read per statement; default 500. */
  pageSize?: number;
  pollMs?: number;
  leaseMs?: number;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** Where the e-mail sends the user: the back office's exports page (the files need a signed-in user). */
export function exportsPageLink(origin: string): string {
  return `${origin}/exports`;
}

export class ExportWorker {
  private readonly pageSize: number;
  private readonly leaseMs: number;
  private readonly loop: WakeLoop;
  private readonly abort = new AbortController();

  constructor(
    private readonly deps: {
      db: Db;
      registry: Registry;
      store: FileStore;
      /** Where the notice is queued: in the job's tenant's outbox. */
      outbox: Pick<MailOutbox, 'queue'>;
      log: Log;
    },
    options: ExportWorkerOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 500;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.loop = new WakeLoop(
      () => this.drain(),
      options.pollMs ?? 10_000,
      (error) => deps.log.error({ err: error }, 'export worker: lost its database'),
    );
  }

  start(): void {
    if (!this.loop.isStopped) return;
    removeAbandonedExportFolders().catch((error) =>
      this.deps.log.warn({ err: error }, 'export worker: abandoned temporary folders not removed'),
    );
    this.loop.start();
  }

  /** Look for work now (a job was just queued). */
  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    const stopping = this.loop.stop();
    // The job in hand ends at its next page and is handed back (queued) for the next start.
    this.abort.abort();
    await stopping;
  }

  /** Runs waiting jobs until none is left. */
  private async drain(): Promise<void> {
    for (const job of await giveUpJobs(this.deps.db)) await this.mail(job, true);
    while (!this.loop.isStopped) {
      const job = await claimJob(this.deps.db, this.leaseMs);
      if (!job) return;
      if (!(await this.run(job))) return;
    }
  }

  /** Runs one job; false when the next should wait for the next look (the file store is away). */
  private async run(job: ExportJob): Promise<boolean> {
    const { db, registry, store, log } = this.deps;
    const heartbeat = setInterval(() => {
      extendLease(db, job.id, job.attempts, this.leaseMs).catch(() => undefined);
    }, this.leaseMs / 3);
    heartbeat.unref();
    try {
      const result = await runExport(
        { db, registry, store, pageSize: this.pageSize },
        job,
        this.abort.signal,
      );
      if (await finishJob(db, job, result)) {
        log.info({ exportJob: job.id, rows: result.rowCount }, 'export done');
        await this.mail({ ...job, rowCount: result.rowCount }, false);
      } else {
        // Another worker took the job over after our lease ran out: its files are the ones kept.
        await Promise.all([store.remove(result.csvKey), store.remove(result.xlsxKey)]);
      }
      return true;
    } catch (error) {
      if (error instanceof ExportInterrupted) {
        await releaseJob(db, job);
        return true;
      }
      if (isFileStoreUnavailable(error)) {
        // Not the job's fault either: back to the queue, and no next job until the next look, which
        // would only find the store away again (a released job is claimed again at once).
        log.warn({ err: error, exportJob: job.id }, 'export interrupted: file store unavailable');
        await releaseJob(db, job).catch(() => undefined);
        return false;
      }
      if (isDatabaseUnavailable(error)) {
        // Not the job's fault: it goes back to the queue, or, with the database still away, waits out
        // its lease; either way it runs again.
        log.warn({ err: error, exportJob: job.id }, 'export interrupted: database unavailable');
        await releaseJob(db, job).catch(() => undefined);
        return true;
      }
      // A refusal (the user lost access, a filter field is gone) is said as it is; anything else is
      // logged and said in general words.
      const message = error instanceof HttpError ? error.message : 'The export could not be written.';
      if (!(error instanceof HttpError)) log.error({ err: error, exportJob: job.id }, 'export failed');
      if (await failJob(db, job, message)) await this.mail(job, true);
      return true;
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async mail(job: ExportJob, failed: boolean): Promise<void> {
    const { db, outbox, log } = this.deps;
    try {
      const user = await db
        .selectFrom('users')
        .select(['email', 'full_name', 'first_name'])
        .where('id', '=', job.userId)
        .where('tenant_id', '=', job.tenantId)
        .executeTakeFirst();
      if (!user?.email) return;
      await outbox.queue(
        exportMail({
          to: user.email,
          name: user.first_name || user.full_name || user.email,
          locale: job.locale,
          link: exportsPageLink(job.origin),
          rows: job.rowCount,
          failed,
        }),
        { tenantId: job.tenantId },
      );
    } catch (error) {
      // The files are there and the exports page shows them; a database that fails to queue the
      // notice does not undo the export.
      log.warn({ err: error, exportJob: job.id }, 'export mail not sent');
    }
  }
}
