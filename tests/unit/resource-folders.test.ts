/**
 * The resource folders (server/resources/<name>/index.ts, DESIGN 11) as the server finds them: a hook
 * keyed by a name no schema defines would never run, so a typo there fails here instead of silently.
 */
import { describe, expect, it } from 'vitest';
import { resourceFolders } from '../../server/resources/folders.ts';
import { registry } from '../../server/schema/registry.ts';

describe('the resource folders', () => {
  it('give hooks only to resources the schemas define', async () => {
    const { hooks } = await resourceFolders();
    expect(Object.keys(hooks).length).toBeGreaterThan(0);
    expect(Object.keys(hooks).filter((name) => !registry().get(name))).toEqual([]);
  });

  it('give each action plugin once', async () => {
    const { actions } = await resourceFolders();
    expect(actions.length).toBeGreaterThan(0);
    expect(new Set(actions).size).toBe(actions.length);
  });
});
