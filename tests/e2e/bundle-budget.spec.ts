import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { bundleSizes, INITIAL_BUDGET_BYTES } from '../../scripts/bundle-size.ts';

/*
 * Issue 17: the apps' first download stays below a bare react-admin list app. Read from dist/, which the
 * browser tests run against (npm test builds it before them); no browser needed.
 */
test('each app loads at most 300 kB of JavaScript (gzip) before its first screen asks for more', () => {
  const { initial } = bundleSizes();
  expect(initial.portal!.gzip).toBeLessThanOrEqual(INITIAL_BUDGET_BYTES);
  expect(initial.backoffice!.gzip).toBeLessThanOrEqual(INITIAL_BUDGET_BYTES);
});

test("no language's words are in the first download: each comes with its own chunk", () => {
  const { initial } = bundleSizes();
  const code = initial.portal!.files.map((f) => readFileSync(join('dist', f), 'utf8')).join('\n');
  // The apps' own texts (app.pages.not_found), the schemas' words, react-admin's English.
  for (const text of [
    'Pagina niet gevonden',
    'Page not found',
    'Seite nicht gefunden',
    'Geen tickets gevonden.',
    'No tickets found.',
    'Keine Tickets gefunden.',
    'Are you sure you want to update these %{smart_count} items?',
  ])
    expect(code, text).not.toContain(text);
});
