/**
 * The app's one mail outbox sender (outbox.ts): every plugin that mails queues through `app.outbox`.
 * It starts when the app is ready (sending what earlier processes left) and stops on close, after
 * the send in hand, before the database closes.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { fileStoreFor } from '../files/store.ts';
import { createMailer } from './mailer.ts';
import { MailOutbox } from './outbox.ts';
import { useMessageIdDomain } from './message-id.ts';

declare module 'fastify' {
  interface FastifyInstance {
    outbox: MailOutbox;
  }
}

export function installOutbox(app: FastifyInstance, db: Db, config: Config): MailOutbox {
  useMessageIdDomain(config.mailFrom);
  const outbox = new MailOutbox(
    { db, mailer: createMailer(config, app.log), store: fileStoreFor(config, db), log: app.log },
    config,
  );
  app.decorate('outbox', outbox);
  app.addHook('onReady', async () => outbox.start());
  app.addHook('onClose', async () => outbox.stop());
  return outbox;
}
