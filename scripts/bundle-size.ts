/**
 * Gzip size of each app's initial JavaScript (the entry and what index.html preloads) and of each lazy
 * chunk, from dist/. Used for the figure in the README and by the benchmark.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { ASSETS_DIR } from '../common/build.ts';

const DIST = 'dist';
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gz = (file: string) => gzipSync(readFileSync(join(DIST, file))).length;

export function initialScripts(html: string): string[] {
  const pattern = new RegExp(`(?:src|href)="/(${ASSETS_DIR}/[^"]+\\.js)"`, 'g');
  const refs = [...html.matchAll(pattern)].map((m) => m[1]!);
  return [...new Set(refs)];
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
  return { initial, lazy };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { initial, lazy } = bundleSizes();
  for (const [app, { gzip, files }] of Object.entries(initial))
    console.log(`${app} initial JavaScript: ${kb(gzip)} gzip (${files.length} files)`);
  for (const chunk of lazy) console.log(`lazy ${chunk.file}: ${kb(chunk.gzip)} gzip`);
}
