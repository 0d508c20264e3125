/**
 * The history of a ticket as its reader reads it: a change names the status, operator, company … it
 * went from and to by that record's name in the reader's language (a translated status or priority),
 * looked up again at reading time, one statement per kind of record on the page. A record deleted since
 * keeps the name stored with the change (tickets/history.ts).
 */
import type { ResourceHooks } from '../hook-contract.ts';
import { namesOf, referencedResource } from '../tickets/history.ts';

export const ticketChangeHooks: ResourceHooks = {
  async present(rows, { db, auth, registry }) {
    const byField = new Map<string, typeof rows>();
    for (const row of rows) {
      if (typeof row.field === 'string') byField.set(row.field, [...(byField.get(row.field) ?? []), row]);
    }
    for (const [field, list] of byField) {
      const target = referencedResource(registry, field);
      if (!target) continue;
      const ids = [
        ...new Set(
          list
            .flatMap((r) => [r.from_value, r.to_value])
            .map(Number)
            .filter(Number.isSafeInteger),
        ),
      ];
      const names = await namesOf(db, auth.tenantId, target, ids, auth.language ?? 'nl');
      for (const row of list) {
        if (row.from_value !== null && names.has(Number(row.from_value)))
          row.from_label = names.get(Number(row.from_value));
        if (row.to_value !== null && names.has(Number(row.to_value)))
          row.to_label = names.get(Number(row.to_value));
      }
    }
  },
};
