/**
 * Finding 9: a PostgreSQL restart under write load. The real server runs as a child process on a
 * throwaway cluster of its own; the database is stopped and started while tickets are being written.
 * The process must live through it, answer 503 with Retry-After while the database is away, come back
 * by itself, and keep every write it acknowledged; its export worker and SLA pass work on after it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  freePort,
  startCluster,
  startServer,
  waitFor,
  type Cluster,
  type ServerProcess,
} from './processes.ts';

interface Answer {
  status: number;
  retryAfter: string | null;
  body: string;
  id?: number;
}

/** One statement on its own connection. */
async function statement(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL restart under write load (own cluster)', () => {
  let cluster: Cluster;
  let server: ServerProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'sd-outage-'));

  beforeAll(async () => {
    cluster = await startCluster();
    server = startServer({
      PORT: String(await freePort()),
      DATABASE_URL: cluster.url,
      DATA_DIR: dataDir,
      SEED: 'demo',
      // The SLA and deadline pass looks every half second, so that it meets the outage.
      DEADLINE_CHECK_MS: '500',
    });
    await server.ready;
  }, 120_000);

  afterAll(async () => {
    // A failed test may have left the database stopped or frozen, and the server waiting for it.
    cluster?.thaw();
    cluster?.start();
    await server?.stop();
    cluster?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After during the outage, recovers within 10 s, loses no acknowledged write', async () => {
    const login = await fetch(`${server.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: 'demo' }),
    });
    expect(login.status).toBe(200);
    const { access_token, user } = (await login.json()) as { access_token: string; user: { id: number } };
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${access_token}` };

    let n = 0;
    const createCompany = async (): Promise<Answer> => {
      const res = await fetch(`${server.base}/api/companies`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `Outage ${++n}` }),
      }).catch((error: Error) => error);
      // No answer at all: the process is gone (checked below), or it dropped the connection.
      if (res instanceof Error) return { status: 0, retryAfter: null, body: String(res.cause ?? res) };
      const body = await res.text();
      const id = res.status === 201 ? Number(JSON.parse(body).data?.id ?? JSON.parse(body).id) : undefined;
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body, id };
    };

    // Two writers, as two users would, until told to stop.
    const answers: { answer: Answer; phase: Phase }[] = [];
    type Phase = 'before' | 'down' | 'restarting' | 'after';
    let phase: Phase = 'before';
    let writing = true;
    // Also when an assertion fails half way: the writers stop and the database runs for the next test.
    onTestFinished(() => {
      writing = false;
      cluster.start();
    });
    const writer = async () => {
      while (writing) {
        const at = phase;
        const answer = await createCompany();
        answers.push({ answer, phase: at === phase ? at : 'restarting' });
        if (server.hasExited()) return;
      }
    };
    const writers = [writer(), writer()];
    const alive =
      <T>(condition: () => T) =>
      () => {
        if (server.hasExited()) throw new Error(`the server exited:\n${server.output().slice(-3000)}`);
        return condition();
      };

    await waitFor(
      'writes before the outage',
      alive(() => answers.filter((a) => a.answer.status === 201).length >= 10),
    );
    phase = 'restarting';
    cluster.stop();
    phase = 'down';

    await waitFor(
      'answers while the database is down',
      alive(() => answers.filter((a) => a.phase === 'down').length >= 5),
    );
    const health = await fetch(`${server.base}/api/health`);
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toMatch(/^\d+$/);
    // Not only writes: a list, a record, a sign-in (its attempt counters live in the database) and an
    // upload (its row does) are each a 503 with Retry-After too, never a 500 or a wrong 401.
    const form = new FormData();
    form.append('file', new Blob(['het logbestand'], { type: 'text/plain' }), 'log.txt');
    const others: [string, RequestInit][] = [
      ['/api/companies', { headers }],
      ['/api/companies/1', { headers }],
      [
        '/api/auth/login',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin@example.com', password: 'demo' }),
        },
      ],
      ['/api/attachments', { method: 'POST', headers: { authorization: headers.authorization }, body: form }],
    ];
    for (const [path, init] of others) {
      const res = await fetch(`${server.base}${path}`, init);
      const body = await res.text();
      expect(res.status, `${init.method ?? 'GET'} ${path}: ${body}`).toBe(503);
      expect(res.headers.get('retry-after'), path).toMatch(/^\d+$/);
      expect(JSON.parse(body).message, path).toMatch(/database/i);
    }

    // The SLA pass met the outage: it said so and lives on (checked after the restart).
    await waitFor(
      'the SLA pass to find the database gone',
      alive(() => server.output().includes('deadline and SLA check: lost its database')),
    );

    phase = 'restarting';
    cluster.start();
    const restarted = Date.now();
    phase = 'after';
    await waitFor(
      'a write answered 201 after the restart',
      alive(() => answers.some((a) => a.phase === 'after' && a.answer.status === 201)),
      10_000,
      50,
    );
    const healthAfter = await waitFor(
      '/api/health 200 after the restart',
      async () => ((await fetch(`${server.base}/api/health`)).status === 200 ? true : undefined),
      Math.max(1, 10_000 - (Date.now() - restarted)),
      50,
    );
    expect(healthAfter).toBe(true);
    writing = false;
    await Promise.all(writers);

    expect(server.hasExited()).toBe(false);
    const down = answers.filter((a) => a.phase === 'down');
    expect(down.length).toBeGreaterThanOrEqual(5);
    for (const { answer } of down) {
      expect(answer.status, answer.body).toBe(503);
      expect(answer.retryAfter).toMatch(/^\d+$/);
      expect(JSON.parse(answer.body).message).toMatch(/database/i);
    }
    // A write in flight when the database went away may have failed either way; it was not
    // acknowledged. Nothing is ever a 500.
    for (const { answer } of answers) expect([201, 503], answer.body).toContain(answer.status);

    const acknowledged = answers.flatMap((a) => (a.answer.status === 201 ? [a.answer.id!] : []));
    expect(acknowledged.length).toBeGreaterThanOrEqual(11);
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      const { rows } = await client.query('select id from companies where id = any($1::int[])', [
        acknowledged,
      ]);
      expect(rows.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual(
        [...acknowledged].sort((a, b) => a - b),
      );
    } finally {
      await client.end();
    }

    // The export worker lived through the outage too: a job queued now is run.
    const queued = await fetch(`${server.base}/api/exports`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ userId: user.id, model: 'companies', filter: [] }),
    });
    expect(queued.status).toBe(200);
    const job = await waitFor(
      'the export worker to finish a job queued after the outage',
      alive(async () => {
        const res = await fetch(`${server.base}/api/exports`, { headers });
        const newest = ((await res.json()) as { data: { status: string }[] }).data[0];
        return newest?.status === 'done' || newest?.status === 'failed' ? newest : undefined;
      }),
      30_000,
    );
    expect(job.status).toBe('done');

    // And the SLA pass: a ticket two days old whose clock is due now is measured, and found breached.
    const { rows: slas } = await statement(cluster.url, 'select id from slas order by id limit 1');
    const ticket = await fetch(`${server.base}/api/tickets`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ description: 'Measured after the outage', sla_id: slas[0].id }),
    });
    expect(ticket.status, await ticket.clone().text()).toBe(201);
    const ticketId = ((await ticket.json()) as { id: number }).id;
    await statement(
      cluster.url,
      `update tickets set created_at = now() - interval '2 days', sla_recheck_at = now() where id = $1`,
      [ticketId],
    );
    await waitFor(
      'the SLA pass to measure the ticket after the outage',
      alive(async () => {
        const { rows } = await statement(cluster.url, 'select sla_state from tickets where id = $1', [
          ticketId,
        ]);
        return rows[0]?.sla_state === 'breached';
      }),
      30_000,
    );
  }, 120_000);

  it('answers 503 from /api/health when the database stops answering, instead of waiting for it', async () => {
    // Warm connections in the pool: the health check's statement goes to a frozen server process.
    expect((await fetch(`${server.base}/api/health`)).status).toBe(200);
    cluster.freeze();
    try {
      const health = await fetch(`${server.base}/api/health`);
      expect(health.status).toBe(503);
      expect(health.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      cluster.thaw();
    }
    await waitFor('/api/health 200 once the database answers again', async () =>
      (await fetch(`${server.base}/api/health`)).status === 200 ? true : undefined,
    );
    expect(server.hasExited()).toBe(false);
  }, 60_000);
});
