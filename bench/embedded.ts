/**
 * Section 5: `npm start` on an existing embedded (PGlite) data folder: the time to a ready /api/health
 * and the server's peak memory. The folder is created by a first start that is not timed.
 */
import { createServer } from 'node:net';
import { request } from './http.ts';
import { peakMemory, processTree, start, stop } from './processes.ts';

export interface EmbeddedResult {
  startSeconds: number;
  peakMemoryBytes: number;
  firstStartSeconds?: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startOnce(dataDir: string): Promise<{ seconds: number; peak: number }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };
  delete env.DATABASE_URL;
  const started = performance.now();
  const child = start('npm', ['start', '--silent'], env);
  let peak = 0;
  const sample = () => {
    for (const pid of processTree(child.pid!)) peak = Math.max(peak, peakMemory(pid));
  };
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start ended with ${child.exitCode}`);
      const res = await request(`http://127.0.0.1:${port}/api/health`).catch(() => null);
      if (res?.status === 200) break;
      if (performance.now() - started > 180_000) throw new Error('npm start: no ready /api/health in 180 s');
      sample();
      await new Promise((r) => setTimeout(r, 25));
    }
    const seconds = (performance.now() - started) / 1000;
    // Peak of a started server answering a few calls, not of the start alone.
    for (let i = 0; i < 20; i++) await request(`http://127.0.0.1:${port}/api/health`);
    sample();
    return { seconds, peak };
  } finally {
    await stop(child, 'SIGINT');
  }
}

export async function measureEmbedded(dataDir: string): Promise<EmbeddedResult> {
  // An untimed start first: it creates the folder (or migrates it to this version) and builds the apps
  // when their sources changed, so the timed start is the everyday one.
  const first = await startOnce(dataDir);
  const { seconds, peak } = await startOnce(dataDir);
  return { startSeconds: seconds, peakMemoryBytes: peak, firstStartSeconds: first.seconds };
}
