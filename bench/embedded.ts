/**
 * Section 5: `npm start` on an existing embedded (PGlite) data folder: the time to a ready /api/health
 * and the server's peak memory. The folder is created by a first start that is not timed.
 */
import { request } from './http.ts';
import {
  embeddedServerEnv,
  freePort,
  peakMemory,
  processTree,
  start,
  stop,
  waitForHealth,
} from './processes.ts';

export interface EmbeddedResult {
  startSeconds: number;
  peakMemoryBytes: number;
  firstStartSeconds?: number;
}

async function startOnce(dataDir: string): Promise<{ seconds: number; peak: number }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = start('npm', ['start', '--silent'], embeddedServerEnv(port, dataDir));
  let peak = 0;
  const sample = () => {
    for (const pid of processTree(child.pid!)) peak = Math.max(peak, peakMemory(pid));
  };
  try {
    await waitForHealth(child, base, 180_000, sample);
    const seconds = (performance.now() - started) / 1000;
    // Peak of a started server answering a few calls, not of the start alone.
    for (let i = 0; i < 20; i++) await request(`${base}/api/health`);
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
