/**
 * The data provider of both apps: react-admin's methods and the spec's other calls (section 7) over an
 * injected HTTP client. It never names a resource (DESIGN.md section 7); the model is ra-data-simple-rest.
 * `{r}` is the resource, `B(params)` the builder list of ./builder.ts (sort, filters, paginate), `meta.with`,
 * `meta.withCount` and `meta.withSum` become `with[]`, `withCount[]` and `withSum[]`, `meta.version` becomes `version`.
 *
 * | method                                     | HTTP call                                                         |
 * |--------------------------------------------|-------------------------------------------------------------------|
 * | getList                                    | GET /api/{r}?builder=B(params)&page=…&with[]=…                    |
 * | getOne                                     | GET /api/{r}/{id}?with[]=…                                        |
 * | getMany                                    | GET /api/{r}?builder=[{whereIn: [id, ids]}, {paginate: n}] (100 ids a call) |
 * | getManyReference                           | GET /api/{r}?builder=B(params) with {where: [target, =, id]} after the sort |
 * | create                                     | POST /api/{r}  body: data                                         |
 * | update                                     | PUT /api/{r}/{id}  body: the fields that differ from previousData; none: no call |
 * | updateMany                                 | PUT /api/{r}/{id} for each id                                     |
 * | delete                                     | DELETE /api/{r}/{id}                                              |
 * | deleteMany                                 | DELETE /api/{r}/{id} for each id                                  |
 * | presetCounts(r, [{id, filter}])            | GET /api/presets-result-count/{r}?builders[i][id]=…&builders[i][builder]=… |
 * | saveConfigs([{name, value}])               | POST /api/auth/me  body: {relationships: {configs}}               |
 * | me()                                       | GET /api/auth/me                                                  |
 * | systemStatus()                             | GET /api/system/status (no token)                                 |
 * | updateOrder(r, id, order)                  | PUT /api/{r}/{id}/update-order  body: {order}                     |
 * | exportList(r, {userId, filter, sort?, columns?, locale?}) | POST /api/exports  body: {userId, model: r, filter: builder items (sort first), columns?, locale?} |
 * | exportJobs()                               | GET /api/exports: the caller's own exports, newest first          |
 * | exportFile(id, format)                     | GET /api/exports/{id}/{csv|xlsx}; answers the Blob and the server's file name |
 * | recordAction(r, id, action, body?)         | POST /api/{r}/{id}/{action}  body: body; answers the JSON body    |
 * | collectionAction(r, action, body?)         | POST /api/{r}/{action}  body: body; answers the JSON body         |
 * | recordDownload(r, id, action?)             | POST /api/{r}/{id}/{action = download}; answers a Blob            |
 * | createMultipart(r, form, {signal}?)        | POST /api/{r}  body: the FormData as multipart (files); answers the JSON body |
 * | call(method, path, {body, responseType}?)  | {method} /api/{path}: a call at a path of its own (invoicing/…); JSON or a Blob |
 * | search(text, {signal}?)                    | GET /api/search?q=text: the app bar's search, the matches grouped per resource |
 *
 * Lists answer `{data, total, meta: {from, to, last_page}}`. A new getList of the same list (resource
 * plus meta) aborts the one still under way (it rejects with an AbortError); react-admin's own `signal`
 * is honoured too (`supportAbortSignal`). Two lists of one resource shown at the same time must differ
 * in `meta` (any client-side key will do, e.g. `meta: {list: 'assigned'}`) or they cancel each other.
 */
import type {
  CreateParams,
  DataProvider,
  DeleteManyParams,
  DeleteParams,
  GetListParams,
  GetManyParams,
  GetManyReferenceParams,
  GetOneParams,
  Identifier,
  RaRecord,
  UpdateManyParams,
  UpdateParams,
} from 'ra-core';
import { toBuilder, toQueryString, type BuilderItem } from './builder.ts';
import type { HttpClient } from './http.ts';
import { MAX_PAGE_SIZE, type Paginated } from '../../common/page.ts';
import { setUser, type SessionUser } from './storage.ts';

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
    method: 'GET' | 'POST' | 'PUT',
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

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Structural equality of JSON-like values (form data against the record it started from). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]))
    );
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).filter((k) => (a as any)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as any)[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameValue((a as any)[k], (b as any)[k]));
  }
  return false;
}

