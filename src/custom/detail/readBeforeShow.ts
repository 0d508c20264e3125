/**
 * Reads a detail screen's figures before it shows (useSuspenseQueries with these options): the detail's
 * one Suspense boundary (DetailScreen) waits for them, so the header's chips and the card's custom fields
 * arrive with the rest instead of pushing the tab bar down a moment later, under a pointer that aims at a
 * tab. A read that fails answers null: the figure is left out and the detail still shows.
 *
 * The keys start with the resource, as react-admin's own, so its refreshes after a change of that
 * resource reach them; their second part is their own, so they never share an entry (whose value has
 * another shape) with react-admin's useGetList of the same parameters.
 */
import type { DataProvider, GetListParams, GetOneParams, RaRecord } from 'react-admin';

const TAG = { one: 'readBeforeShow:getOne', list: 'readBeforeShow:getList' } as const;

/** One record, or null when it cannot be read (or `allowed` is false: no request). */
export function oneBeforeShow(
  dataProvider: DataProvider,
  resource: string,
  params: GetOneParams,
  allowed = true,
) {
  return {
    queryKey: [resource, TAG.one, { ...params, id: String(params.id), allowed }],
    queryFn: (): Promise<RaRecord | null> | null =>
      allowed
        ? dataProvider.getOne(resource, params).then(
            ({ data }) => data,
            () => null,
          )
        : null,
  };
}

/** A page of records, or null when they cannot be read (or `allowed` is false: no request). */
export function listBeforeShow(
  dataProvider: DataProvider,
  resource: string,
  params: GetListParams,
  allowed = true,
) {
  return {
    queryKey: [resource, TAG.list, { ...params, allowed }],
    queryFn: (): Promise<RaRecord[] | null> | null =>
      allowed
        ? dataProvider.getList(resource, params).then(
            ({ data }) => data,
            () => null,
          )
        : null,
  };
}
