/**
 * Issue 34: a resource added to a database that has run gets the same grants as on a fresh one. The
 * permissions' sync at every boot grants a permission that never existed before by the seed's rule
 * (first line as the seed grants it, the roles of clients the portal ones); a grant an admin took away
 * stays away at the next boot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { syncPermissions } from '../../server/db/seed/permissions.ts';
import { loadRegistry, SCHEMA_DIR } from '../../server/schema/registry.ts';

const articles = {
  $id: 'demo-notes',
  title: 'Knowledge article',
  type: 'object',
  'x-default-sort': ['title', 'asc'],
  'x-label': 'title',
  'x-actions': ['index', 'show', 'store', 'update', 'destroy', 'merge'],
  'x-portal': { actions: ['index', 'show'], scope: 'tenant' },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
    title: { type: 'string', minLength: 1, 'x-filter': true, 'x-sort': true },
  },
  required: ['title'],
};

describe.each(targets)('the permissions of a new resource on an existing database on $name', (target) => {
  let t: TestApp;
  const withArticles = loadRegistry(SCHEMA_DIR, [articles]);

  async function held(role: string): Promise<string[]> {
    const rows = await t.db
      .selectFrom('permission_role')
      .innerJoin('roles', 'roles.id', 'permission_role.role_id')
      .innerJoin('permissions', 'permissions.id', 'permission_role.permission_id')
      .select('permissions.name')
      .where('roles.name', '=', role)
      .execute();
    return rows.map((r) => String(r.name)).sort();
  }
  const ofArticles = (names: string[]) => names.filter((n) => n.includes('.demo-notes.'));

  beforeAll(async () => {
    // Seeded and booted with today's schemas: the roles exist, the new schema is not there yet.
    t = await buildTestApp(target);
    expect(ofArticles(await held('Eerste lijn'))).toEqual([]);
    await syncPermissions(t.db, withArticles);
  });
  afterAll(() => t?.close());

  it('grants first line what the seed grants it on a fresh database', async () => {
    expect(ofArticles(await held('Eerste lijn'))).toEqual([
      'tenant.demo-notes.destroy',
      'tenant.demo-notes.index',
      'tenant.demo-notes.show',
      'tenant.demo-notes.store',
      'tenant.demo-notes.update',
    ]);
    expect(ofArticles(await held('Tweede lijn'))).toHaveLength(6);
    expect(ofArticles(await held('Klant'))).toEqual(['portal.demo-notes.index', 'portal.demo-notes.show']);
  });

  it('keeps away at the next boot what an admin took away, old permissions and new', async () => {
    const firstLine = await t.db.selectFrom('roles').select('id').where('name', '=', 'Eerste lijn').execute();
    for (const name of ['tenant.demo-notes.destroy', 'tenant.tickets.destroy']) {
      const permission = await t.db
        .selectFrom('permissions')
        .select('id')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      await t.db
        .deleteFrom('permission_role')
        .where('permission_id', '=', permission.id)
        .where(
          'role_id',
          'in',
          firstLine.map((r) => r.id),
        )
        .execute();
    }
    await syncPermissions(t.db, withArticles);
    const names = await held('Eerste lijn');
    expect(names).not.toContain('tenant.demo-notes.destroy');
    expect(names).not.toContain('tenant.tickets.destroy');
    expect(names).toContain('tenant.demo-notes.update');
  });
});
