/** The schemas of schemas/, bundled into the apps: the same Registry the server builds. */
import { Registry, toResource, type Enumeration } from '../common/schema/registry.ts';

const files = import.meta.glob<Record<string, any>>('../schemas/*.json', { eager: true, import: 'default' });

const schemas = Object.entries(files)
  .filter(([path]) => !path.split('/').pop()!.startsWith('_'))
  .map(([, schema]) => schema);
const enumsFile = Object.entries(files).find(([path]) => path.endsWith('/_enums.json'))?.[1] ?? {};
const enums = Object.fromEntries(Object.entries(enumsFile).filter(([k]) => !k.startsWith('$'))) as Record<
  string,
  Enumeration
>;

export const registry = new Registry(schemas.map(toResource), enums);
