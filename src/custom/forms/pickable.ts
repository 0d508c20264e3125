/**
 * The list filter of a selector that offers records as a new value (a form's field, a ticket's quick
 * actions, the list's bulk bar): the target schema's x-pickable conditions (operators: not archived)
 * in the data provider's filter convention (src/dataProvider/builder.ts). Header filters do not use it:
 * a filter looks back at history, where an archived operator's tickets are still found.
 */
import type { Resource } from '../../../common/schema/types.ts';

export function pickableFilter(target: Resource | undefined): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const [field, op, value] of target?.pickable ?? []) {
    if (value === null) {
      if (op === '=') filter[field] = null;
      else filter[`${field}@notnull`] = true;
    } else filter[op === '=' ? field : `${field}@${op}`] = value;
  }
  return filter;
}
