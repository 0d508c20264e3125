/**
 * The fields a rule's conditions may name (./ConditionsInput.tsx, ./ConditionsDisplay.tsx): the
 * tickets' filterable fields (x-filter) this user receives, each with the kind of its list filter
 * (src/resources/fields/kinds.ts: filterKind) and its label as the ticket list names it.
 */
import { useCallback, useMemo } from 'react';
import { useTranslate } from 'react-admin';
import type { ConditionKind } from '../../../common/automation/condition-rows.ts';
import { registry } from '../../schema.ts';
import { filterKind } from '../../resources/fields/kinds.ts';
import { readableFields } from '../../resources/fields/rules.ts';

/** The resource a rule's conditions are about: the builder of the tickets' list. */
export const TICKETS = 'tickets';

export function useConditionFields() {
  const translate = useTranslate();
  const tickets = registry.get(TICKETS);
  const kinds = useMemo(() => {
    const out = new Map<string, ConditionKind>();
    if (!tickets) return out;
    for (const f of readableFields(tickets, 'backoffice')) {
      const kind = filterKind(tickets, f, 'backoffice');
      if (kind) out.set(f.name, kind);
    }
    return out;
  }, [tickets]);
  const kindOf = useCallback((name: string) => kinds.get(name), [kinds]);
  const labelOf = useCallback(
    (name: string) => translate(`resources.${TICKETS}.fields.${name}`, { _: name }),
    [translate],
  );
  const fields = useMemo(
    () => [...kinds.keys()].sort((a, b) => labelOf(a).localeCompare(labelOf(b))),
    [kinds, labelOf],
  );
  return { tickets, fields, kindOf, labelOf };
}
