/**
 * The ticket calls the apps' screens send, as they send them (issue 40): the query strings are written
 * by the apps' own data-provider code (src/dataProvider/builder.ts: `toBuilder` orders the items as the
 * list screen does, `toQueryString` encodes them byte for byte), from what each screen asks for. What a
 * screen asks for (its relations, sort, page size) is said once here; tests/e2e/bench-requests.spec.ts
 * records the calls of the real screens in Chromium and fails when one of them differs from what these
 * functions write, so a change to a screen's call cannot leave the bench measuring yesterday's call.
 */
import { toBuilder, toQueryString, type BuilderItem } from '../src/dataProvider/builder.ts';

/** The list screens' page size (a user without a layout of their own). */
export const LIST_PER_PAGE = 15;
/** The ticket schema's x-default-sort, which both lists start with. */
export const LIST_SORT = { field: 'updated_at', order: 'DESC' } as const;

/*
 * LIST_WITH and LIST_SELECT are written out, not computed by the apps' own `listModel` (its
 * `relationsFor` and `selectFor` of the default columns, src/custom/list/shape.ts): that module reads
 * the schemas through src/schema.ts, whose `import.meta.glob` only Vite provides, and the bench runs
 * under tsx, where importing it fails ("glob is not a function"). Loading it through Vite's module
 * runner (`runnerImport`) works but is experimental, makes this module asynchronous for everyone who
 * imports it (the e2e spec too) and would build a second registry. So the copies are checked instead:
 * tests/browser/list-select.test.ts compares them with `listModel`'s result (vitest runs on Vite), and
 * tests/e2e/bench-requests.spec.ts compares whole calls with those of the real screens.
 */

/**
 * The belongsTo relations of the default columns (src/custom/list/shape.ts `relationsFor`): the back
 * office's list shows priority, status, company, client and operator; the portal's list (x-portal.list)
 * has no operator column.
 */
export const LIST_WITH = {
  backoffice: ['priority', 'status', 'company', 'client', 'operator'],
  portal: ['priority', 'status', 'company', 'client'],
} as const;

export type AppKind = keyof typeof LIST_WITH;

/**
 * The fields the default columns' cells read, which the list screens ask for alone (the builder item
 * `select`, src/custom/list/shape.ts `selectFor`): each column, a reference's label and style, and the
 * fields the deadline badge reads. The portal reads a status's client name and style.
 */
export const LIST_SELECT: Record<AppKind, readonly string[]> = {
  backoffice: [
    'reference',
    'description',
    'priority_id',
    'priority.label',
    'priority.style',
    'status_id',
    'status.name',
    'status.style',
    'company_id',
    'company.name',
    'client_id',
    'client.full_name',
    'operator_id',
    'operator.full_name',
    'deadline',
    'resolved_at',
    'updated_at',
  ],
  portal: [
    'reference',
    'description',
    'priority_id',
    'priority.label',
    'priority.style',
    'status_id',
    'status.name_client',
    'status.style_client',
    'company_id',
    'company.name',
    'client_id',
    'client.full_name',
    'deadline',
    'resolved_at',
    'updated_at',
  ],
};

export interface ListRequest {
  app: AppKind;
  page?: number;
  /** A header's sort toggle: another column, ascending on the first press. */
  sort?: { field: string; order: 'ASC' | 'DESC' };
  /** The list's filter as the data provider gets it (src/dataProvider/builder.ts's convention). */
  filter?: Record<string, unknown>;
}

/** GET /api/tickets as the list screen sends it (src/custom/list/useListScreenController.ts). */
export function ticketListPath({ app, page = 1, sort = LIST_SORT, filter }: ListRequest): string {
  const builder = [
    ...toBuilder({ pagination: { page, perPage: LIST_PER_PAGE }, sort, filter }),
    { select: [...LIST_SELECT[app]] },
  ];
  return `/api/tickets?${toQueryString({ builder, page, with: [...LIST_WITH[app]] })}`;
}

/** The relations the back office's ticket detail reads the record with (its first call). */
export const RECORD_WITH = [
  'company',
  'client',
  'operator',
  'status',
  'priority',
  'ticketGroup',
  'ticketType',
  'ticketSource',
  'category',
  'sla',
  'recurringTicket',
  'appliedSla',
  'asset',
] as const;

/** GET /api/tickets/{id} as the back office's ticket screen first reads it. */
export const ticketRecordPath = (id: number) =>
  `/api/tickets/${id}?${toQueryString({ with: [...RECORD_WITH] })}`;

/** The thread on the ticket screen: its messages, newest first, with their attachments. */
export function ticketThreadPath(ticketId: number): string {
  const builder = toBuilder({
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'created_at', order: 'DESC' },
    filter: { morphable_type: 'ticket', morphable_id: ticketId },
  });
  return `/api/messages?${toQueryString({ builder, page: 1, with: ['attachments'] })}`;
}

/** The app bar's search (src/dataProvider `search`). */
export const globalSearchPath = (text: string) => `/api/search?${toQueryString({ q: text })}`;

/** The list toolbar's presets with their result counts (src/dataProvider `presetCounts`). */
export const presetCountsPath = (builders: { id: number | string; builder: BuilderItem[] }[]) =>
  `/api/presets-result-count/tickets?${toQueryString({ builders })}`;
