/**
 * Which portal resources a list of them may name (common/schema/portal-resources.ts): read from the
 * schemas' x-portal (a company field, or the companies a record belongs to many of), the same set the company role form offers and the server accepts; a field that
 * asks for the input without saying its reach (or the other way round) fails at start.
 */
import { describe, expect, it } from 'vitest';
import { portalResourceChoices, portalResourceReachOf } from '../../common/schema/portal-resources.ts';
import { registry } from '../../server/schema/registry.ts';

describe('portal resource lists', () => {
  it('offers the company-scoped portal resources company-wide and those with an own scope as own', () => {
    const company = portalResourceChoices(registry(), 'company');
    // A contract belongs to many companies: the balance alert reads it in a role (the finance role's).
    expect(company).toEqual(
      expect.arrayContaining(['tickets', 'invoices', 'companies', 'assets', 'contracts']),
    );
    // Not a resource of the tenant, nor a child that follows its parent.
    for (const name of ['operators', 'priorities', 'quote-lines', 'time-registrations'])
      expect(company).not.toContain(name);
    const own = portalResourceChoices(registry(), 'own');
    expect(own).toContain('tickets');
    expect(own).not.toContain('invoices');
    // Every one a portal resource.
    for (const name of [...company, ...own]) expect(registry().get(name)?.portal, name).toBeTruthy();
  });

  it('reads the company role fields, and refuses half a declaration', () => {
    const roles = registry().require('company-roles');
    expect(portalResourceReachOf(roles.fields.company_resources!)).toBe('company');
    expect(portalResourceReachOf(roles.fields.own_resources!)).toBe('own');
    expect(portalResourceReachOf(roles.fields.name!)).toBeUndefined();
    expect(() => portalResourceReachOf({ name: 'x', schema: { 'x-input': 'portal-resources' } })).toThrow(
      /x-portal-resources/,
    );
    expect(() =>
      portalResourceReachOf({ name: 'x', schema: { 'x-portal-resources': 'everything' } }),
    ).toThrow();
  });
});
