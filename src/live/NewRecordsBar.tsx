/**
 * A list kept live (issue 19, item 4): a record of its resource that changed is read again in place
 * (the same page, filter and order: rows keep their place, the scroll and the selection stay); new
 * records are not pushed in under the user's eyes but counted, those the list's filter would show, and
 * a bar above the table offers them ('3 new tickets'), loading the list again when pressed.
 */
import { useEffect, useRef, useState } from 'react';
import { Box, Button } from '@mui/material';
import { useDataProvider, useLocaleState, useTranslate, type Identifier } from 'react-admin';
import type { Resource } from '../../common/schema/types.ts';
import { RAW_BUILDER_KEY } from '../dataProvider/builder.ts';
import { useLive } from './useLive.ts';

/** New records announced within this time are checked against the list's filter in one request. */
const CHECK_BATCH_MS = 200;

/** The list's filter (the data provider's convention) narrowed to the records `ids`. */
function amongIds(filter: Record<string, unknown>, ids: Identifier[]): Record<string, unknown> {
  const raw = Array.isArray(filter[RAW_BUILDER_KEY]) ? (filter[RAW_BUILDER_KEY] as unknown[]) : [];
  return { ...filter, [RAW_BUILDER_KEY]: [...raw, { whereIn: ['id', ids] }] };
}

/**
 * `filter` is what the list shows (its provider filter): a new record is counted only when it is one of
 * them, as the server decides (one request for the records announced together), so a filtered list
 * does not offer tickets it would not show. A check that fails counts them: better a refresh that shows
 * nothing new than a new record nobody is told of. A new filter shows the list afresh, and the count
 * starts again.
 */
export function useLiveList(resource: Resource, refetchQuietly: () => void, filter: Record<string, unknown>) {
  const dataProvider = useDataProvider();
  const filterKey = JSON.stringify(filter);
  const [counted, setCounted] = useState<{ filterKey: string; ids: ReadonlySet<string> }>({
    filterKey,
    ids: new Set(),
  });
  const current = useRef({ filter, filterKey });
  useEffect(() => {
    current.current = { filter, filterKey };
  });
  const pending = useRef<Identifier[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const add = (forKey: string, ids: Identifier[]) =>
    setCounted((before) => {
      const kept = before.filterKey === forKey ? [...before.ids] : [];
      return { filterKey: forKey, ids: new Set([...kept, ...ids.map(String)]) };
    });
  const check = async () => {
    const ids = pending.current;
    pending.current = [];
    const { filter: shown, filterKey: key } = current.current;
    try {
      const { data } = await dataProvider.getList(resource.name, {
        pagination: { page: 1, perPage: ids.length },
        sort: { field: 'id', order: 'ASC' },
        filter: amongIds(shown, ids),
        meta: { list: 'live-new' },
      });
      add(
        key,
        data.map((r) => r.id),
      );
    } catch {
      add(key, ids);
    }
  };

  useLive(({ event, data }) => {
    if (event !== 'record' || data?.resource !== resource.name) return;
    if (data.action !== 'created') return refetchQuietly();
    pending.current.push(data.id as Identifier);
    if (pending.current.length === 1) timer.current = setTimeout(() => void check(), CHECK_BATCH_MS);
  });
  return {
    fresh: counted.filterKey === filterKey ? counted.ids.size : 0,
    clear: () => setCounted({ filterKey, ids: new Set() }),
  };
}

export function NewRecordsBar({
  resource,
  count,
  onShow,
}: {
  resource: Resource;
  count: number;
  onShow: () => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const name = translate(`resources.${resource.name}.name`, { smart_count: count, _: resource.title });
  // German nouns keep their capital; Dutch and English ones are lower case inside a sentence.
  const shown = locale === 'de' ? name : name.toLocaleLowerCase(locale);
  return (
    <Box aria-live="polite" sx={{ display: 'flex', justifyContent: 'center', my: count > 0 ? 1 : 0 }}>
      {count > 0 && (
        <Button variant="contained" size="small" onClick={onShow} data-testid="new-records">
          {translate('live.new_records', { smart_count: count, name: shown })}
        </Button>
      )}
    </Box>
  );
}
