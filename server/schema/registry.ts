import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Registry, toResource, type Enumeration } from '../../common/schema/registry.ts';

export { Registry, toResource, type Enumeration } from '../../common/schema/registry.ts';

export const SCHEMA_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

let cached: Registry | undefined;

/** The registry of the schemas folder, loaded once per process. */
export function registry(): Registry {
  cached ??= loadRegistry(SCHEMA_DIR);
  return cached;
}

export function loadRegistry(dir: string, extra: Record<string, any>[] = []): Registry {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const enumsFile = files.includes('_enums.json')
    ? (JSON.parse(readFileSync(join(dir, '_enums.json'), 'utf8')) as Record<string, Enumeration>)
    : {};
  const enums = Object.fromEntries(Object.entries(enumsFile).filter(([k]) => !k.startsWith('$')));
  const schemas = files
    .filter((f) => !f.startsWith('_'))
    .map((f) => {
      const schema = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      if (schema.$id !== f.replace(/\.json$/, '')) throw new Error(`${f}: $id must be the file name`);
      return schema;
    });
  return new Registry([...schemas, ...extra].map(toResource), enums);
}
