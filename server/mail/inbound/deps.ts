/** What taking in a mail needs (the fetcher hands it over) and the mailbox it came from. */
import type { Db } from '../../db/database.ts';
import type { FileStore } from '../../files/store.ts';
import type { Registry } from '../../schema/registry.ts';
import type { DnsResolver } from './authenticate.ts';

export interface InboundDeps {
  db: Db;
  registry: Registry;
  store: FileStore;
  attachmentMaxBytes: number;
  /** MAIL_MAX_ATTACHMENTS: the files kept of one mail. */
  maxAttachments: number;
  /** How long the reader's thread may take for one mail (parse-thread.ts's READ_TIMEOUT_MS unless set). */
  readTimeoutMs?: number;
  /** MAIL_FROM's address: a mail from it is one of ours come back. */
  ourAddress?: string;
  /** How DKIM keys are looked up (MAIL_DNS_SERVERS); the system's resolver when not given. */
  resolver?: DnsResolver;
}

export interface MailboxRef {
  id: number;
  tenantId: number;
  username: string;
  replyTo: string | null;
  /** The authserv-id of the tenant's receiving server: its Authentication-Results are believed. */
  authservId: string | null;
}
