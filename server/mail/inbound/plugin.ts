/**
 * The app's mail fetcher (fetcher.ts): it starts when the app is ready and stops on close, before the
 * database closes. MAIL_FETCH_MS=0 leaves it stopped (the fetcher still answers `fetchMailbox`).
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { fileStoreFor } from '../../files/store.ts';
import type { Registry } from '../../schema/registry.ts';
import { MailFetcher } from './fetcher.ts';
import { useMailboxKey } from './secret.ts';
import { mailResolver } from './authenticate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailFetcher: MailFetcher;
  }
}

const addressOf = (from: string) => (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim().toLowerCase();

export function installMailFetcher(
  app: FastifyInstance,
  db: Db,
  registry: Registry,
  config: Config,
): MailFetcher {
  useMailboxKey(config.mailboxKey);
  const fetcher = new MailFetcher(
    {
      db,
      registry,
      store: fileStoreFor(config, db),
      attachmentMaxBytes: config.attachmentMaxBytes,
      maxAttachments: config.mailMaxAttachments,
      ourAddress: addressOf(config.mailFrom),
      resolver: mailResolver(config.mailDnsServers),
      log: app.log,
    },
    config,
  );
  app.decorate('mailFetcher', fetcher);
  app.addHook('onReady', async () => fetcher.start());
  app.addHook('onClose', async () => fetcher.stop());
  return fetcher;
}
