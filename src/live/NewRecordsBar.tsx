/**
 * A list kept live (issue 19, item 4): a record of its resource that changed is read again in place
 * (the same page, filter and order: rows keep their place, the scroll and the selection stay); new
 * records are not pushed in under the user's eyes but counted, and a bar above the table offers them
 * ('3 new tickets'), loading the list again when pressed.
 */
import { useState } from 'react';
import { Box, Button } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import type { Resource } from '../../common/schema/types.ts';
import { useLive } from './useLive.ts';

export function useLiveList(resource: Resource, refetchQuietly: () => void) {
  const [fresh, setFresh] = useState(0);
  useLive(({ event, data }) => {
    if (event !== 'record' || data?.resource !== resource.name) return;
    if (data.action === 'created') setFresh((n) => n + 1);
    else refetchQuietly();
  });
  return { fresh, clear: () => setFresh(0) };
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
