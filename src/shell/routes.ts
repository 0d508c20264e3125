/**
 * Route names of the spec (`tickets.show`, `ticket-groups.index`, …) as paths. A record's detail lives
 * at /{resource}/{id} in both apps (SPEC 2: /app/tickets/:id, /clients/{id}), which react-admin calls
 * its 'edit' route; the detail screen shows the record and edits it in place where allowed.
 */
export type RouteName = `${string}.${'index' | 'show' | 'create'}`;

export function pathFor(name: RouteName, id?: string | number): string {
  const [resource, action] = name.split('.') as [string, string];
  if (action === 'index') return `/${resource}`;
  if (action === 'create') return `/${resource}/create`;
  return `/${resource}/${encodeURIComponent(String(id))}`;
}

/** The route name of a path inside an app (without its basename): '/tickets/12' → 'tickets.show'. */
export function routeNameOf(path: string): RouteName | undefined {
  const [resource, second] = path.replace(/^\/+/, '').split('/');
  if (!resource) return undefined;
  if (!second) return `${resource}.index`;
  if (second === 'create') return `${resource}.create`;
  return `${resource}.show`;
}
