/**
 * Schemas -> Resources, checked against each other. Pure: the server and the browser apps both use it.
 * Reading one schema is to-resource.ts, the checks checks.ts; both apps import them through here.
 */
import type { Enumeration, Resource } from './types.ts';
import { checkReferences } from './checks.ts';

export { toResource } from './to-resource.ts';
export { tabResource } from './checks.ts';
export type { Enumeration } from './types.ts';

/** Every resource of schemas/, checked against each other once at start. */
export class Registry {
  readonly resources: ReadonlyMap<string, Resource>;
  readonly enums: Readonly<Record<string, Enumeration>>;

  constructor(resources: Resource[], enums: Record<string, Enumeration>) {
    this.resources = new Map(resources.map((r) => [r.name, r]));
    this.enums = enums;
    for (const resource of resources) checkReferences(this, resource);
  }

  get(name: string): Resource | undefined {
    return this.resources.get(name);
  }

  require(name: string): Resource {
    const resource = this.resources.get(name);
    if (!resource) throw new Error(`Unknown resource ${name}`);
    return resource;
  }

  /** Resources whose x-morph-type is set, by that type. */
  byMorphType(type: string): Resource | undefined {
    for (const r of this.resources.values()) if (r.morphType === type) return r;
    return undefined;
  }

  /** Every permission name the schemas define: tenant.<r>.<action> and portal.<r>.<action>. */
  permissionNames(): string[] {
    const names: string[] = [];
    for (const r of this.resources.values()) {
      for (const a of r.actions) names.push(`tenant.${r.name}.${a}`);
      for (const a of r.portal?.actions ?? []) names.push(`portal.${r.name}.${a}`);
    }
    return names;
  }
}
