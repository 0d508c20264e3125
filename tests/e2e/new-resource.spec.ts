/**
 * The maintainer's promise (issue 16): a new resource is a schema file with its words and menu places, and
 * a migration, and (issue 34) a data file of its demo rows: new files only, no existing TypeScript
 * touched. The schema draws its own icon (x-icon as SVG path data), has a rich-text field (format html)
 * and a field with a default that the portal hides; its permissions reach the roles by the boot's sync. This spec adds exactly those to a copy of
 * the project, then checks it as npm test would and uses it: the API lists it with the builder query, the
 * OpenAPI document has its paths, rich text is stored sanitised, a client reads no default, and in Chromium both apps show it in their menus, list it and open a
 * record.
 *
 * Of npm test's checks it runs those the new files feed: the server's type check (the migration is
 * TypeScript), ESLint and Prettier on the new files, the unit tests that read every schema (the registry,
 * the words in three languages, the answers' defaults), the API test of the columns, roles and demo rows
 * of every resource (on a fresh seed of the copy, its demo rows from the data file), and the build (the
 * apps bundle the schemas). The apps' own type
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
      fields: {
        id: 'ID',
        name: 'Naam',
        serial: 'Serienummer',
        notes: 'Notities',
        checked: 'Gecontroleerd',
        company_id: 'Bedrijf',
        company: 'Bedrijf',
      },
    },
    en: {
      name: 'Gadget |||| Gadgets',
      empty: 'No gadgets found.',
      fields: {
        id: 'ID',
        name: 'Name',
        serial: 'Serial number',
        notes: 'Notes',
        checked: 'Checked',
        company_id: 'Company',
        company: 'Company',
      },
    },
    de: {
      name: 'Gerät |||| Geräte',
      empty: 'Keine Geräte gefunden.',
      fields: {
        id: 'ID',
        name: 'Name',
        serial: 'Seriennummer',
        notes: 'Notizen',
        checked: 'Geprüft',
        company_id: 'Firma',
        company: 'Firma',
      },
    },
  })[lang];

/** MUI's Router icon, which src/resources/icons.ts does not import: the `d` of its 24×24 SVG. */
const ROUTER_ICON =
  'm20.2 5.9.8-.8C19.6 3.7 17.8 3 16 3s-3.6.7-5 2.1l.8.8C13 4.8 14.5 4.2 16 4.2s3 .6 4.2 1.7m-.9.8c-.9-.9-2.1-1.4-3.3-1.4s-2.4.5-3.3 1.4l.8.8c.7-.7 1.6-1 2.5-1s1.8.3 2.5 1zM19 13h-2V9h-2v4H5c-1.1 0-2 .9-2 2v4c0 1.1.9 2 2 2h14c1.1 0 2-.9 2-2v-4c0-1.1-.9-2-2-2M8 18H6v-2h2zm3.5 0h-2v-2h2zm3.5 0h-2v-2h2z';

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'gadgets',
  title: 'Gadget',
  type: 'object',
  'x-menu': { backoffice: { group: 'sales', order: 5 }, portal: { order: 70 } },
  'x-icon': ROUTER_ICON,
  'x-default-sort': ['name', 'asc'],
  'x-search': ['name', 'serial'],
  'x-relations': { company: { kind: 'belongsTo', resource: 'companies', key: 'company_id' } },
  'x-portal': {
    actions: ['index', 'show'],
    scope: { company: 'company_id' },
    fields: ['id', 'name', 'serial', 'notes', 'company_id'],
  },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true, 'x-list': true },
    name: { type: 'string', minLength: 1, maxLength: 255, 'x-filter': true, 'x-sort': true, 'x-list': true },
    serial: { type: ['string', 'null'], maxLength: 100, 'x-filter': true, 'x-list': true },
    notes: { type: ['string', 'null'], format: 'html' },
    checked: { type: 'boolean', default: false },
    company_id: { type: 'integer', 'x-filter': true, 'x-list': true },
  },
  required: ['name', 'company_id'],
  'x-i18n': { nl: words('nl'), en: words('en'), de: words('de') },
};

