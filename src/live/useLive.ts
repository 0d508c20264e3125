/**
 * The live events as React sees them: `useLiveEvents` (mounted once, in the app bar of a signed-in
 * user) reads the stream; `useLive` lets a screen hear it.
 */
import { useEffect, useRef } from 'react';
import { useDataProvider } from 'react-admin';
import type { ServiceDeskDataProvider } from '../dataProvider/index.ts';
import { APP_PORTAL_TOKEN, getItem } from '../dataProvider/storage.ts';
import { onLive, startLiveEvents, type LiveMessage } from './events.ts';

export function useLiveEvents(enabled: boolean): void {
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  useEffect(() => {
    if (!enabled) return;
    return startLiveEvents({
      token: () => getItem(APP_PORTAL_TOKEN) ?? undefined,
      // Any call refreshes an expired token (the HTTP client does it on a 401); the user's own is cheapest.
      refresh: () => dataProvider.me(),
    });
  }, [enabled, dataProvider]);
}

/** Calls `listener` with every live event while the calling screen is shown. */
export function useLive(listener: (message: LiveMessage) => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onLive((message) => latest.current(message)), []);
}
