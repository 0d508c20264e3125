/**
 * The contract between the generic screens and a resource's own ones (overrides.ts lists them). A
 * leaf module: a resource's screens import these types from here, not from the list that loads them,
 * so no import cycle runs through overrides.ts (tests/unit/import-cycles.test.ts).
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import type { RaRecord } from 'react-admin';

/** A last column of the list with a per-row action (an invoice's download link). */
export interface ActionColumn {
  /** i18n key of the column header. */
  label: string;
  Cell: ComponentType<{ record: RaRecord }>;
}

/** What a record's action buttons get: the record shown and a way to load it again after an action. */
export interface RecordActionsProps {
  record: RaRecord;
  refetch: () => unknown;
}

export interface ResourceOverrides {
  detail?: LazyExoticComponent<ComponentType>;
  /**
   * The record's own action buttons (close, merge, archive, invoice…), shown in the generic detail
   * screen's header before Edit and Delete; each button checks its own permission.
   */
  actions?: LazyExoticComponent<ComponentType<RecordActionsProps>>;
  /**
   * Figures about the record in the detail header, before the actions (a ticket's time and the hours
   * left on its company's contract): read-only, a component of its own beside the action buttons.
   */
  summary?: LazyExoticComponent<ComponentType<RecordActionsProps>>;
  create?: LazyExoticComponent<ComponentType>;
  actionColumn?: ActionColumn;
  /**
   * Where the spec puts the record's detail when it is not /{resource}/{id}: a path under another
   * resource (SPEC 2: template tickets at /tickets/templates/{id}); /{resource}/{id} leads there.
   */
  path?: string;
}
