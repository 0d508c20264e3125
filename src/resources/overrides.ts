/**
 * The resource folders' own screens (DESIGN 11): each src/resources/<name>/index.ts default-exports a
 * ResourceFolder, found here by vite's import.meta.glob, so no file lists the resources. The indexes are
 * small and loaded with this module (the routes are built from them at the first paint); the screens in
 * them are lazy chunks. The shell installs them in the table the generic screens read
 * (override-contract.ts `overrides`); a resource a folder does not name gets the generic screens.
 */
import type { AppKind } from '../custom/appKind.ts';
import { overrides, type ResourceFolder } from './override-contract.ts';

const folders = import.meta.glob<ResourceFolder>('./*/index.ts*', { eager: true, import: 'default' });
const APPS: AppKind[] = ['portal', 'backoffice'];
let installed = false;

/** Fills the generic screens' table from the folders, once; two folders giving one resource's screens in one app is an error. */
export function installOverrides(): void {
  if (installed) return;
  installed = true;
  for (const [path, folder] of Object.entries(folders)) {
    for (const kind of APPS) {
      for (const [name, own] of Object.entries(folder[kind] ?? {})) {
        if (overrides[kind][name])
          throw new Error(`${path}: another folder gives the ${kind} screens of ${name}`);
        overrides[kind][name] = own;
      }
    }
  }
}
