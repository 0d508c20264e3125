/**
 * The data provider of both apps: react-admin's methods and the spec's other calls (section 7) over an
 * injected HTTP client. It never names a resource (DESIGN.md section 7); the model is ra-data-simple-rest.
 * `{r}` is the resource, `B(params)` the builder list of ./builder.ts (sort, filters, paginate), `meta.with`,
 * `meta.withCount` and `meta.withSum` become `with[]`, `withCount[]` and `withSum[]`, `meta.version` becomes `version`,
 * a list's `meta.select` the last builder item `{select: [...]}` (only the fields a list screen shows).
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
  DeleteManyParams,
  DeleteParams,
  GetListParams,
  GetManyParams,
  GetManyReferenceParams,
  GetOneParams,
  Identifier,
  UpdateManyParams,
  UpdateParams,
} from 'ra-core';
import { toBuilder, toQueryString, type BuilderItem } from './builder.ts';
import type { HttpClient } from './http.ts';
import { MAX_PAGE_SIZE, type Paginated } from '../../common/page.ts';
import { setUser, type SessionUser } from './storage.ts';
import { changedFields } from './changes.ts';
import type {
  ExportJob,
  MeAnswer,
  ReadMeta,
  SearchGroup,
  ServiceDeskDataProvider,
  SystemStatus,
} from './types.ts';

export type {
  ExportJob,
  MeAnswer,
  PresetCountRequest,
  ReadMeta,
  SearchGroup,
  ServiceDeskDataProvider,
  SystemStatus,
} from './types.ts';

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
    const items = meta?.select?.length ? [...builder, { select: meta.select }] : builder;
    const path = withQuery(base, { builder: items, page, ...readQuery(meta) });
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
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
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
