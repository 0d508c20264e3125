/**
 * Incoming mails are read in a thread of their own (issue 31, item 1): one worker thread per process,
 * started by the first mail and kept, reading one mail at a time. The thread that answers the API only
 * copies the raw bytes over and takes the answer back (the files' bytes moved, not copied), so no mail
 * can hold it, however its MIME or HTML is made. A mail gets READ_TIMEOUT_MS; after that the thread is
 * ended and the mail refused (process.ts records it as rejected); a thread that ends by itself (an
 * exception, the memory limit) refuses the mail it was reading. The next mail starts a new thread.
 *
 * A thread that cannot start at all is no fault of a mail: ReaderUnavailable, and the fetcher leaves the
 * mails where they are for a later round.
 */
import { Worker } from 'node:worker_threads';
import type { IncomingMail, ReadOptions } from './parse.ts';
import type { ReadAnswer, ReadRequest } from './parse-worker.ts';

/** How long one mail may take to read (MIME, quote, sanitising); a 60 MB mail takes a few seconds. */
export const READ_TIMEOUT_MS = 30_000;
/** How long the thread may take to start (it compiles its TypeScript first). */
const START_TIMEOUT_MS = 60_000;
/** The thread's own heap: a mail that needs more ends the thread, not the process. */
const HEAP_MB = 512;

export class ReaderUnavailable extends Error {}

interface Reader {
  worker: Worker;
  ready: Promise<void>;
}

let reader: Reader | undefined;
let tail: Promise<unknown> = Promise.resolve();
let nextId = 0;

function start(): Reader {
  const worker = new Worker(new URL('./parse-worker-start.js', import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
  });
  // An idle reader keeps no process alive; it is held while it reads (read below).
  worker.unref();
  const started: Reader = { worker, ready: Promise.resolve() };
  const forget = () => {
    if (reader === started) reader = undefined;
  };
  // Always listened to: an 'error' event without a listener would end the process.
  worker.on('error', forget);
  worker.on('exit', forget);
  started.ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      forget();
      void worker.terminate();
      reject(new ReaderUnavailable(`The mail reader did not start within ${START_TIMEOUT_MS} ms.`));
    }, START_TIMEOUT_MS);
    const settle = (error?: Error) => {
      clearTimeout(timer);
      worker.off('message', onReady);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onReady = (message: ReadAnswer) => {
      if ('ready' in message) settle();
    };
    const onError = (error: Error) =>
      settle(new ReaderUnavailable(`The mail reader did not start: ${error.message}`));
    const onExit = (code: number) =>
      settle(new ReaderUnavailable(`The mail reader stopped at its start (exit code ${code}).`));
    worker.on('message', onReady);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
  return started;
}

/** A started reader; one that ended after it started (between two mails) is replaced, twice at most. */
async function startedReader(): Promise<Worker> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const current = (reader ??= start());
    await current.ready;
    if (reader === current) return current.worker;
  }
  throw new ReaderUnavailable('The mail reader ended each time it started.');
}

async function readNow(raw: Buffer, options: ReadOptions, timeoutMs: number): Promise<IncomingMail> {
  const worker = await startedReader();
  const id = ++nextId;
  // A copy with an ArrayBuffer of its own, moved to the thread: the caller's buffer stays as it is.
  const bytes = new Uint8Array(raw);
  return new Promise<IncomingMail>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      worker.unref();
    };
    const timer = setTimeout(() => {
      done();
      if (reader?.worker === worker) reader = undefined;
      void worker.terminate();
      reject(new Error(`Reading the mail took longer than ${timeoutMs} ms; it was given up.`));
    }, timeoutMs);
    const onMessage = (answer: ReadAnswer) => {
      if ('ready' in answer || answer.id !== id) return;
      done();
      if ('error' in answer) reject(new Error(answer.error));
      else resolve(revive(answer.mail));
    };
    const onError = (error: Error) => {
      done();
      reject(new Error(`Reading the mail failed: ${error.message}`));
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`The mail reader stopped while reading the mail (exit code ${code}).`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.ref();
    worker.postMessage({ id, raw: bytes, maxAttachments: options.maxAttachments } satisfies ReadRequest, [
      bytes.buffer,
    ]);
  });
}

/** The mail read in the reader's thread, one mail at a time in the order asked. */
export function readMail(
  raw: Buffer,
  options: ReadOptions,
  timeoutMs: number = READ_TIMEOUT_MS,
): Promise<IncomingMail> {
  const result = tail.then(() => readNow(raw, options, timeoutMs));
  tail = result.catch(() => undefined);
  return result;
}

/** The reader's thread id while it runs (0 is the main thread's). */
export const readerThreadId = (): number | undefined => reader?.worker.threadId;

/** Bytes that crossed threads arrive as a Uint8Array: Buffers again, without a copy. */
function revive(mail: IncomingMail): IncomingMail {
  return {
    ...mail,
    attachments: mail.attachments.map((a) => ({
      ...a,
      content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
    })),
  };
}
