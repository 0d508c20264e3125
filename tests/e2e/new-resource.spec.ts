/**
 * The maintainer's promise (issue 16): a new resource is a schema file with its words and menu places, and
 * a migration: new files only, no existing TypeScript touched. This spec adds exactly those to a copy of
 * the project, then checks it as npm test would and uses it: the API lists it with the builder query, the
 * OpenAPI document has its paths, and in Chromium both apps show it in their menus, list it and open a
 * record.
 *
 * Of npm test's checks it runs those the new files feed: the server's type check (the migration is
 * TypeScript), ESLint and Prettier on the new files, the unit tests that read every schema (the registry
 * and the words in three languages), and the build (the apps bundle the schemas). The apps' own type
 * check and the rest of the lint see no new file.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startServer, type E2eServer } from './server.ts';
import { expectAccessible, signIn } from './support.ts';

const words = (lang: 'nl' | 'en' | 'de') =>
  ({
    nl: {
      name: 'Apparaat |||| Apparaten',
      empty: 'Geen apparaten gevonden.',
      fields: { id: 'ID', name: 'Naam', serial: 'Serienummer', company_id: 'Bedrijf', company: 'Bedrijf' },
    },
    en: {
      name: 'Gadget |||| Gadgets',
      empty: 'No gadgets found.',
      fields: { id: 'ID', name: 'Name', serial: 'Serial number', company_id: 'Company', company: 'Company' },
    },
    de: {
      name: 'Gerät |||| Geräte',
      empty: 'Keine Geräte gefunden.',
      fields: { id: 'ID', name: 'Name', serial: 'Seriennummer', company_id: 'Firma', company: 'Firma' },
    },
  })[lang];

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'gadgets',
  title: 'Gadget',
  type: 'object',
  'x-menu': { backoffice: { group: 'sales', order: 5 }, portal: { order: 70 } },
  'x-icon': 'Devices',
  'x-default-sort': ['name', 'asc'],
  'x-search': ['name', 'serial'],
  'x-relations': { company: { kind: 'belongsTo', resource: 'companies', key: 'company_id' } },
  'x-portal': { actions: ['index', 'show'], scope: { company: 'company_id' } },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true, 'x-list': true },
    name: { type: 'string', minLength: 1, maxLength: 255, 'x-filter': true, 'x-sort': true, 'x-list': true },
    serial: { type: ['string', 'null'], maxLength: 100, 'x-filter': true, 'x-list': true },
    company_id: { type: 'integer', 'x-filter': true, 'x-list': true },
  },
  required: ['name', 'company_id'],
  'x-i18n': { nl: words('nl'), en: words('en'), de: words('de') },
};

/** The table, two gadgets of Jansen BV, and the portal's read permissions for the roles of clients. */
const MIGRATION = `import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql\`
    create table gadgets (
      id serial primary key,
      tenant_id integer not null references tenants (id),
      name text not null,
      serial text,
      company_id integer not null references companies (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )\`.execute(db);
  await sql\`create index gadgets_tenant_name on gadgets (tenant_id, name)\`.execute(db);
  await sql\`
    insert into gadgets (tenant_id, name, serial, company_id)
    select c.tenant_id, g.name, g.serial, c.id
    from companies c, (values ('Router', 'RT-1'), ('Access point', 'AP-7')) as g (name, serial)
    where c.name = 'Jansen BV'\`.execute(db);
  // Clients read what their role grants: the roles that read portal tickets read gadgets too.
  await sql\`
    insert into permissions (name) values ('portal.gadgets.index'), ('portal.gadgets.show')
    on conflict (name) do nothing\`.execute(db);
  await sql\`
    insert into permission_role (role_id, permission_id)
    select pr.role_id, g.id from permission_role pr
    join permissions t on t.id = pr.permission_id and t.name = 'portal.tickets.index'
    cross join permissions g where g.name in ('portal.gadgets.index', 'portal.gadgets.show')
    on conflict do nothing\`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql\`drop table gadgets\`.execute(db);
}
`;

const NEW_FILES = ['schemas/gadgets.json', 'server/db/migrations/9001_gadgets.ts'];

