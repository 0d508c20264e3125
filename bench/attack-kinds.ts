/**
 * The attacks of bench/attacks.ts (issue 31), each as an outsider with a client account or nothing at
 * all could run it: started against a running server, stopped after the victims' window, and a line
 * on what the attacker got (so a run shows whether the server refused, queued or served it).
 */
import http from 'node:http';
import { companyCount, type Dataset } from './dataset.ts';
import { request } from './http.ts';
import { ATTACK_MAILBOX, cleanUpTarget, type Target } from './attack-server.ts';
import { hasDovecot, rawMail, startDovecot, type Dovecot } from '../tests/api/dovecot.ts';

export type AttackKey = 'nested-with' | 'login-flood' | 'event-replay' | 'hostile-mail';
export const ATTACK_KEYS: AttackKey[] = ['nested-with', 'login-flood', 'event-replay', 'hostile-mail'];

export interface AttackContext {
  base: string;
  data: Dataset;
  tickets: number;
  operator: Record<string, string>;
  client: Record<string, string>;
  loginRate: number;
}

export interface RunningAttack {
  /** Stops it and says what the attacker got. */
  stop(): Promise<string>;
}

export interface Attack {
  key: AttackKey;
  title: string;
  /** Settings the server needs for this attack. */
  serverEnv?: Record<string, string>;
  /** Why it cannot run on this machine, or undefined. */
  unavailable?(): string | undefined;
  /** Before the baseline: what the attack needs in place (so the baseline has it too). */
  prepare?(ctx: AttackContext): Promise<void>;
  start(ctx: AttackContext): Promise<RunningAttack>;
  /** After the server stopped. */
  cleanUp?(target: Target): Promise<void>;
}

