/**
 * The bench's statement capture (bench/capture.ts, issue 40): of everything the app's database runs
 * during a measured call it records the call's own statements only, not those of a job running beside
 * it, nor the subquery builders Kysely passes through its plugins; a write's body (JSON and multipart)
 * is read inside the call's context too. The product's app over real HTTP, as the bench runs it.
 *
 * The writes' statements are pinned (issue 40: at most 3 per ticket create is the target): each one
 * more is a round trip every create and every reply pays, inside a transaction that holds PGlite's one
 * connection, so a change that adds one must say so here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../server/app.ts';
import { registry } from '../../server/schema/registry.ts';
import { attributeRequests, replay, StatementCapture } from '../../bench/capture.ts';
import { kyselyRunner } from '../../bench/api-vs-sql.ts';
import { closeAgent, request } from '../../bench/http.ts';
import { DEFAULT_LIST } from '../../bench/scenarios.ts';
import { statementKind } from '../../bench/writes.ts';
import { buildTestApp, firstClientTicketId, targets, type TestApp } from './harness.ts';

/**
 * What both writes run once the ticket's thread changed: its SLA clock measured again (its history,
 * the policies it names, the update of the clock's columns), then the event's triggers and webhooks.
 */
const CLOCK_AND_EVENT = [
  'select contracts',
  'select sla_targets',
  'update tickets',
  'select automation_rules',
  'insert webhook_deliveries',
];

/** A ticket create's statements in order (BEGIN and COMMIT are not counted). */
const CREATE_STATEMENTS = [
  // The id drawn with its reference, and the default status, before the insert (tickets/start.ts).
  'select tenant_configs',
  'insert tickets',
  'with: insert live_events',
  ...CLOCK_AND_EVENT,
  'select tickets',
];

/** A message post's statements in order. */
const POST_STATEMENTS = [
  'select tickets',
  'insert messages',
  'with: insert live_events',
  'select tickets',
  'with: insert live_events',
  ...CLOCK_AND_EVENT,
  // The message with its author, then its attachments.
  'select users',
  'select unnest',
];

describe.each(targets)("the bench's capture on $name", (target) => {
  let t: TestApp;
  let app: FastifyInstance;
  let capture: StatementCapture;
  let base: string;
  let admin: Record<string, string>;
  let clientTicketId: number;

  beforeAll(async () => {
    t = await buildTestApp(target);
    capture = new StatementCapture(t.db);
    app = await buildApp({ db: capture.attach(), registry: registry(), config: t.config, fileSweepMs: 0 });
    attributeRequests(app.server);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    admin = await t.as('admin@example.com');
    clientTicketId = await firstClientTicketId(t.db);
  });
  afterAll(async () => {
    closeAgent();
    await app?.close();
    await t?.close();
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await request(base + path, { headers: { ...admin, ...headers } });
    expect(res.status, res.body.slice(0, 300)).toBe(200);
  };

  const post = async (path: string, body: BodyInit, headers: Record<string, string>, json: boolean) => {
    const res = await fetch(base + path, {
      method: 'POST',
      body,
      headers: { ...admin, ...headers, ...(json ? { 'content-type': 'application/json' } : {}) },
    });
    expect(res.status, await res.text()).toBe(201);
  };
  // As the bench's writes (bench/writes.ts): an operator's ticket, and a reply on a client's ticket.
  const createTicket = (headers: Record<string, string>) =>
    post('/api/tickets', JSON.stringify({ description: 'Captured write' }), headers, true);
  const postMessage = async (headers: Record<string, string>) => {
    const form = new FormData();
    form.set('morphable_type', 'ticket');
    form.set('morphable_id', String(clientTicketId));
    form.set('message', '<p>Captured message</p>');
    await post('/api/messages', form, headers, false);
  };

  it("records the call's statements and not those of a job running beside it", async () => {
    await get(DEFAULT_LIST);
    // A job of the app's on the same handle, on a timer of its own (as the outbox and the mail fetcher).
    const db = capture.attach();
    let stop = false;
    let jobRuns = 0;
    const job = (async () => {
      while (!stop) {
        await sql`select 'background job' as job`.execute(db);
        jobRuns++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    let during = 0;
    const statements = await capture.record(async (headers) => {
      const before = jobRuns;
      await get(DEFAULT_LIST, headers);
      during = jobRuns - before;
    });
    stop = true;
    await job;
    expect(during).toBeGreaterThan(0);
    expect(statements.some((s) => s.sql.includes('background job'))).toBe(false);
    // The list's page is one statement: its relations and total are subqueries of it, not statements.
    const pages = statements.filter((s) => /from "tickets" as "t0"/.test(s.sql));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.sql).toMatch(/row_to_json/);
    for (const s of statements) {
      expect(statements.some((o) => o !== s && o.sql.includes(`(${s.sql})`))).toBe(false);
      expect(s.after.every((i) => i >= 0 && i < statements.length)).toBe(true);
    }
    // The SQL side runs exactly these.
    await replay(statements, kyselyRunner(t.db));
  });

  it("leaves out the subqueries' builders, which Kysely passes through its plugins too", async () => {
    const path = '/api/reports/tickets?from=2025-01-01&to=2025-12-31&group=month';
    await get(path);
    const statements = await capture.record(async (headers) => get(path, headers));
    expect(statements.length).toBeGreaterThan(1);
    for (const s of statements) {
      expect(statements.some((o) => o !== s && o.sql.includes(`(${s.sql})`))).toBe(false);
    }
  });

  it('records nothing of a call without the header', async () => {
    const statements = await capture.record(async () => {
      await get(DEFAULT_LIST);
    });
    expect(statements).toEqual([]);
  });

  it("records a write's statements, its JSON and its multipart body read in the call's context", async () => {
    const created = await capture.record(async (headers) => {
      await createTicket(headers);
      capture.markAnswered();
    });
    expect(created.some((s) => /^insert into "tickets"/.test(s.sql))).toBe(true);
    expect(created.every((s) => !s.afterAnswer)).toBe(true);

    const posted = await capture.record(async (headers) => postMessage(headers));
    expect(posted.some((s) => /^insert into "messages"/.test(s.sql))).toBe(true);
  });

  it('a ticket create and a message post run the statements they are known to, no more', async () => {
    const kinds = (statements: { sql: string }[]) => statements.map((s) => statementKind(s.sql));
    await createTicket({});
    await postMessage({});
    const created = await capture.record(async (headers) => createTicket(headers));
    expect(kinds(created)).toEqual(CREATE_STATEMENTS);
    const posted = await capture.record(async (headers) => postMessage(headers));
    expect(kinds(posted)).toEqual(POST_STATEMENTS);
  });
});
