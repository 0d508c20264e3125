/**
 * What the data provider (./index.ts) offers beyond react-admin's methods, and the answers of the calls
 * it makes: the contract the screens program against (`useDataProvider<ServiceDeskDataProvider>()`).
 */
import type { DataProvider, Identifier, RaRecord } from 'ra-core';
import type { SessionUser } from './storage.ts';

/** An export job as GET /api/exports answers it (server/exports/routes.ts). */
export interface ExportJob {
  id: number;
  model: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  row_count: number | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  csv_url: string | null;
  xlsx_url: string | null;
}

/** What `meta` may carry on reads. */
export interface ReadMeta {
  with?: string[];
  withCount?: string[];
  /** `relation.field` sums (a show only), e.g. a tab's badge. */
  withSum?: string[];
  version?: number;
  /** A list call of its own: GET /{r}/{listAction} (SPEC 7: time-registrations/open), same query. */
  listAction?: string;
  /** getOne: the language to read translated fields in instead of the app's (Accept-Language). */
  language?: string;
  /** getList: only these fields (the builder item `select`, issue 40): `field` or `relation.field`. */
  select?: string[];
  [key: string]: unknown;
}

export interface PresetCountRequest {
  id: Identifier;
  filter: Record<string, unknown>;
}

export interface SystemStatus {
  setup_completed: boolean;
  trial_ends_in: number | null;
  tenant_name: string;
  tenant: string;
}

export interface MeAnswer {
  user: SessionUser;
  lists: Record<string, unknown>;
}

/** One resource's matches of GET /api/search (server/search/global-search.ts). */
export interface SearchGroup {
  resource: string;
  records: { id: number; label: string; detail: string | null }[];
}

export interface ServiceDeskDataProvider extends DataProvider {
  supportAbortSignal: true;
  presetCounts(
    resource: string,
    presets: PresetCountRequest[],
    options?: { signal?: AbortSignal },
  ): Promise<{ id: Identifier; count: number }[]>;
  /** Saves user configs (list layouts) and returns, and stores, the updated user. */
  saveConfigs(configs: { name: string; value: unknown }[]): Promise<SessionUser>;
  /** The user (stored again) and the lists loaded at login. */
  me(options?: { signal?: AbortSignal }): Promise<MeAnswer>;
  systemStatus(options?: { signal?: AbortSignal }): Promise<SystemStatus>;
  updateOrder(resource: string, id: Identifier, order: number): Promise<RaRecord>;
  /** Asks the server to export a list; resolves to the server's message (shown as the success toast). */
  exportList(
    resource: string,
    params: {
      userId: Identifier;
      filter?: Record<string, unknown>;
      sort?: { field: string; order: string };
      /** The visible columns in order, with the headers shown above them. */
      columns?: { name: string; label: string }[];
      /** The language of the answer and of the e-mail. */
      locale?: string;
    },
  ): Promise<string>;
  /** The caller's own exports, newest first. */
  exportJobs(): Promise<ExportJob[]>;
  /** A finished export's file, with the name the server gives it. */
  exportFile(id: Identifier, format: 'csv' | 'xlsx'): Promise<{ blob: Blob; fileName: string }>;
  /** A record's own action (SPEC 7: quotes accept, contracts buy): POST /{r}/{id}/{action}. */
  recordAction<T = RaRecord>(resource: string, id: Identifier, action: string, body?: unknown): Promise<T>;
  /** An action on several records (SPEC 7: tickets and companies merge {ids}): POST /{r}/{action}. */
  collectionAction<T = RaRecord>(resource: string, action: string, body?: unknown): Promise<T>;
  /**
   * A call at a path of its own (SPEC 7: invoicing/export/{id}, invoicing/restore/{id},
   * invoicing/download-csv): the JSON answer, or with `responseType: 'blob'` the answer as a Blob.
   */
  call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options?: { body?: unknown; responseType?: 'json' | 'blob' },
  ): Promise<T>;
  /** The global search: the records of every searchable resource the caller may list that match `text`. */
  search(text: string, options?: { signal?: AbortSignal }): Promise<SearchGroup[]>;
  /** A record's file (SPEC 7: quote and invoice PDFs): POST /{r}/{id}/{action}, the answer as a Blob. */
  recordDownload(resource: string, id: Identifier, action?: string): Promise<Blob>;
  /**
   * Creates a record from a multipart form (SPEC 7: a message with its files, an inline image):
   * POST /{r} with the FormData as it is; the browser sets the multipart boundary.
   */
  createMultipart<T = RaRecord>(
    resource: string,
    form: FormData,
    options?: { signal?: AbortSignal },
  ): Promise<T>;
}
