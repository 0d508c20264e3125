/**
 * Gzip size of each app's initial JavaScript (the entry and what index.html preloads) and of each lazy
 * chunk, from dist/, and what the portal's first ticket list needs in all: the initial JavaScript, the
 * list screen's chunks and the Dutch messages. Used for the figure in docs/development.md, by the benchmark and
 * by tests/e2e/bundle-budget.spec.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { ASSETS_DIR } from '../common/build.ts';

const DIST = 'dist';
// kB of 1,000 bytes, as the benchmark and issue 17's budget count them.
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const gz = (file: string) => gzipSync(readFileSync(join(DIST, file))).length;

export function initialScripts(html: string): string[] {
  const pattern = new RegExp(`(?:src|href)="/(${ASSETS_DIR}/[^"]+\\.js)"`, 'g');
  const refs = [...html.matchAll(pattern)].map((m) => m[1]!);
  return [...new Set(refs)];
}

/** The portal's initial JavaScript may not grow above this (issue 17: below a bare react-admin list app). */
export const INITIAL_BUDGET_BYTES = 300_000;

/** A chunk and the chunks it imports statically, theirs too: what must arrive before it runs. */
export function withStaticImports(file: string): string[] {
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    const code = readFileSync(join(DIST, f), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) visit(`${ASSETS_DIR}/${m[1]}`);
  };
  visit(file);
  return [...seen];
}

/** The one lazy chunk whose name starts with `name-` (rollup names a chunk after its module). */
function chunkNamed(name: string): string {
  const found = readdirSync(join(DIST, ASSETS_DIR)).filter(
    (f) => f.startsWith(`${name}-`) && f.endsWith('.js'),
  );
  if (found.length !== 1) throw new Error(`Expected one ${name}-*.js chunk in dist, found ${found.length}.`);
  return `${ASSETS_DIR}/${found[0]}`;
}

export function bundleSizes() {
  const apps = { portal: 'app/index.html', backoffice: 'index.html' } as const;
  const initial = Object.fromEntries(
    Object.entries(apps).map(([app, html]) => {
      const files = initialScripts(readFileSync(join(DIST, html), 'utf8'));
      return [app, { files, gzip: files.reduce((n, f) => n + gz(f), 0) }];
    }),
  );
  const eager = new Set(Object.values(initial).flatMap((i) => i.files));
  const lazy = readdirSync(join(DIST, ASSETS_DIR))
    .filter((f) => f.endsWith('.js') && !eager.has(`${ASSETS_DIR}/${f}`))
    .map((f) => ({ file: `${ASSETS_DIR}/${f}`, gzip: gz(`${ASSETS_DIR}/${f}`) }));
  // The portal opened on its ticket list in Dutch: everything that arrives before the first row shows.
  const firstList = new Set([
    ...initial.portal!.files,
    ...withStaticImports(chunkNamed('ListPage')),
    ...withStaticImports(chunkNamed('nl')),
  ]);
  const firstListGzip = [...firstList].reduce((n, f) => n + gz(f), 0);
  return { initial, lazy, firstList: { files: [...firstList], gzip: firstListGzip } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { initial, lazy, firstList } = bundleSizes();
  for (const [app, { gzip, files }] of Object.entries(initial))
    console.log(`${app} initial JavaScript: ${kb(gzip)} gzip (${files.length} files)`);
  console.log(
    `portal's first ticket list in Dutch, all its JavaScript: ${kb(firstList.gzip)} gzip (${firstList.files.length} files)`,
  );
  for (const chunk of lazy) console.log(`lazy ${chunk.file}: ${kb(chunk.gzip)} gzip`);
}
