/**
 * Section 8 (issue 40, item 4): the first screen on a phone. Lighthouse (its default mobile profile:
 * a mid-range phone's screen, 4x CPU slowdown and a slow 4G link, simulated) on the portal's login, the
 * portal's ticket list signed in as the portal client, and the back office's dashboard signed in as the
 * demo admin, each with its performance score and total blocking time.
 *
 * Lighthouse is not one of the project's dependencies yet: the section runs the `lighthouse` command of
 * node_modules/.bin (or LIGHTHOUSE_BIN) when there is one, and otherwise says what to install (12.2.3:
 * 13 wants Node 22). The browser is Debian's Chromium (/usr/bin/chromium) or, without it, the headless
 * shell the browser tests use (tests/e2e/chromium.ts), started here through playwright-core with a
 * debugging port that Lighthouse connects to. Signing in is the apps' own: the login call through the
 * browser's context (its refresh cookie) and the session keys the apps read in localStorage
 * (src/dataProvider/storage.ts); Lighthouse then keeps the storage (--disable-storage-reset), and the
 * browser's HTTP cache is emptied before each page so every page is a first visit's download.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM as HEADLESS_SHELL, CHROMIUM_ARGS, FULL_CHROMIUM } from '../tests/e2e/chromium.ts';
import { freePort, output } from './processes.ts';
import { mark, table } from './stats.ts';

export interface LighthousePage {
  name: string;
  path: string;
  /** Who is signed in (none: the login page itself). */
  as?: string;
}

export interface LighthouseFigure {
  name: string;
  path: string;
  /** 0 to 1; null when Lighthouse could not score the page. */
  performance: number | null;
  totalBlockingTimeMs: number | null;
  largestContentfulPaintMs: number | null;
  error?: string;
}

export type LighthouseResult =
  | { ran: true; browser: string; lighthouse: string; pages: LighthouseFigure[] }
  | { ran: false; reason: string };

/** The targets, on a quiet machine. */
export const LIGHTHOUSE_TARGETS = { performance: 0.9, totalBlockingTimeMs: 300 };

/** What the run installs when the dependency is missing (13 needs Node 22; see the package lists). */
export const LIGHTHOUSE_PACKAGE = 'lighthouse@12.2.3';

export const LIGHTHOUSE_PAGES: LighthousePage[] = [
  { name: 'portal login', path: '/app/login' },
  { name: 'portal ticket list (client)', path: '/app/tickets', as: 'client@example.com' },
  { name: 'back office dashboard (admin)', path: '/', as: 'admin@example.com' },
];

/** The Chromium of this machine Lighthouse runs in: the full browser when installed, else the shell. */
export function lighthouseBrowser(): string | undefined {
  return [FULL_CHROMIUM, HEADLESS_SHELL].find((path) => existsSync(path));
}

export function lighthouseCommand(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env.LIGHTHOUSE_BIN || join('node_modules', '.bin', 'lighthouse');
  return existsSync(path) ? path : undefined;
}

interface Lhr {
  lighthouseVersion: string;
  finalDisplayedUrl?: string;
  runtimeError?: { message: string };
  categories: { performance?: { score: number | null } };
  audits: Record<string, { numericValue?: number } | undefined>;
}

export async function measureLighthouse(
  base: string,
  pages: LighthousePage[] = LIGHTHOUSE_PAGES,
): Promise<LighthouseResult> {
  const command = lighthouseCommand();
  if (!command)
    return {
      ran: false,
      reason: `lighthouse is not installed (a dev dependency to add: npm i -D -E ${LIGHTHOUSE_PACKAGE}; or set LIGHTHOUSE_BIN)`,
    };
  const browserPath = lighthouseBrowser();
  if (!browserPath) return { ran: false, reason: `no Chromium at ${FULL_CHROMIUM} or ${HEADLESS_SHELL}` };

  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browserPath,
    headless: true,
    locale: 'nl-NL',
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  const figures: LighthouseFigure[] = [];
  let version = '';
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    for (const target of pages) {
      // Signed in as `as`, or not at all: the apps' session keys, on the apps' origin.
      await page.goto(`${base}/api/health`);
      await page.evaluate(() => localStorage.clear());
      await context.clearCookies();
      if (target.as) {
        const res = await page.request.post(`${base}/api/auth/login`, {
          data: { username: target.as, password: 'demo' },
        });
        if (!res.ok()) throw new Error(`login of ${target.as}: ${res.status()}`);
        const { access_token: token, user } = (await res.json()) as { access_token: string; user: unknown };
        await page.evaluate(
          ({ token, user }) => {
            localStorage.setItem('APP_PORTAL_TOKEN', token);
            localStorage.setItem('APP_USER', JSON.stringify(user));
          },
          { token, user },
        );
      }
      await cdp.send('Network.clearBrowserCache');
      const figure: LighthouseFigure = {
        name: target.name,
        path: target.path,
        performance: null,
        totalBlockingTimeMs: null,
        largestContentfulPaintMs: null,
      };
      try {
        const json = await output(command, [
          base + target.path,
          `--port=${port}`,
          '--output=json',
          '--output-path=stdout',
          '--only-categories=performance',
          '--disable-storage-reset',
          '--quiet',
        ]);
        const lhr = JSON.parse(json) as Lhr;
        version = lhr.lighthouseVersion;
        if (lhr.runtimeError) figure.error = lhr.runtimeError.message;
        // A page that sent Lighthouse elsewhere (a signed-out list to the login) is not the page asked for.
        const landed = lhr.finalDisplayedUrl ? new URL(lhr.finalDisplayedUrl).pathname : target.path;
        if (landed !== target.path) figure.error = `ended on ${landed}, not ${target.path}`;
        figure.performance = lhr.categories.performance?.score ?? null;
        figure.totalBlockingTimeMs = lhr.audits['total-blocking-time']?.numericValue ?? null;
        figure.largestContentfulPaintMs = lhr.audits['largest-contentful-paint']?.numericValue ?? null;
      } catch (error) {
        figure.error = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
      }
      figures.push(figure);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return { ran: true, browser: browserPath, lighthouse: version, pages: figures };
}

/** Section 8's table: each page's score and total blocking time against the issue's targets. */
export function lighthouseTable(result: LighthouseResult & { ran: true }): string {
  const { performance: score, totalBlockingTimeMs: tbt } = LIGHTHOUSE_TARGETS;
  return table(
    ['page', 'performance', 'total blocking time', 'largest contentful paint', 'target'],
    result.pages.map((p) => [
      `${p.name} (${p.path})`,
      p.performance === null ? '-' : p.performance.toFixed(2),
      p.totalBlockingTimeMs === null ? '-' : `${Math.round(p.totalBlockingTimeMs)} ms`,
      p.largestContentfulPaintMs === null ? '-' : `${(p.largestContentfulPaintMs / 1000).toFixed(1)} s`,
      p.error
        ? `error: ${p.error}`
        : `score>=${score} ${mark((p.performance ?? 0) >= score)}, TBT<=${tbt} ms ${mark(
            p.totalBlockingTimeMs !== null && p.totalBlockingTimeMs <= tbt,
          )}`,
    ]),
  );
}