/** The project as committed and changed here, without its installed or built files. */
function copyProject(): string {
  const copy = mkdtempSync(join(tmpdir(), 'sd-project-'));
  const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(file)) continue; // deleted in the working tree
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(file, join(copy, file));
  }
  symlinkSync(resolve('node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

function run(cwd: string, ...command: string[]) {
  execFileSync('npx', command, { cwd, stdio: 'pipe', encoding: 'utf8' });
}

let copy: string;
let server: E2eServer;

test.describe.configure({ mode: 'serial', timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  copy = copyProject();
  writeFileSync(join(copy, NEW_FILES[0]!), `${JSON.stringify(SCHEMA, null, 2)}\n`);
  writeFileSync(join(copy, NEW_FILES[1]!), MIGRATION);
  run(copy, 'prettier', '--write', ...NEW_FILES);
});

test.afterAll(async () => {
  await server?.stop();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

test('the copy with a new schema and migration passes the checks those files feed', () => {
  test.setTimeout(600_000);
  run(copy, 'prettier', '--check', ...NEW_FILES);
  run(copy, 'eslint', NEW_FILES[1]!);
  // The migration type-checks with the server's settings. Nothing imports it (the server finds its
  // migrations by their folder) and a schema is JSON read at run time, so the rest of the server's
  // type check would check only what is unchanged, which the project's own check does (here it was most
  // of this test's time: 39 s in a full run, the test now about 7 s alone).
  writeFileSync(
    join(copy, 'tsconfig.new-files.json'),
    JSON.stringify({ extends: './tsconfig.server.json', include: [], files: [NEW_FILES[1]] }),
  );
  run(copy, 'tsc', '-p', 'tsconfig.new-files.json', '--noEmit');
  run(copy, 'vitest', 'run', 'tests/unit/schema-labels.test.ts', 'tests/unit/registry.test.ts');
  run(copy, 'vite', 'build', '--logLevel', 'warn');
  expect(existsSync(join(copy, 'dist', 'index.html'))).toBe(true);
});

test('the server of the copy serves it: builder query, portal scope and OpenAPI paths', async ({
  request,
}) => {
  server = await startServer({}, { cwd: copy });
  const token = async (email: string) => {
    const res = await request.post(`${server.baseURL}/api/auth/login`, {
      data: { username: email, password: 'demo' },
    });
    expect(res.status()).toBe(200);
    return { authorization: `Bearer ${(await res.json()).access_token}` };
  };
  const search = await request.get(`${server.baseURL}/api/gadgets?builder[0][s]=rout&with[0]=company`, {
    headers: await token('admin@example.com'),
  });
  expect(search.status()).toBe(200);
  const found = await search.json();
  expect(found.total).toBe(1);
  expect(found.data[0]).toMatchObject({ name: 'Router', serial: 'RT-1', company: { name: 'Jansen BV' } });
  // Clients see their own companies' gadgets; another company's client sees none.
  const client = await request.get(`${server.baseURL}/api/gadgets`, {
    headers: await token('client@example.com'),
  });
  expect((await client.json()).data.map((g: { name: string }) => g.name)).toEqual(['Access point', 'Router']);
  const other = await request.get(`${server.baseURL}/api/gadgets`, {
    headers: await token('other@example.com'),
  });
  expect((await other.json()).total).toBe(0);
  const document = await (await request.get(`${server.baseURL}/api/docs/openapi.json`)).json();
  expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/gadgets', '/gadgets/{id}']));
});

async function openFromMenu(page: Page, menuItem: string, heading: string) {
  await page.getByRole('menuitem', { name: menuItem, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Access point' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Router' })).toBeVisible();
}

/** A page on the copy's server (its address is known only once it runs). */
async function pageOfCopy(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseURL });
  return context.newPage();
}

test('the back office shows it in its menu group, lists it and opens a record', async ({ browser }) => {
  const page = await pageOfCopy(browser);
  await signIn(page, 'admin@example.com', 'backoffice');
  await expect(page).toHaveURL(/\/tickets$/);
  // In the sales group (x-menu), before contracts (order 5 < 10).
  const sales = page.getByRole('group', { name: 'Verkoop en facturatie' });
  await expect(sales.getByRole('menuitem').first()).toHaveText('Apparaten');
  await openFromMenu(page, 'Apparaten', 'Apparaten');
  await page.getByRole('row').filter({ hasText: 'Router' }).getByRole('cell').nth(1).click();
  await expect(page).toHaveURL(/\/gadgets\/\d+$/);
  await expect(page.getByText('RT-1')).toBeVisible();
  await expectAccessible(page, 'back-office gadget detail');
});

test('the portal shows it in its menu, lists it and opens a record', async ({ browser }) => {
  const page = await pageOfCopy(browser);
  await signIn(page, 'client@example.com');
  await expect(page).toHaveURL(/\/app\/tickets$/);
  await openFromMenu(page, 'Apparaten', 'Apparaten');
  await expectAccessible(page, 'portal gadgets list');
  await page.getByRole('row').filter({ hasText: 'Access point' }).getByRole('cell').nth(1).click();
  await expect(page).toHaveURL(/\/app\/gadgets\/\d+$/);
  await expect(page.getByText('AP-7')).toBeVisible();
});
