/**
 * The contract between the generic screens and a resource's own ones (src/resources/<name>/index.ts,
 * collected by overrides.ts). A leaf module: a resource's screens import these types from here, and the
 * generic screens read the table from here, so neither imports the module that loads the other and no
 * import cycle runs through the table (tests/unit/import-cycles.test.ts, docs/decisions.md 2026-12-02).
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import type { Identifier, RaRecord } from 'react-admin';
import type { AppKind } from '../custom/appKind.ts';

/** A last column of the list with a per-row action (an invoice's download link). */
export interface ActionColumn {
  /** i18n key of the column header. */
  label: string;
  Cell: ComponentType<{ record: RaRecord }>;
}

/** What a resource's own bulk controls get: the list's selection and what to do after a change. */
export interface BulkControlsProps {
  selected: Identifier[];
  onDone: () => void;
}

/** What a record's action buttons get: the record shown and a way to load it again after an action. */
export interface RecordActionsProps {
  record: RaRecord;
  refetch: () => unknown;
}

export interface ResourceOverrides {
  /**
   * The resource's own list screen, where the generic table does not say what it is for (the portal's
   * colleagues: each with a role to choose in place).
   */
  list?: LazyExoticComponent<ComponentType>;
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
  /**
   * A card of the record's own below its fields (a ticket's SLA clock, its promise in the portal): read
   * with the rest before the detail shows (readBeforeShow.ts), hidden while the fields are edited.
   */
  panel?: LazyExoticComponent<ComponentType<RecordActionsProps>>;
  create?: LazyExoticComponent<ComponentType>;
  /** Controls of the resource's own in the list's bulk bar, beside x-bulk's (a ticket list's macros). */
  bulk?: LazyExoticComponent<ComponentType<BulkControlsProps>>;
  actionColumn?: ActionColumn;
  /**
   * Where the spec puts the record's detail when it is not /{resource}/{id}: a path under another
   * resource (SPEC 2: template tickets at /tickets/templates/{id}); /{resource}/{id} leads there.
   */
  path?: string;
}

/**
 * What a resource folder's index.ts default-exports: its screens per app, by resource name (mostly the
 * folder's own; src/resources/invoicing/ gives the invoice-line actions of two resources).
 */
export type ResourceFolder = Partial<Record<AppKind, Record<string, ResourceOverrides>>>;

/**
 * Every resource's own screens, per app and resource name, as the generic screens read them: empty until
 * the shell installs the folders' screens (overrides.ts `installOverrides`) before its first render. The
 * generic screens never import the folders, whose screens import the generic ones back.
 */
export const overrides: Record<AppKind, Record<string, ResourceOverrides>> = { portal: {}, backoffice: {} };
