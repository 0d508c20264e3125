/**
 * Exports (SPEC 2, 6, 7; issue 6):
 *
 * - POST /api/exports {userId, model, filter, columns?, locale?}: checks everything a list call would
 *   (permission, model, every builder item), queues a job and answers `{message}` at once;
 * - GET /api/exports: the caller's own jobs, newest first, with their download addresses once done;
 * - GET /api/exports/{id}/{csv|xlsx}: the file, for the user who asked for it only (anyone else: 404).
 *
 * The worker (worker.ts) runs the jobs in the background and mails the user when one is done.
 */
import { audit } from '../audit/audit.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import { forbidden, notFound, ValidationError } from '../http/errors.ts';
import { linkOrigin } from '../mail/link-origin.ts';
import { fileStoreFor } from '../files/store.ts';
import { contentDisposition } from '../files/serve.ts';
import { checkExport, mayExport } from './run.ts';
import { findJob, listJobs, queueJob, type ExportJob } from './jobs.ts';
import { EXPORT_TEXTS, pickLocale } from './messages.ts';
import { ExportWorker, type ExportWorkerOptions } from './worker.ts';
import { validating, validInput } from '../http/route-validation.ts';
import { DOWNLOAD_EXPORT_SCHEMA, LIST_EXPORTS_SCHEMA, queueExportSchema } from './openapi.ts';

export interface ExportRoutesOptions {
  db: Db;
  registry: Registry;
  config: Config;
  worker?: ExportWorkerOptions;
}

const FORMATS = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;
type Format = keyof typeof FORMATS;

const BODY_KEYS = new Set(['userId', 'model', 'filter', 'columns', 'locale']);

/** The job as the exports page shows it; the addresses only once the files exist. */
function present(job: ExportJob) {
  const done = job.status === 'done';
  return {
    id: job.id,
    model: job.model,
    status: job.status,
    row_count: job.rowCount,
    error: job.error,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
    csv_url: done ? `/api/exports/${job.id}/csv` : null,
    xlsx_url: done ? `/api/exports/${job.id}/xlsx` : null,
  };
}

/** `tickets-2026-11-22-12.csv`: the list, the day it was made, the job. */
function fileName(job: ExportJob, format: Format): string {
  const day = (job.finishedAt ?? job.createdAt).toISOString().slice(0, 10);
  return `${job.model}-${day}-${job.id}.${format}`;
}

export async function exportRoutes(app: FastifyInstance, options: ExportRoutesOptions): Promise<void> {
  const { db, registry, config } = options;
  const store = fileStoreFor(config, db);
  const worker = new ExportWorker({ db, registry, store, outbox: app.outbox, log: app.log }, options.worker);
  const enabled = options.worker?.enabled ?? true;

  // The worker starts once the app is ready (and first finishes what an earlier process left) and
  // stops, handing back the job in hand, before the database closes.
  app.addHook('onReady', async () => {
    if (enabled) worker.start();
  });
  app.addHook('onClose', async () => {
    await worker.stop();
  });

  // The body's own checks speak first, in the words they always said (the filter is a list's builder,
  // whose parser judges each name against what this caller may see); then the route's schema refuses
  // what the document does not allow, as for the lists (server/resources/plugin.ts).
  app.post('/api/exports', validating(queueExportSchema(registry)), async (request) => {
    const auth = await request.getAuth();
    if (!mayExport(auth)) throw forbidden();
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new ValidationError({ body: ['The body must be an object {userId, model, filter}.'] });
    const fields = body as Record<string, unknown>;
    const unknown = Object.keys(fields).filter((k) => !BODY_KEYS.has(k));
    if (unknown.length)
      throw new ValidationError(Object.fromEntries(unknown.map((k) => [k.slice(0, 40), ['Unknown field.']])));
    // The file goes to the one who asks: nobody exports in another user's name.
    if (String(fields.userId ?? '') !== String(auth.userId))
      throw new ValidationError({ userId: ['You can only export for yourself.'] });
    const { resource, columns } = checkExport(registry, auth, {
      model: fields.model,
      filter: fields.filter,
      columns: fields.columns,
    });
    const locale = pickLocale(fields.locale, request.headers['accept-language']);
    validInput(request);
    // The job and its audit entry (issue 38) commit together.
    await db.transaction().execute(async (trx) => {
      const job = await queueJob(trx, {
        tenantId: auth.tenantId,
        userId: auth.userId!,
        model: resource.name,
        filter: (fields.filter ?? []) as unknown[],
        columns,
        locale,
        origin: linkOrigin(request, config),
      });
      await audit(trx, auth, {
        action: 'export.create',
        resource: resource.name,
        changes: { export_job: job.id, filter: job.filter, columns },
      });
    });
    worker.wake();
    return { message: EXPORT_TEXTS[locale].queued };
  });

  // No input: its schema checks nothing, but the route is on the compiler every route uses.
  app.get('/api/exports', validating(LIST_EXPORTS_SCHEMA), async (request) => {
    const auth = await request.getAuth();
    if (!mayExport(auth)) throw forbidden();
    return { data: (await listJobs(db, auth.tenantId, auth.userId!)).map(present) };
  });

  app.get<{ Params: { id: number; format: string } }>(
    '/api/exports/:id/:format',
    validating(DOWNLOAD_EXPORT_SCHEMA),
    async (request, reply: FastifyReply) => {
      const auth = await request.getAuth();
      if (!mayExport(auth)) throw forbidden();
      const format = request.params.format;
      // by hand: an unknown format is a file that does not exist (404), which no schema's 422 can say.
      if (format !== 'csv' && format !== 'xlsx') throw notFound();
      validInput(request);
      const { id } = request.params;
      const job = await findJob(db, auth.tenantId, auth.userId!, id);
      const key = job?.status === 'done' ? (format === 'csv' ? job.csvKey : job.xlsxKey) : null;
      const file = key ? await store.open(key) : undefined;
      if (!job || !file) throw notFound();
      return reply
        .header('content-type', FORMATS[format])
        .header('content-disposition', contentDisposition('attachment', fileName(job, format)))
        .header('content-length', String(file.size))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  );
}
