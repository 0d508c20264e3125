/**
 * A real IMAP server for the incoming-mail tests: Debian's Dovecot (`dovecot-imapd`, installed by
 * .ci/run) as its own process with a throwaway configuration: plain IMAP on a free loopback port, one
 * passwd-file user, a maildir under a temporary folder, every run-time file in that folder. The
 * package's own service is never used. Mails are delivered by appending them with imapflow.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort, waitFor } from './processes.ts';

export const DOVECOT = '/usr/sbin/dovecot';
export const hasDovecot = () => existsSync(DOVECOT);

export interface Dovecot {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Appends a raw mail to the user's INBOX; resolves with its UID. */
  deliver(raw: string | Buffer): Promise<number>;
  close(): Promise<void>;
}

const uidOf = (name: string) => {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  return line ? { uid: Number(line.split(':')[2]), gid: Number(line.split(':')[3]) } : undefined;
};

export async function startDovecot(): Promise<Dovecot> {
  const dir = mkdtempSync(join(tmpdir(), 'sd-dovecot-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const user = 'desk';
  const password = 'imap-secret-1';
  // The mail files belong to Dovecot's own system user: root may not own a mail user's files.
  const owner = uidOf('dovecot') ?? { uid: 0, gid: 0 };
  const home = join(dir, 'home');
  mkdirSync(join(home, user), { recursive: true });
  chownSync(home, owner.uid, owner.gid);
  chownSync(join(home, user), owner.uid, owner.gid);
  writeFileSync(join(dir, 'passwd'), `${user}:{PLAIN}${password}::::::\n`);
  const config = `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = ${owner.uid}
last_valid_uid = 0
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${owner.uid} gid=${owner.gid} home=${home}/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
  # No penalty for failed logins (the failing-mailbox tests log in with a wrong password on purpose):
  # with it, the next login from 127.0.0.1 waited some 4 s.
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service imap-login {
  chroot =
}
service stats {
  unix_listener stats-writer {
    mode = 0666
  }
}
`;
  const configFile = join(dir, 'dovecot.conf');
  writeFileSync(configFile, config);
  const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  child.on('error', (error) => (output += String(error)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(
    `Dovecot on port ${port}`,
    () => {
      if (child.exitCode !== null) {
        const log = existsSync(join(dir, 'dovecot.log'))
          ? readFileSync(join(dir, 'dovecot.log'), 'utf8')
          : '';
        throw new Error(`Dovecot exited: ${output}\n${log}`);
      }
      return new Promise<boolean>((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port });
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
    },
    20_000,
  );
  const dovecot: Dovecot = {
    host: '127.0.0.1',
    port,
    user,
    password,
    async deliver(raw) {
      const client = new ImapFlow({
        host: '127.0.0.1',
        port,
        secure: false,
        auth: { user, pass: password },
        logger: false,
      });
      client.on('error', () => undefined);
      await client.connect();
      try {
        const appended = await client.append('INBOX', raw);
        if (!appended || !appended.uid) throw new Error('Dovecot gave no UID for the appended mail');
        return appended.uid;
      } finally {
        await client.logout().catch(() => client.close());
      }
    },
    async close() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return dovecot;
}

let counter = 0;

/** A raw RFC 822 mail; `headers` over the defaults (From, To, Subject, Message-ID, Date). */
export function rawMail(options: {
  from: string;
  subject: string;
  text?: string;
  html?: string;
  headers?: Record<string, string>;
  attachment?: { name: string; type: string; content: Buffer };
  attachments?: { name: string; type: string; content: Buffer }[];
}): { raw: string; messageId: string } {
  counter += 1;
  const messageId =
    options.headers?.['Message-ID'] ??
    `<test.${Date.now()}.${counter}.${Math.random().toString(36).slice(2)}@client.example>`;
  const headers: Record<string, string> = {
    From: options.from,
    To: 'desk@desk.example',
    Subject: options.subject,
    'Message-ID': messageId,
    Date: new Date().toUTCString(),
    'MIME-Version': '1.0',
    ...options.headers,
  };
  const boundary = `b-${counter}-${Math.random().toString(36).slice(2)}`;
  const text = options.text ?? 'Hello';
  const parts: string[] = [];
  const body = options.html
    ? `Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${wrap(Buffer.from(options.html).toString('base64'))}`
    : `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${wrap(Buffer.from(text).toString('base64'))}`;
  let content: string;
  const files = [...(options.attachment ? [options.attachment] : []), ...(options.attachments ?? [])];
  if (files.length) {
    headers['Content-Type'] = `multipart/mixed; boundary="${boundary}"`;
    parts.push(`--${boundary}\r\n${body}`);
    for (const file of files)
      parts.push(
        `--${boundary}\r\nContent-Type: ${file.type}; name="${file.name}"\r\n` +
          `Content-Disposition: attachment; filename="${file.name}"\r\nContent-Transfer-Encoding: base64\r\n\r\n` +
          wrap(file.content.toString('base64')),
      );
    content = `${parts.join('\r\n')}\r\n--${boundary}--\r\n`;
  } else {
    const [head, rest] = body.split('\r\n\r\n');
    for (const line of head!.split('\r\n')) {
      const [name, value] = line.split(': ');
      headers[name!] = value!;
    }
    content = rest!;
  }
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  return { raw: `${head}\r\n\r\n${content}`, messageId };
}

const wrap = (base64: string) => base64.replace(/.{1,76}/g, '$&\r\n');
