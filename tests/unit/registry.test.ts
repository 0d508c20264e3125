import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRegistry, registry, Registry, SCHEMA_DIR, toResource } from '../../server/schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';

const reg = registry();
const resources = [...reg.resources.values()];

describe('the schema registry', () => {
  it('loads one resource per schema file', () => {
    const files = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.json') && !f.startsWith('_'));
    expect(resources.map((r) => r.name).sort()).toEqual(files.map((f) => f.replace(/\.json$/, '')).sort());
    expect(reg.resources.size).toBeGreaterThanOrEqual(46);
  });

  it('resolves every relation to a resource and its keys to fields', () => {
    for (const r of resources) {
      for (const rel of Object.values(r.relations)) {
        const where = `${r.name}.${rel.name}`;
        switch (rel.kind) {
          case 'belongsTo':
            expect(reg.get(rel.resource), where).toBeDefined();
            // Every foreign key may be filtered on.
            expect(r.fields[rel.key]?.filter, where).toBe(true);
            break;
          case 'hasMany':
            expect(reg.get(rel.resource)?.fields[rel.foreignKey], where).toBeDefined();
            break;
          case 'belongsToMany':
            expect(reg.get(rel.resource), where).toBeDefined();
            expect([rel.pivot, rel.key, rel.relatedKey].every(Boolean), where).toBe(true);
            break;
          case 'morphMany':
            expect(r.morphType, where).toBeDefined();
            expect(reg.get(rel.resource)?.fields[`${rel.morph}_type`], where).toBeDefined();
            break;
          case 'morphTo':
            // Each type value names the resource that owns rows under that type.
            for (const [type, target] of Object.entries(rel.types)) {
              expect(reg.get(target)?.morphType, `${where} ${type}`).toBe(type);
            }
            break;
        }
      }
    }
  });

  it('uses the same pivot columns from both sides of a many-to-many relation', () => {
    const pivots = new Map<string, Set<string>>();
    for (const r of resources) {
      for (const rel of Object.values(r.relations)) {
        if (rel.kind !== 'belongsToMany') continue;
        const columns = pivots.get(rel.pivot) ?? new Set();
        columns.add(rel.key).add(rel.relatedKey);
        pivots.set(rel.pivot, columns);
      }
    }
    for (const [pivot, columns] of pivots) expect(columns.size, pivot).toBe(2);
  });

  it('gives every resource a default sort on a sortable field', () => {
    for (const r of resources) {
      const [field, direction] = r.defaultSort;
      expect(r.fields[field]?.sort, `${r.name} sorts on ${field}`).toBe(true);
      expect(['asc', 'desc']).toContain(direction);
    }
  });

  it('sorts the lists of the specification as section 9 says', () => {
    const sorts = Object.fromEntries(resources.map((r) => [r.name, r.defaultSort]));
    expect(sorts).toMatchObject({
      assets: ['name', 'asc'],
      contracts: ['name', 'asc'],
      quotes: ['name', 'asc'],
      subscriptions: ['next_billing_date', 'asc'],
      tickets: ['updated_at', 'desc'],
    });
  });

  it('takes the values of every enumerated field from its enumeration', () => {
    for (const r of resources) {
      for (const f of Object.values(r.fields)) {
        if (!f.enumName) continue;
        const ids = reg.enums[f.enumName]!.values.map((v) => v.id);
        const values = (f.schema.enum as unknown[] | undefined)?.filter((v) => v !== null);
        expect(values, `${r.name}.${f.name}`).toBeDefined();
        for (const v of values!) expect(ids, `${r.name}.${f.name}`).toContain(v);
      }
    }
  });

  it('holds the enumerations of the specification', () => {
    const ids = (name: string) => reg.enums[name]?.values.map((v) => v.id);
    expect(ids('ticketStatusTypes')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids('assetStatusTypes')).toEqual([1, 2, 3, 4, 5]);
    expect(ids('invoiceStatuses')).toEqual([1, 2, 3, 4, 8, 9]);
    expect(ids('quoteStatuses')).toEqual([1, 2, 3, 4]);
    expect(ids('operatorLines')).toEqual([1, 2]);
    expect(ids('usedProductMoments')).toEqual([1, 2, 3]);
    expect(ids('usedProductTypes')).toEqual([1, 2, 3]);
    expect(ids('customFieldTypes')).toEqual([0, 1, 2]);
    expect(ids('messageTypes')).toEqual(['normal', 'status-changed', 'work-order-signed']);
    expect(ids('contractPeriods')).toContain('none');
    expect(ids('subscriptionPeriods')).toHaveLength(7);
    expect(ids('scheduleFilters')).toHaveLength(8);
  });

  it('offers update-order wherever a resource has its order field', () => {
    for (const r of resources) {
      if (r.fields[r.orderField]) expect(r.actions, r.name).toContain('update-order');
      if (r.actions.includes('update-order')) expect(r.fields[r.orderField], r.name).toBeDefined();
    }
  });

  it('never returns a password', () => {
    for (const r of resources) {
      for (const f of Object.values(r.fields)) {
        if (f.column === 'password_hash') {
          expect(f.writeOnly, `${r.name}.${f.name}`).toBe(true);
          expect(r.portal?.fields ?? [], r.name).not.toContain(f.name);
        }
      }
    }
  });

  // A resource is open to clients only where its schema says so (x-portal): these are, and the rest of
  // the demo's resources stay closed (a new resource is neither, until its schema decides).
  it('opens the portal only to the resources clients use', () => {
    const open = [
      'activities',
      'asset-categories',
      'asset-statuses',
      'assets',
      'attachments',
      'clients',
      'companies',
      'config',
      'company-roles',
      'company-user',
      'contract-periods',
      'contracts',
      'custom-fields',
      'custom-values',
      'invoice-statuses',
      'invoices',
      'locations',
      'messages',
      'operators',
      'prepaid-cards',
      'priorities',
      'quote-lines',
      'quotes',
      'services',
      'settings-views',
      'subscription-lines',
      'subscriptions',
      'table-presets',
      'ticket-statuses',
      'ticket-types',
      'ticket-shares',
      'tickets',
      'time-registrations',
    ];
    const closed = [
      'business-hour-contracts',
      'categories',
      'countries',
      'deals',
      'invoice-lines',
      'permissions',
      'products',
      'projects',
      'roles',
      'slas',
      'ticket-groups',
      'ticket-sources',
      'ticket-templates',
      'used-products',
      'user-configs',
    ];
    for (const name of open) expect(reg.require(name).portal, name).toBeDefined();
    for (const name of closed) expect(reg.require(name).portal, name).toBeUndefined();
    expect(open.length + closed.length).toBe(48);
    expect(reg.require('messages').portal?.where).toEqual([['visible_to_client', '=', true]]);
    expect(reg.require('operators').portal?.fields).toEqual([
      'id',
      'full_name',
      'first_name',
      'last_name',
      'acronym',
      'is_operator',
    ]);
    expect(reg.require('quotes').portal?.actions).toContain('accept');
    expect(reg.require('contracts').portal?.actions).toContain('buy');
  });

  it('scopes a portal resource through relations that clients may use', () => {
    const targets = (r: Resource, name: string): string[] => {
      const rel = r.relations[name]!;
      if (rel.kind === 'morphTo') return Object.values(rel.types);
      return [rel.resource];
    };
    const check = (r: Resource, scope: unknown): void => {
      if (typeof scope !== 'object' || scope === null) return;
      if ('relation' in scope) {
        for (const t of targets(r, String(scope.relation)))
          expect(reg.get(t)?.portal, `${r.name} -> ${t}`).toBeDefined();
      }
      if ('any' in scope) (scope.any as unknown[]).forEach((s) => check(r, s));
    };
    for (const r of resources) if (r.portal) check(r, r.portal.scope);
  });

  it('derives unique permission names for every action', () => {
    const names = reg.permissionNames();
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('tenant.tickets.index');
    expect(names).toContain('tenant.quotes.accept');
    expect(names).toContain('portal.contracts.buy');
    expect(names).toContain('tenant.settings-views.update-order');
    expect(names.filter((n) => n.startsWith('tenant.permissions.'))).toEqual([
      'tenant.permissions.index',
      'tenant.permissions.show',
    ]);
  });
});