/** The fields of `data` that differ from `previous` (all of them without `previous`); never the id. */
export function changedFields(
  data: Record<string, unknown>,
  previous: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'id' || value === undefined) continue;
    if (!previous || !sameValue(value, previous[key])) changes[key] = value;
  }
  return changes;
}

const recordPath = (resource: string, id: Identifier) => `/${resource}/${encodeURIComponent(String(id))}`;

function withQuery(path: string, query: Record<string, unknown>): string {
  const search = toQueryString(query);
  return search ? `${path}?${search}` : path;
}

function readQuery(meta: ReadMeta | undefined): Record<string, unknown> {
  return { with: meta?.with, withCount: meta?.withCount, withSum: meta?.withSum, version: meta?.version };
}

const listAnswer = (body: Paginated) => ({
  data: body.data,
  total: body.total,
  meta: { from: body.from, to: body.to, last_page: body.last_page },
});

const superseded = () =>
  new DOMException('A newer request for the same list replaced this one.', 'AbortError');

export function createDataProvider(http: HttpClient): ServiceDeskDataProvider {
  const listsUnderWay = new Map<string, AbortController>();

  /** A signal that aborts with react-admin's and when a newer call of the same list starts. */
  function listSignal(key: string, external: AbortSignal | undefined) {
    listsUnderWay.get(key)?.abort(superseded());
    const controller = new AbortController();
    listsUnderWay.set(key, controller);
    const forward = () => controller.abort(external?.reason);
    if (external?.aborted) forward();
    else external?.addEventListener('abort', forward, { once: true });
    return {
      signal: controller.signal,
      done() {
        external?.removeEventListener('abort', forward);
        if (listsUnderWay.get(key) === controller) listsUnderWay.delete(key);
      },
    };
  }

  async function list(
    resource: string,
    builder: BuilderItem[],
    page: number | undefined,
    meta: ReadMeta | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Paginated> {
    const base = meta?.listAction ? `/${resource}/${encodeURIComponent(meta.listAction)}` : `/${resource}`;
    const path = withQuery(base, { builder, page, ...readQuery(meta) });
    return (await http.request<Paginated>(path, { signal })).body;
  }

  return {
    supportAbortSignal: true,

    async getList(resource: string, params: GetListParams) {
      const { signal, done } = listSignal(`${resource} ${stableJson(params.meta ?? {})}`, params.signal);
      try {
        return listAnswer(
          await list(resource, toBuilder(params), params.pagination?.page, params.meta, signal),
        );
      } finally {
        done();
      }
    },

    async getOne(resource: string, params: GetOneParams) {
      const path = withQuery(recordPath(resource, params.id), readQuery(params.meta));
      // meta.language: the record in that language (an edit form reads the stored Dutch names).
      const language = typeof params.meta?.language === 'string' ? params.meta.language : undefined;
      const headers = language ? { 'Accept-Language': language } : undefined;
      return { data: (await http.request(path, { signal: params.signal, headers })).body };
    },

    async getMany(resource: string, params: GetManyParams) {
      const ids = [...new Set(params.ids)];
      const chunks: Identifier[][] = [];
      for (let i = 0; i < ids.length; i += MAX_PAGE_SIZE) chunks.push(ids.slice(i, i + MAX_PAGE_SIZE));
      const pages = await Promise.all(
        chunks.map((chunk) =>
          list(
            resource,
            [{ whereIn: ['id', chunk] }, { paginate: chunk.length }],
            undefined,
            params.meta,
            params.signal,
          ),
        ),
      );
      return { data: pages.flatMap((p) => p.data) };
    },

    async getManyReference(resource: string, params: GetManyReferenceParams) {
      const builder = toBuilder(params, [{ where: [params.target, '=', params.id] }]);
      return listAnswer(await list(resource, builder, params.pagination.page, params.meta, params.signal));
    },

    async create(resource: string, params: CreateParams) {
      const { body } = await http.request(`/${resource}`, { method: 'POST', body: params.data });
      return { data: body };
    },

    async update(resource: string, params: UpdateParams) {
      const changes = changedFields(params.data, params.previousData);
      if (Object.keys(changes).length === 0) {
        return { data: params.previousData ?? { ...params.data, id: params.id } };
      }
      const { body } = await http.request(recordPath(resource, params.id), { method: 'PUT', body: changes });
      return { data: body };
    },

    async updateMany(resource: string, params: UpdateManyParams) {
      await Promise.all(
        params.ids.map((id) => http.request(recordPath(resource, id), { method: 'PUT', body: params.data })),
      );
      return { data: params.ids };
    },

    async delete(resource: string, params: DeleteParams) {
      await http.request(recordPath(resource, params.id), { method: 'DELETE' });
      return { data: params.previousData ?? { id: params.id } };
    },

    async deleteMany(resource: string, params: DeleteManyParams) {
      await Promise.all(params.ids.map((id) => http.request(recordPath(resource, id), { method: 'DELETE' })));
      return { data: params.ids };
    },

    async presetCounts(resource, presets, options = {}) {
      const builders = presets.map((p) => ({ id: p.id, builder: toBuilder({ filter: p.filter }) }));
      const path = withQuery(`/presets-result-count/${resource}`, { builders });
      return (await http.request(path, { signal: options.signal })).body;
    },

    async saveConfigs(configs) {
      const { body } = await http.request<{ user: SessionUser }>('/auth/me', {
        method: 'POST',
        body: { relationships: { configs } },
      });
      setUser(body.user);
      return body.user;
    },

    async me(options = {}) {
      const { body } = await http.request<MeAnswer>('/auth/me', { signal: options.signal });
      setUser(body.user);
      return body;
    },

    async systemStatus(options = {}) {
      return (await http.request<SystemStatus>('/system/status', { anonymous: true, signal: options.signal }))
        .body;
    },

    async updateOrder(resource, id, order) {
      const path = `${recordPath(resource, id)}/update-order`;
      return (await http.request(path, { method: 'PUT', body: { order } })).body;
    },

    async exportList(resource, { userId, filter, sort, columns, locale }) {
      const { body } = await http.request<{ message: string }>('/exports', {
        method: 'POST',
        body: {
          userId,
          model: resource,
          filter: toBuilder({ filter, sort }),
          ...(columns && { columns }),
          ...(locale && { locale }),
        },
      });
      return body.message;
    },

    async exportJobs() {
      return (await http.request<{ data: ExportJob[] }>('/exports')).body.data;
    },

    async exportFile(id, format) {
      const path = `/exports/${encodeURIComponent(String(id))}/${format}`;
      const { body, headers } = await http.request<Blob>(path, { responseType: 'blob' });
      const named = /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '');
      return { blob: body, fileName: named?.[1] ?? `export-${id}.${format}` };
    },

    async recordAction<T>(resource: string, id: Identifier, action: string, body?: unknown) {
      const path = `${recordPath(resource, id)}/${encodeURIComponent(action)}`;
      return (await http.request<T>(path, { method: 'POST', body: body ?? {} })).body;
    },

    async collectionAction<T>(resource: string, action: string, body?: unknown) {
      const path = `/${encodeURIComponent(resource)}/${encodeURIComponent(action)}`;
      return (await http.request<T>(path, { method: 'POST', body: body ?? {} })).body;
    },

    async call<T>(
      method: 'GET' | 'POST' | 'PUT',
      path: string,
      options: { body?: unknown; responseType?: 'json' | 'blob' } = {},
    ) {
      const url = `/${path.replace(/^\/+/, '')}`;
      return (await http.request<T>(url, { method, body: options.body, responseType: options.responseType }))
        .body;
    },

    async search(text, options = {}) {
      const path = `/search?${toQueryString({ q: text })}`;
      return (await http.request<{ data: SearchGroup[] }>(path, { signal: options.signal })).body.data;
    },

    async recordDownload(resource: string, id: Identifier, action = 'download') {
      const path = `${recordPath(resource, id)}/${encodeURIComponent(action)}`;
      return (await http.request<Blob>(path, { method: 'POST', responseType: 'blob' })).body;
    },

    async createMultipart<T>(resource: string, form: FormData, options: { signal?: AbortSignal } = {}) {
      return (await http.request<T>(`/${resource}`, { method: 'POST', body: form, signal: options.signal }))
        .body;
    },
  };
}
