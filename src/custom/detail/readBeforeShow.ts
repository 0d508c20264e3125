/**
 * Reads a detail screen's figures before it shows (useSuspenseQueries with these options): the detail's
 * one Suspense boundary (DetailScreen) waits for them, so the header's chips and the card's custom fields
 * arrive with the rest instead of pushing the tab bar down a moment later, under a pointer that aims at a
 * tab.
 *
 * A read never holds the detail back by failing. One that is refused (403, 404: not there for this
 * caller) answers null and the figure is left out, as SPEC 8 wants no toast for those. Any other failure
 * (a 5xx, no answer) shows its toast, as every failed call does (SPEC 8), and answers READ_FAILED: the
 * figure's place says it could not be loaded, with a retry (LoadFailed, compact).
 *
 * The keys start with the resource, as react-admin's own, so its refreshes after a change of that
 * resource reach them; their second part is their own, so they never share an entry (whose value has
 * another shape) with react-admin's useGetList of the same parameters.
 */
import { useDataProvider, type GetListParams, type GetOneParams, type RaRecord } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { isNotThere, useNotifyError } from '../../shell/errors.ts';

const TAG = {
  one: 'readBeforeShow:getOne',
  list: 'readBeforeShow:getList',
  call: 'readBeforeShow:call',
} as const;

/** What a read answers that failed for another reason than not being there (see above). */
export const READ_FAILED = 'read-failed';
export type ReadFailed = typeof READ_FAILED;

/** Whether any of these answers is a failed read. */
export const anyFailed = (...answers: unknown[]) => answers.some((a) => a === READ_FAILED);

export function useReadBeforeShow() {
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const notifyError = useNotifyError();
  const failed = (error: unknown): null | ReadFailed => {
    notifyError(error);
    return isNotThere(error) ? null : READ_FAILED;
  };
  return {
    /** One record; null when it is not there for the caller (or `allowed` is false: no request). */
    one: (resource: string, params: GetOneParams, allowed = true) => ({
      queryKey: [resource, TAG.one, { ...params, id: String(params.id), allowed }],
      queryFn: (): Promise<RaRecord | null | ReadFailed> | null =>
        allowed ? dataProvider.getOne(resource, params).then(({ data }) => data, failed) : null,
    }),
    /** A page of records; null when they are not there for the caller (or `allowed` is false). */
    list: (resource: string, params: GetListParams, allowed = true) => ({
      queryKey: [resource, TAG.list, { ...params, allowed }],
      queryFn: (): Promise<RaRecord[] | null | ReadFailed> | null =>
        allowed ? dataProvider.getList(resource, params).then(({ data }) => data, failed) : null,
    }),
    /**
     * A record's own call (`GET /api/{path}`, e.g. `tickets/5/sla`), keyed under `resource` so that its
     * refreshes reach it; null when it is not there for the caller (or `allowed` is false).
     */
    call: <T>(resource: string, path: string, allowed = true) => ({
      queryKey: [resource, TAG.call, { path, allowed }],
      queryFn: (): Promise<T | null | ReadFailed> | null =>
        allowed ? dataProvider.call<T>('GET', path).then((answer) => answer, failed) : null,
    }),
  };
}
