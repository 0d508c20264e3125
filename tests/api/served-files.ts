/**
 * The files the header tests fetch besides API answers (answer-headers, security-headers): a script of
 * the build (dist/: npm run build first) and a file stored through the API.
 */
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { DIST_DIR } from '../../server/web/plugin.ts';
import type { TestApp } from './harness.ts';
import { multipart } from './multipart.ts';

/** A hashed script of the build, as the pages load it: its path under /static/. */
export function builtScript(): string {
  if (!existsSync(`${DIST_DIR}/index.html`))
    throw new Error('no built apps in dist/: run npm run build first');
  const match = /<script type="module" crossorigin src="(\/static\/[^"]+\.js)"/.exec(
    readFileSync(`${DIST_DIR}/index.html`, 'utf8'),
  );
  if (!match) throw new Error('dist/index.html loads no script from /static/');
  return match[1]!;
}

/** A text file (`content`) stored as an attachment by the caller of `headers`; its address. */
export async function storedTextFile(
  t: TestApp,
  headers: Record<string, string>,
  content = 'hello',
): Promise<string> {
  const form = multipart([], [{ field: 'file', name: 'notes.txt', content }]);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/attachments',
    payload: form.payload,
    headers: { ...headers, ...form.headers },
  });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as { url: string }).url;
}
