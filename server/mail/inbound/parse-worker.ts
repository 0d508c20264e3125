/**
 * The mail reader's thread (parse-thread.ts starts it through parse-worker-start.js): it reads one raw
 * mail at a time into an IncomingMail (parse.ts) and sends it back, its files' bytes moved rather than
 * copied. Whatever a mail does here (a slow parse, an exception, all the memory the thread may have)
 * stays in this thread: the thread that answers the API only waits for the answer, for a limited time.
 */
import { parentPort } from 'node:worker_threads';
import { parseMail, type IncomingMail } from './parse.ts';

export interface ReadRequest {
  id: number;
  raw: Uint8Array;
  maxAttachments: number;
}

export type ReadAnswer = { ready: true } | { id: number; mail: IncomingMail } | { id: number; error: string };

/** Bytes that can be moved to the other thread: a whole ArrayBuffer of their own (a copy if they share one). */
function movable(bytes: Buffer): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : new Uint8Array(bytes);
}

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs as a worker thread only');

port.on('message', async (request: ReadRequest) => {
  const raw = Buffer.from(request.raw.buffer, request.raw.byteOffset, request.raw.byteLength);
  let answer: ReadAnswer;
  const moved: ArrayBuffer[] = [];
  try {
    const mail = await parseMail(raw, { maxAttachments: request.maxAttachments });
    const attachments = mail.attachments.map((a) => {
      const content = movable(a.content);
      // The same bytes twice (mail.eml is the raw mail) are moved once.
      if (!moved.includes(content.buffer as ArrayBuffer)) moved.push(content.buffer as ArrayBuffer);
      return { ...a, content: content as Buffer };
    });
    answer = { id: request.id, mail: { ...mail, attachments } };
  } catch (error) {
    answer = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer, moved);
});

port.postMessage({ ready: true } satisfies ReadAnswer);