/**
 * The table, and two gadgets of Jansen BV on a database that has its companies already (the servers'
 * seeded copy); a fresh one gets them from the data file. The roles get the permissions by the boot's sync.
 */
const MIGRATION = `import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql\`
    create table gadgets (
      id serial primary key,
      tenant_id integer not null references tenants (id),
      name text not null,
      serial text,
      notes text,
      checked boolean not null default true,
      company_id integer not null references companies (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )\`.execute(db);
  await sql\`create index gadgets_tenant_name on gadgets (tenant_id, name)\`.execute(db);
  await sql\`create index gadgets_tenant_company on gadgets (tenant_id, company_id)\`.execute(db);
  await sql\`
    insert into gadgets (tenant_id, name, serial, company_id)
    select c.tenant_id, g.name, g.serial, c.id
    from companies c, (values ('Router', 'RT-1'), ('Access point', 'AP-7')) as g (name, serial)
    where c.name = 'Jansen BV'\`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql\`drop table gadgets\`.execute(db);
}
`;

/** The demo rows of a fresh seed (server/db/seed/demo/rows.ts). */
const ROWS = [
  {
    name: 'Router',
    serial: 'RT-1',
    checked: true,
    company_id: { $lookup: ['companies', 'name', 'Jansen BV'] },
  },
  {
    name: 'Access point',
    serial: 'AP-7',
    checked: true,
    company_id: { $lookup: ['companies', 'name', 'Jansen BV'] },
  },
];

const NEW_FILES = [
  'schemas/gadgets.json',
  'server/db/migrations/9001_gadgets.ts',
  'server/db/seed/data/rows/gadgets.json',
];

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
  // Not the seed npm test made of this project (TEST_SEED_ROOT): the copy's API tests seed the copy.
  const { TEST_SEED_ROOT: _, ...env } = process.env;
  execFileSync('npx', command, { cwd, stdio: 'pipe', encoding: 'utf8', env });
}

let copy: string;
let server: E2eServer;

test.describe.configure({ mode: 'serial', timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  copy = copyProject();
  writeFileSync(join(copy, NEW_FILES[0]!), `${JSON.stringify(SCHEMA, null, 2)}\n`);
  writeFileSync(join(copy, NEW_FILES[1]!), MIGRATION);
  writeFileSync(join(copy, NEW_FILES[2]!), `${JSON.stringify(ROWS, null, 2)}\n`);
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
  run(
    copy,
    'vitest',
    'run',
    'tests/unit/schema-labels.test.ts',
    'tests/unit/registry.test.ts',
    'tests/unit/answer-defaults.test.ts',
    // A fresh seed of the copy: a column for every field, the roles' grants, demo rows of every resource.
    'tests/api/schema-migration.test.ts',
    'tests/api/seed-data.test.ts',
  );
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
  // First line reads and writes it by the boot's sync, on a database that had run before the schema came.
  const firstLine = await request.get(`${server.baseURL}/api/gadgets`, {
    headers: await token('operator@example.com'),
  });
  expect(firstLine.status()).toBe(200);
  const other = await request.get(`${server.baseURL}/api/gadgets`, {
    headers: await token('other@example.com'),
  });
  expect((await other.json()).total).toBe(0);
  // Rich text is stored sanitised; the portal's view leaves `checked` out, with no default written.
  const created = await request.post(`${server.baseURL}/api/gadgets`, {
    headers: await token('admin@example.com'),
    data: {
      name: 'Hub',
      company_id: found.data[0].company_id,
      notes: '<p>Twice</p><script>alert(1)</script>',
    },
  });
  expect(created.status()).toBe(201);
  expect(await created.json()).toMatchObject({ notes: '<p>Twice</p>', checked: true });
  const seen = await request.get(`${server.baseURL}/api/gadgets/${(await created.json()).id}`, {
    headers: await token('client@example.com'),
  });
  expect(seen.status()).toBe(200);
  expect(await seen.json()).not.toHaveProperty('checked');
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
  // The icon the schema draws (x-icon as SVG path data), not the generic list icon.
  await expect(sales.getByRole('menuitem').first().locator('svg path')).toHaveAttribute('d', ROUTER_ICON);
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
