/**
 * The victims of the attack benchmark: ordinary users making their ordinary calls one after another,
 * each on a connection of its own (so they never queue behind the attacker's sockets in this process,
 * only in the server). A window ends after `calls` calls each or `seconds`, whichever comes first; a
 * call still open at the window's end counts with the time it had waited so far (a lower bound, marked).
 */
import http from 'node:http';
import { request } from './http.ts';
import { percentile } from './stats.ts';

export interface Victim {
  name: string;
  path: string;
  headers: Record<string, string>;
}

export interface VictimFigures {
  samples: number[];
  median: number;
  p95: number;
  /** Calls cut off at the window's end (their time is a lower bound). */
  cutOff: number;
  /** Calls that answered other than 200. */
  failed: number;
}

export interface Window {
  calls: number;
  seconds: number;
  /** Pause between one victim's calls: a user reading, not a load generator. */
  pauseMs: number;
}

async function oneVictim(
  base: string,
  victim: Victim,
  window: Window,
  until: number,
): Promise<VictimFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  let cutOff = 0;
  let failed = 0;
  try {
    while (samples.length < window.calls && performance.now() < until) {
      const started = performance.now();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), Math.max(1, until - started));
      try {
        const res = await request(base + victim.path, {
          headers: victim.headers,
          agent,
          signal: controller.signal,
        });
        if (res.status !== 200) failed++;
        samples.push(performance.now() - started);
      } catch (error) {
        if (!controller.signal.aborted) throw error;
        samples.push(performance.now() - started);
        cutOff++;
        break;
      } finally {
        clearTimeout(timer);
      }
      await new Promise((r) => setTimeout(r, window.pauseMs));
    }
  } finally {
    agent.destroy();
  }
  return { samples, median: percentile(samples, 50), p95: percentile(samples, 95), cutOff, failed };
}

/** Every victim at once over one window; figures by victim name. */
export async function measureVictims(
  base: string,
  victims: Victim[],
  window: Window,
): Promise<Record<string, VictimFigures>> {
  const until = performance.now() + window.seconds * 1000;
  const figures = await Promise.all(victims.map((v) => oneVictim(base, v, window, until)));
  return Object.fromEntries(victims.map((v, i) => [v.name, figures[i]!]));
}
