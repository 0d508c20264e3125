/**
 * Finding 12: an error that escapes its request (a stream 'error' nobody listens to, a promise nobody
 * awaits, a throw in a timer) is logged and the process serves on, however often; a throw in a
 * handler is a 500; Node's own internal error ends the process cleanly.
 * The app runs in a child process (tests/api/fixtures/escaping-errors-server.ts), so the end of the
 * process would be an exit the test sees.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitFor } from './processes.ts';
import { PGLITE_NODE_FLAGS } from '../node-flags.ts';

describe('the process-level safety net', () => {
  let base: string;
  let output = '';
  let exitCode: number | string | undefined;
  let child: ReturnType<typeof spawn>;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(
      process.execPath,
      [...PGLITE_NODE_FLAGS, '--import', 'tsx', 'tests/api/fixtures/escaping-errors-server.ts'],
      {
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    child.once('exit', (code, signal) => (exitCode = code ?? signal ?? 'unknown'));
    await waitFor('the fixture server', () => {
      if (exitCode !== undefined) throw new Error(`the fixture exited with ${exitCode}: ${output}`);
      return output.includes('Service desk running');
    });
  }, 120_000);

  afterAll(() => {
    if (exitCode === undefined) child.kill('SIGKILL');
  });

  it.each([
    ['stream', 'stray stream error'],
    ['rejection', 'stray rejection'],
    ['timer', 'stray throw in a timer'],
  ])('an escaped error (%s) is logged and the process serves on', async (kind, message) => {
    expect((await fetch(`${base}/test/escape/${kind}`)).status).toBe(200);
    await waitFor(`the log line of ${kind}`, () => output.includes(message), 10_000);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect(exitCode).toBeUndefined();
  });

  it('a throw in a handler answers 500 without details and the process serves on', async () => {
    const res = await fetch(`${base}/test/escape/handler`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Server error.' });
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect(exitCode).toBeUndefined();
  });

  it('escaped errors however many (a repeated request) never end the process', async () => {
    for (let i = 0; i < 50; i++) expect((await fetch(`${base}/test/escape/rejection`)).status).toBe(200);
    await waitFor('the 50 log lines', () => output.split('stray rejection').length > 50, 10_000);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect(exitCode).toBeUndefined();
  });

  it("Node's internal error shuts the process down cleanly with exit code 1", async () => {
    expect((await fetch(`${base}/test/escape/internal`)).status).toBe(200);
    await waitFor('the process to exit', () => exitCode !== undefined, 30_000);
    expect(exitCode).toBe(1);
    expect(output).toContain('Node reported an internal error');
  });
});
