/**
 * The OpenAPI document against a contract tester (issue 38, item 3): Prism in proxy mode validates each
 * real call and its answer against the document and stands between a client and the running service.
 * A call it finds at odds with the document is refused by Prism itself (`--errors`) or marked with an
 * `sl-violations` header; here real list, record, create and error calls pass through untouched, in both
 * spellings of the list query. One engine suffices: the document does not depend on the database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../free-port.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

const PRISM = join(process.cwd(), 'node_modules/@stoplight/prism-cli/dist/index.js');

/** Starts Prism as a validating proxy in front of `upstream`; resolves once it listens. */
async function startPrism(documentPath: string, upstream: string, port: number): Promise<ChildProcess> {
  const prism = spawn(
    process.execPath,
    [PRISM, 'proxy', documentPath, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    prism.stdout!.on('data', read);
    prism.stderr!.on('data', read);
    prism.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${output}`));
    });
  });
  return prism;
}

describe.each(targets.slice(0, 1))('the OpenAPI document under a contract tester on $name', (target) => {
  let t: TestApp;
  let prism: ChildProcess | undefined;
  let folder: string;
  let direct: string;
  let proxied: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp(target);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    direct = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api`;
    const document = (await (await fetch(`${direct}/docs/openapi.json`)).json()) as Record<string, unknown>;
    folder = mkdtempSync(join(tmpdir(), 'contract-'));
    const path = join(folder, 'openapi.json');
    writeFileSync(path, JSON.stringify({ ...document, servers: [{ url: direct }] }));
    const port = await freePort();
    prism = await startPrism(path, direct, port);
    proxied = `http://127.0.0.1:${port}`;
    auth = await t.as('admin@example.com');
  }, 120_000);

  afterAll(async () => {
    prism?.kill();
    await t?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** The same call through Prism and straight to the service. */
  async function both(path: string, init: RequestInit = {}) {
    const headers = { ...auth, ...(init.body ? { 'content-type': 'application/json' } : {}) };
    const viaPrism = await fetch(`${proxied}${path}`, { ...init, headers });
    const body = await viaPrism.text();
    return { viaPrism, body, violations: viaPrism.headers.get('sl-violations') };
  }

  const bracket =
    '/tickets?builder[0][where][0]=status_id&builder[0][where][1]=1&builder[1][orderBy][0]=id' +
    '&builder[1][orderBy][1]=asc&builder[2][paginate]=3&with[]=company';
  const json = `/tickets?builder=${encodeURIComponent(
    JSON.stringify([{ where: ['status_id', 1] }, { orderBy: ['id', 'asc'] }, { paginate: 3 }]),
  )}&with[]=company`;

  it('accepts a real list call in the bracket style the apps send', async () => {
    const { viaPrism, body, violations } = await both(bracket);
    expect(violations).toBeNull();
    expect(viaPrism.status).toBe(200);
    const page = JSON.parse(body);
    expect(page.per_page).toBe(3);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((row: { status_id: number }) => row.status_id === 1)).toBe(true);
  });

  it('accepts the JSON-encoded list query the document describes, which means the same', async () => {
    const [fromJson, fromBrackets] = [await both(json), await both(bracket)];
    expect(fromJson.violations).toBeNull();
    expect(fromJson.viaPrism.status).toBe(200);
    expect(JSON.parse(fromJson.body)).toEqual(JSON.parse(fromBrackets.body));
  });

  it('accepts a record call, a create call and error answers', async () => {
    const list = JSON.parse((await both(bracket)).body);
    const record = await both(`/tickets/${list.data[0].id}`);
    expect(record.violations).toBeNull();
    expect(record.viaPrism.status).toBe(200);
    expect(JSON.parse(record.body).id).toBe(list.data[0].id);

    const created = await both('/ticket-groups', {
      method: 'POST',
      body: JSON.stringify({ name: 'Contract' }),
    });
    expect(created.violations).toBeNull();
    expect(created.viaPrism.status).toBe(201);
    expect(JSON.parse(created.body).name).toBe('Contract');

    const missing = await both('/tickets/99999999');
    expect(missing.violations).toBeNull();
    expect(missing.viaPrism.status).toBe(404);

    const unknownField = await both(`/tickets?builder=${encodeURIComponent('[{"where":["nope",1]}]')}`);
    expect(unknownField.violations).toBeNull();
    expect(unknownField.viaPrism.status).toBe(422);
    expect(JSON.parse(unknownField.body).errors['builder.0'][0]).toMatch(/nope/);
  });

  it('is a live tester: a call at odds with the document is refused by Prism itself', async () => {
    // The service's own answer to a create without its required name would be its 422; Prism's differs.
    const refused = await both('/ticket-groups', { method: 'POST', body: JSON.stringify({ colour: 1 }) });
    expect(refused.viaPrism.status).toBe(422);
    expect(JSON.parse(refused.body).type).toMatch(/stoplight\.io\/prism\/errors/);
  });
});
