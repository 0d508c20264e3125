/**
 * The resource folders (DESIGN 11): every folder of server/resources/ is one, and its index.ts's default
 * export (a ResourceFolder) says what it adds. Found when first asked for, by reading this folder, so a
 * resource's own code is a folder and no list to edit (schemas/README.md, "A resource's own code"). The
 * indexes are imported by a computed URL, which no import graph sees: the scan names no resource, and
 * a folder's code may import the generic modules that use the tables built here without a cycle
 * (docs/decisions.md, 2026-12-02).
 */
import { existsSync, readdirSync } from 'node:fs';
import type { ActionPlugin } from './action-contract.ts';
import type { ResourceFolder } from './folder-contract.ts';
import type { ResourceHooks } from './hook-contract.ts';

const FOLDER = new URL('./', import.meta.url);

export interface ResourceFolders {
  /** Every folder's hooks by resource name. */
  hooks: Record<string, ResourceHooks>;
  /** Every folder's action plugins, folder by folder in name order, each folder's in its own order. */
  actions: ActionPlugin[];
}

async function scan(): Promise<ResourceFolders> {
  const names = readdirSync(FOLDER, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  // A folder without an index would be skipped without a word, and its hooks missing: refuse instead.
  const missing = names.filter((name) => !existsSync(new URL(`${name}/index.ts`, FOLDER)));
  if (missing.length > 0) {
    throw new Error(
      `server/resources: a resource folder needs an index.ts, not found in ${missing.join(', ')}`,
    );
  }
  const modules = await Promise.all(
    names.map(
      async (name) =>
        (await import(new URL(`${name}/index.ts`, FOLDER).href)) as { default?: ResourceFolder },
    ),
  );
  const hooks: Record<string, ResourceHooks> = {};
  const actions: ActionPlugin[] = [];
  const givenBy: Record<string, string> = {};
  modules.forEach(({ default: folder }, i) => {
    const name = names[i]!;
    if (typeof folder !== 'object' || folder === null) {
      throw new Error(
        `server/resources/${name}/index.ts: export default { hooks, actions } (a ResourceFolder)`,
      );
    }
    for (const [resource, given] of Object.entries(folder.hooks ?? {})) {
      // Two folders hooking one resource would run one of them only: say which, and do not start.
      if (givenBy[resource]) {
        throw new Error(
          `server/resources: both ${givenBy[resource]}/ and ${name}/ give hooks to ${resource}`,
        );
      }
      givenBy[resource] = name;
      hooks[resource] = given;
    }
    actions.push(...(folder.actions ?? []));
  });
  return { hooks, actions };
}

let scanned: Promise<ResourceFolders> | undefined;

/** The folders' hooks and actions, scanned once per process. */
export function resourceFolders(): Promise<ResourceFolders> {
  scanned ??= scan();
  return scanned;
}
