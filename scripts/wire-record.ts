/**
 * npm run wire:record -- <base URL> <out.json>: the answers of a fixed set of calls, for comparing two
 * versions of the server byte for byte (a refactor must not change the wire: issue 34). Run it against
 * both versions on copies of one seeded data folder (the same rows, the same timestamps), then
 * `npm run wire:record -- --compare before.json after.json` lists every call whose status or body differs.
 *
 * The calls, for the demo's operator (admin) and client: each resource's first page as the schemas offer
 * it (index in the back office, the portal's own list), its first record, the signed-in user, and the
 * OpenAPI document. The signed file links' tokens are masked (`token=…`): a link is signed when it is
 * answered and carries its expiry, so it differs between any two runs; nothing else is left out.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { registry as schemaRegistry } from '../server/schema/registry.ts';

interface Answer {
  status: number;
  body: string;
}

async function signIn(base: string, username: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'demo' }),
  });
  if (res.status !== 200) throw new Error(`login of ${username}: ${res.status} ${await res.text()}`);
  const { access_token: token } = (await res.json()) as { access_token: string };
  return { authorization: `Bearer ${token}` };
}

async function call(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, body: (await res.text()).replace(/([?&]token=)[^"&]+/g, '$1…') };
}

async function record(base: string): Promise<Record<string, Answer>> {
  const registry = schemaRegistry();
  const accounts = {
    admin: { headers: await signIn(base, 'admin@example.com'), portal: false },
    client: { headers: await signIn(base, 'client@example.com'), portal: true },
  };
  const answers: Record<string, Answer> = {};
  for (const [who, { headers, portal }] of Object.entries(accounts)) {
    answers[`${who} GET /api/auth/me`] = await call(base, '/api/auth/me', headers);
    for (const resource of registry.resources.values()) {
      const actions = portal ? (resource.portal?.actions ?? []) : resource.actions;
      if (!actions.includes('index')) continue;
      const list = `/api/${resource.name}?builder[0][paginate]=15`;
      const page = await call(base, list, headers);
      answers[`${who} GET ${list}`] = page;
      const first = page.status === 200 ? (JSON.parse(page.body).data?.[0] as { id?: number }) : undefined;
      if (first?.id !== undefined && actions.includes('show')) {
        const detail = `/api/${resource.name}/${first.id}`;
        answers[`${who} GET ${detail}`] = await call(base, detail, headers);
      }
    }
  }
  answers['GET /api/docs/openapi.json'] = await call(base, '/api/docs/openapi.json', {});
  return answers;
}

function compare(before: string, after: string): number {
  const a = JSON.parse(readFileSync(before, 'utf8')) as Record<string, Answer>;
  const b = JSON.parse(readFileSync(after, 'utf8')) as Record<string, Answer>;
  let differences = 0;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[key];
    const y = b[key];
    if (x?.status === y?.status && x?.body === y?.body) continue;
    differences += 1;
    const at = [...(x?.body ?? '')].findIndex((c, i) => c !== y?.body[i]);
    console.log(`${key}: ${x?.status} -> ${y?.status}, first difference at ${at}:`);
    console.log(`  before …${x?.body.slice(Math.max(0, at - 80), at + 80)}`);
    console.log(`  after  …${y?.body.slice(Math.max(0, at - 80), at + 80)}`);
  }
  console.log(`${Object.keys(a).length} calls, ${differences} differ.`);
  return differences;
}

const [first, second, third] = process.argv.slice(2);
if (first === '--compare') {
  process.exitCode = compare(second!, third!) === 0 ? 0 : 1;
} else if (first && second) {
  const answers = await record(first.replace(/\/$/, ''));
  writeFileSync(second, JSON.stringify(answers, null, 1));
  console.log(`${Object.keys(answers).length} calls recorded in ${second}.`);
} else {
  console.error('usage: wire-record <base URL> <out.json> | --compare <before.json> <after.json>');
  process.exitCode = 2;
}