/** Counts of answers by status ("200 ×12, 422 ×3"). */
class Tally {
  private readonly counts = new Map<string, number>();
  bytes = 0;
  add(status: number | string): void {
    const key = String(status);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  get total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
  toString(): string {
    const parts = [...this.counts].sort().map(([k, n]) => `${k} ×${n}`);
    return parts.join(', ') || 'no answer';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

/** (a) A client asks again and again for a page of 100 tickets with company.tickets.messages. */
export const NESTED_WITH_PATH = '/api/tickets?with[]=company.tickets.messages&builder[0][paginate]=100';

const nestedWith: Attack = {
  key: 'nested-with',
  title: '(a) nested `with`, a client repeating it',
  async start(ctx) {
    const tally = new Tally();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const controller = new AbortController();
    let largest = 0;
    let slowest = 0;
    const loop = (async () => {
      while (!controller.signal.aborted) {
        const started = performance.now();
        try {
          const res = await request(ctx.base + NESTED_WITH_PATH, {
            headers: ctx.client,
            agent,
            signal: controller.signal,
          });
          tally.add(res.status);
          largest = Math.max(largest, Buffer.byteLength(res.body));
          slowest = Math.max(slowest, performance.now() - started);
        } catch {
          tally.add(controller.signal.aborted ? `still running after ${seconds(started)}` : 'error');
        }
      }
    })();
    return {
      async stop() {
        controller.abort();
        await loop;
        agent.destroy();
        const answered = largest
          ? `; largest answer ${mb(largest)}, slowest ${(slowest / 1000).toFixed(1)} s`
          : '';
        return `${tally}${answered}`;
      },
    };
  },
};

/** (b) Wrong passwords from rotating addresses (X-Forwarded-For behind a trusted proxy) and accounts. */
const loginFlood: Attack = {
  key: 'login-flood',
  title: '(b) slow login flood, rotating addresses and accounts',
  async start(ctx) {
    const tally = new Tally();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const accounts = companyCount(ctx.tickets) * 2;
    // Addresses and unknown names of their own each run: an earlier run's attempts count for nothing here.
    const salt = Math.floor(Math.random() * 256);
    let n = 0;
    let inFlight = 0;
    const pending = new Set<Promise<void>>();
    const fire = () => {
      // Past 64 unanswered attempts the attacker waits too: it is not a load generator.
      if (inFlight >= 64) return tally.add('skipped');
      n++;
      const email =
        n % 2 ? `client-${1 + (n % accounts)}@bench.example` : `nobody-${salt}-${n}@bench.example`;
      const address = `10.${salt}.${(n >> 8) & 255}.${n & 255}`;
      inFlight++;
      const p = request(`${ctx.base}/api/auth/login`, {
        method: 'POST',
        headers: { 'x-forwarded-for': address },
        body: { username: email, password: `wrong-${n}` },
        agent,
      })
        .then((res) => tally.add(res.status))
        .catch(() => tally.add('error'))
        .finally(() => {
          inFlight--;
          pending.delete(p);
        });
      pending.add(p);
    };
    const timer = setInterval(fire, 1000 / ctx.loginRate);
    return {
      async stop() {
        clearInterval(timer);
        await Promise.race([Promise.all(pending), sleep(15_000)]);
        agent.destroy();
        return `${ctx.loginRate}/s: ${tally}`;
      },
    };
  },
};

/** (c) A client reopening a few event streams with Last-Event-ID: 0 every couple of seconds. */
export const REPLAY_STREAMS = 3;
export const REPLAY_EVERY_MS = 2_000;

const eventReplay: Attack = {
  key: 'event-replay',
  title: `(c) event-stream replay, ${REPLAY_STREAMS} streams reopened every ${REPLAY_EVERY_MS / 1000} s`,
  async start(ctx) {
    const tally = new Tally();
    let stopped = false;
    let events = 0;
    // Each stream lives REPLAY_EVERY_MS, answered or not, then the next one opens.
    const openOnce = () =>
      new Promise<void>((resolve) => {
        let answered = false;
        const req = http.get(
          `${ctx.base}/api/events`,
          { headers: { ...ctx.client, 'last-event-id': '0', accept: 'text/event-stream' } },
          (res) => {
            answered = true;
            tally.add(res.statusCode ?? 0);
            res.on('data', (chunk: Buffer) => (events += chunk.toString().match(/^id: /gm)?.length ?? 0));
            res.on('error', () => undefined);
          },
        );
        req.on('error', () => undefined);
        setTimeout(() => {
          if (!answered) tally.add(`no answer in ${REPLAY_EVERY_MS / 1000} s`);
          req.destroy();
          resolve();
        }, REPLAY_EVERY_MS);
      });
    const streams = Array.from({ length: REPLAY_STREAMS }, async () => {
      while (!stopped) await openOnce();
    });
    return {
      async stop() {
        stopped = true;
        await Promise.all(streams);
        return `streams opened: ${tally}; events received ${events}`;
      },
    };
  },
};

/** (d) A mail whose HTML is about 160 kB of one unclosed tag, repeated, in a mailbox the server fetches. */
export const HOSTILE_HTML_BYTES = 160_000;

function hostileMail(): Attack {
  let dovecot: Dovecot | undefined;
  return {
    key: 'hostile-mail',
    title: `(d) hostile mail, ${HOSTILE_HTML_BYTES / 1000} kB of unclosed <div class="x`,
    serverEnv: { MAIL_FETCH_MS: '1000' },
    unavailable: () =>
      hasDovecot() ? undefined : 'skipped: no Dovecot here (/usr/sbin/dovecot, Debian package dovecot-imapd)',
    async prepare(ctx) {
      dovecot = await startDovecot();
      const res = await request(`${ctx.base}/api/mailboxes`, {
        method: 'POST',
        headers: ctx.operator,
        body: {
          name: ATTACK_MAILBOX,
          host: dovecot.host,
          port: dovecot.port,
          tls: false,
          username: dovecot.user,
          password: dovecot.password,
          active: true,
        },
      });
      if (res.status !== 201)
        throw new Error(`adding the mailbox answered ${res.status}: ${res.body.slice(0, 200)}`);
    },
    async start() {
      const unit = '<div class="x';
      const html = `<html><body>${unit.repeat(Math.ceil(HOSTILE_HTML_BYTES / unit.length))}`;
      await dovecot!.deliver(rawMail({ from: 'client@example.com', subject: 'Printer', html }).raw);
      return { stop: async () => `1 mail of ${(html.length / 1000).toFixed(0)} kB HTML delivered` };
    },
    async cleanUp(target) {
      await dovecot?.close();
      dovecot = undefined;
      await cleanUpTarget(target);
    },
  };
}

export function attacks(): Attack[] {
  return [nestedWith, loginFlood, eventReplay, hostileMail()];
}