describe('a broken schema', () => {
  const base = (extra: Record<string, unknown>) => ({
    $id: 'broken',
    properties: { id: { type: 'integer' }, name: { type: 'string', 'x-sort': true } },
    'x-default-sort': ['name', 'asc'],
    ...extra,
  });
  const withBroken = (extra: Record<string, unknown>) => () =>
    new Registry([...resources, toResource(base(extra))], reg.enums);

  it('is accepted when it is not broken (the cases below fail for their own reason)', () => {
    expect(withBroken({})().get('broken')?.table).toBe('broken');
  });

  it('is rejected for a relation to an unknown resource, naming the file', () => {
    expect(
      withBroken({ 'x-relations': { owner: { kind: 'belongsTo', resource: 'nowhere', key: 'id' } } }),
    ).toThrow(/^schemas\/broken\.json: relation owner names unknown resource nowhere/);
  });

  it('is rejected for an x-own-rows without x-owner, or naming an action it does not have', () => {
    const owned = {
      properties: {
        id: { type: 'integer' },
        name: { type: 'string', 'x-sort': true },
        owner_id: { type: 'integer' },
      },
    };
    expect(withBroken({ ...owned, 'x-owner': 'owner_id', 'x-own-rows': 'index' })).not.toThrow();
    expect(withBroken({ ...owned, 'x-own-rows': 'index' })).toThrow(/x-own-rows needs x-owner/);
    expect(withBroken({ ...owned, 'x-owner': 'owner_id', 'x-own-rows': 'manage' })).toThrow(
      /x-own-rows names manage, which is not in x-actions/,
    );
  });

  it('is rejected for an unknown field in x-default-sort, x-search or x-portal', () => {
    expect(withBroken({ 'x-default-sort': ['missing', 'asc'] })).toThrow(/schemas\/broken\.json: .*missing/);
    expect(withBroken({ 'x-search': ['missing'] })).toThrow(/schemas\/broken\.json: .*missing/);
    expect(withBroken({ 'x-portal': { actions: ['index'], scope: { company: 'company_id' } } })).toThrow(
      /schemas\/broken\.json: .*company_id/,
    );
  });

  it("is rejected for an x-portal.ability that is no company role's ability", () => {
    const portal = (ability: string) =>
      withBroken({ 'x-portal': { actions: ['index'], scope: 'tenant', ability } });
    expect(portal('manage_access')).not.toThrow();
    expect(portal('grants_all')).toThrow(/x-portal\.ability is not one of on_behalf, manage_access/);
  });

  it('is rejected for an x-global-search without fields, with a field that is not text, or without index', () => {
    const search = (value: unknown, extra: Record<string, unknown> = {}) =>
      withBroken({ 'x-global-search': value, ...extra });
    expect(search({ fields: ['name'], order: 1 })).not.toThrow();
    expect(search({ fields: [], order: 1 })).toThrow(
      /x-global-search: fields is a list of at least one field/,
    );
    expect(search({ fields: ['id'], order: 1 })).toThrow(
      /x-global-search names id, which is not a string field/,
    );
    expect(search({ fields: ['missing'], order: 1 })).toThrow(/x-global-search names missing/);
    expect(search({ fields: ['name'] })).toThrow(/x-global-search: order is a number/);
    expect(search({ fields: ['name'], order: 1 }, { 'x-actions': ['show'] })).toThrow(
      /x-global-search: the resource needs the index action/,
    );
  });

  it('is rejected for an x-versions shape that reads an unknown field, or version 1', () => {
    expect(withBroken({ 'x-versions': { 2: { Name: 'missing' } } })).toThrow(
      /schemas\/broken\.json: x-versions names unknown field missing/,
    );
    expect(withBroken({ 'x-versions': { 2: { Url: '/{nothing}' } } })).toThrow(/unknown field nothing/);
    expect(withBroken({ 'x-versions': { 1: { Name: 'name' } } })).toThrow(/1 is not a version above 1/);
    expect(withBroken({ 'x-versions': { 2: { Name: 'name', Url: '/{id}' } } })).not.toThrow();
  });

  it('is rejected for an unknown enumeration or a portal action the resource lacks', () => {
    expect(
      withBroken({
        properties: {
          id: { type: 'integer' },
          name: { type: 'string', 'x-sort': true, 'x-enum': 'nothing' },
        },
      }),
    ).toThrow(/schemas\/broken\.json: field name names unknown enumeration nothing/);
    expect(
      withBroken({ 'x-actions': ['index'], 'x-portal': { actions: ['store'], scope: 'tenant' } }),
    ).toThrow(/schemas\/broken\.json: x-portal.actions has store/);
  });

  it('is rejected for an x-record-link that names no relation, one of the wrong kind or one clients cannot use', () => {
    const portal = { 'x-portal': { actions: [], scope: 'tenant' } };
    const relations = {
      company: { kind: 'belongsTo', resource: 'companies', key: 'id' },
      product: { kind: 'belongsTo', resource: 'products', key: 'id' },
      users: { kind: 'belongsToMany', resource: 'clients', pivot: 'p', key: 'a', relatedKey: 'b' },
    };
    expect(withBroken({ ...portal, 'x-relations': relations, 'x-record-link': ['company'] })).not.toThrow();
    expect(withBroken({ ...portal, 'x-record-link': ['nothing'] })).toThrow(
      /schemas\/broken\.json: x-record-link names unknown relation nothing/,
    );
    expect(withBroken({ ...portal, 'x-relations': relations, 'x-record-link': ['users'] })).toThrow(
      /x-record-link: users must be a belongsTo, hasMany or morphMany relation/,
    );
    expect(withBroken({ ...portal, 'x-relations': relations, 'x-record-link': ['product'] })).toThrow(
      /x-record-link: product leads to products, which has no x-portal/,
    );
    expect(withBroken({ 'x-relations': relations, 'x-record-link': ['company'] })).toThrow(
      /x-record-link needs x-portal/,
    );
  });

  it('is rejected for a byRole relation scope that reaches no company-scoped resource', () => {
    const relations = {
      companies: { kind: 'belongsToMany', resource: 'companies', pivot: 'p', key: 'a', relatedKey: 'b' },
      statuses: { kind: 'belongsToMany', resource: 'ticket-statuses', pivot: 'p', key: 'a', relatedKey: 'b' },
    };
    const scoped = (scope: object) => ({
      'x-relations': relations,
      'x-portal': { actions: ['index'], scope },
    });
    expect(withBroken(scoped({ relation: 'companies', byRole: true }))).not.toThrow();
    expect(withBroken(scoped({ relation: 'statuses', byRole: true }))).toThrow(
      /x-portal.scope.byRole: statuses must lead to a resource with a company scope/,
    );
    expect(withBroken(scoped({ relation: 'companies', byRole: 'yes' }))).toThrow(
      /x-portal.scope.byRole is true or false/,
    );
  });

  it('is rejected for a whose relation scope that names no field of the related resource, or a morphTo', () => {
    const relations = {
      ticket: { kind: 'belongsTo', resource: 'tickets', key: 'id' },
      owner: { kind: 'morphTo', morph: 'owner', types: { ticket: 'tickets' } },
    };
    const scoped = (scope: object) => ({
      properties: {
        id: { type: 'integer' },
        name: { type: 'string', 'x-sort': true },
        owner_type: { type: 'string' },
        owner_id: { type: 'integer' },
      },
      'x-relations': relations,
      'x-portal': { actions: ['index'], scope },
    });
    expect(withBroken(scoped({ relation: 'ticket', whose: 'client_id' }))).not.toThrow();
    expect(withBroken(scoped({ relation: 'ticket', whose: 'nobody_id' }))).toThrow(
      /x-portal.scope.whose: tickets has no field nobody_id/,
    );
    expect(withBroken(scoped({ relation: 'owner', whose: 'client_id' }))).toThrow(
      /x-portal.scope.whose: owner must lead to one resource/,
    );
  });

  it('is rejected for an unsupported type or a missing id while it is read', () => {
    expect(() =>
      toResource({ $id: 'broken', properties: { id: { type: 'integer' }, x: { type: 'date' } } }),
    ).toThrow(/^schemas\/broken\.json: field x: unsupported type date/);
    expect(() => toResource({ $id: 'broken', properties: { name: { type: 'string' } } })).toThrow(
      /^schemas\/broken\.json: every resource needs an integer id/,
    );
  });

  describe('on disk', () => {
    const dir = mkdtempSync(join(tmpdir(), 'schemas-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('is rejected when its $id is not its file name', () => {
      writeFileSync(
        join(dir, 'things.json'),
        JSON.stringify({ $id: 'stuff', properties: { id: { type: 'integer' } } }),
      );
      expect(() => loadRegistry(dir)).toThrow(/^things\.json: \$id must be the file name/);
    });
  });
});
