/**
 * Section 4: what the portal costs a browser. The gzip size of its initial JavaScript and of each lazy
 * chunk (scripts/bundle-size.ts), and in Debian's Chromium the time from submitting the login form to
 * the first ticket row, and from clicking a page number to the new rows, with the benchmark data behind.
 */
import { existsSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, FULL_CHROMIUM } from '../tests/e2e/chromium.ts';
import { bundleSizes, INITIAL_BUDGET_BYTES } from '../scripts/bundle-size.ts';
import { mark, median, ms, table } from './stats.ts';

export interface PortalResult {
  initialGzip: number;
  backofficeInitialGzip: number;
  /** Initial JavaScript plus the list screen's chunks and the Dutch messages: all before the first row. */
  firstListGzip: number;
  lazy: { file: string; gzip: number }[];
  loginToFirstRow: { median: number; samples: number[] } | null;
  pageToRows: { median: number; samples: number[] } | null;
  /** When each API call of the first login had ended, in ms after the submit. */
  firstRunCalls: { path: string; ms: number }[];
  note?: string;
}

const ROW = 'table tbody tr:not([data-testid="skeleton-row"])';

/**
 * Waits, checking at every animation frame inside the page, until the first data row is shown and, when
 * `from` is given, the list's counter says the page starts at that row ("16-30 van …"). A Playwright
 * locator's wait checks less and less often (up to every 500 ms), which would add up to half a second
 * to the figure after the row was on screen.
 */
async function shown(page: Page, from?: number): Promise<void> {
  await page.waitForFunction(
    ({ row, from }) => {
      const first = document.querySelector(row);
      if (!first || first.getBoundingClientRect().height === 0) return false;
      if (from === undefined) return true;
      return Array.from(document.querySelectorAll('[role="status"]')).some((s) =>
        new RegExp(`^${from}-\\d+ van `).test(s.textContent ?? ''),
      );
    },
    { row: ROW, from },
    { polling: 'raf', timeout: 30_000 },
  );
}

export async function measurePortal(base: string, email: string, runs: number): Promise<PortalResult> {
  const { initial, lazy, firstList } = bundleSizes();
  const result: PortalResult = {
    initialGzip: initial.portal!.gzip,
    backofficeInitialGzip: initial.backoffice!.gzip,
    firstListGzip: firstList.gzip,
    lazy: lazy.sort((a, b) => b.gzip - a.gzip),
    loginToFirstRow: null,
    pageToRows: null,
    firstRunCalls: [],
  };
  if (!existsSync(FULL_CHROMIUM))
    return { ...result, note: `no Chromium at ${FULL_CHROMIUM}: browser timings skipped` };
  const browser = await chromium.launch({ executablePath: FULL_CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const login: number[] = [];
    const paging: number[] = [];
    for (let i = 0; i < runs; i++) {
      // A fresh profile each time: no cached user, layout or chunks from the run before… but the HTTP cache
      // of a real returning visitor is empty too on its first visit, so this is the slow case.
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'nl-NL' });
      const page = await context.newPage();
      await page.goto(`${base}/app/login`);
      await page.getByLabel(/e-mail/i).fill(email);
      await page.getByLabel(/wachtwoord|password/i).fill('demo');
      const submit = page.getByRole('button', { name: /inloggen|sign in/i });
      let t = performance.now();
      if (i === 0) {
        const submitted = t;
        page.on('requestfinished', (req) => {
          const path = new URL(req.url()).pathname;
          if (path.startsWith('/api/'))
            result.firstRunCalls.push({ path: path.slice(4), ms: performance.now() - submitted });
        });
      }
      await submit.click();
      await shown(page);
      login.push(performance.now() - t);
      page.removeAllListeners('requestfinished');
      await shown(page, 1);
      const next = page.getByRole('button', { name: 'Pagina 2', exact: true });
      t = performance.now();
      await next.click();
      await shown(page, 16);
      paging.push(performance.now() - t);
      await context.close();
    }
    result.loginToFirstRow = { median: median(login), samples: login };
    result.pageToRows = { median: median(paging), samples: paging };
  } finally {
    await browser.close();
  }
  return result;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** Section 4's tables: the figures against their targets, then the lazy chunks. */
export function portalTable(portal: PortalResult): string {
  const figures = table(
    ['figure', 'value', 'target'],
    [
      [
        'portal initial JavaScript (gzip)',
        kb(portal.initialGzip),
        `<=300 kB ${mark(portal.initialGzip <= INITIAL_BUDGET_BYTES)}`,
      ],
      [
        'back office initial JavaScript (gzip)',
        kb(portal.backofficeInitialGzip),
        `<= portal ${mark(portal.backofficeInitialGzip <= portal.initialGzip)}`,
      ],
      ["portal's first ticket list in Dutch, all its JavaScript (gzip)", kb(portal.firstListGzip), '-'],
      [
        'login submit -> first ticket row (median of 5)',
        portal.loginToFirstRow ? `${ms(portal.loginToFirstRow.median)} ms` : '-',
        portal.loginToFirstRow ? `<=700 ms ${mark(portal.loginToFirstRow.median <= 700)}` : '-',
      ],
      [
        'of which: login call, me call, first list call ended at',
        portal.firstRunCalls.map((c) => `${c.path} ${ms(c.ms)}`).join(', ') || '-',
        'ms after submit (1st run)',
      ],
      [
        'page number click -> new rows (median of 5)',
        portal.pageToRows ? `${ms(portal.pageToRows.median)} ms` : '-',
        '-',
      ],
    ],
  );
  const chunks = table(
    ['lazy chunk', 'gzip'],
    portal.lazy.map((c) => [c.file, kb(c.gzip)]),
  );
  return `${figures}\n${chunks}`;
}
