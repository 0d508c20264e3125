/**
 * Keeps a list's layout per user and route (SPEC 4, ./persistence.ts): in localStorage under
 * `list:<userId>:<route>` and in the server's user configs as `list:<route>`. It watches the settings
 * the list controller shows, so a change from anywhere (a header control, a preset, react-admin's
 * `setSort` through the list context) is kept; filter and sort changes reach the server a second
 * after the last one.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useDataProvider, type Identifier } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import {
  saveLocal,
  serializeSettings,
  toConfig,
  type ListSettings,
  type SettingsSource,
} from './persistence.ts';
import { useDebounced } from './useDebounced.ts';

/** Filter and sort changes reach the server's copy this long after the last one. */
const SERVER_SAVE_DELAY_MS = 1000;

export interface ListPersistence {
  /** The user has a layout of their own (stored, or changed here): no default view replaces it. */
  hasOwnLayout: () => boolean;
  /** From now on the layout showing is the user's. */
  claimLayout: () => void;
  /** The next layout (the user's default view) shows without being kept. */
  showWithoutKeeping: (next: ListSettings) => void;
  /** Keeps `next` at once, in both places (the columns dialog's save); rejects when the server does. */
  saveNow: (next: ListSettings) => Promise<void>;
}

/** Storage, or nothing where the browser refuses it. */
function browserStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  try {
    if (typeof window !== 'undefined' && window.localStorage) return window.localStorage;
  } catch {
    // storage disabled
  }
  return { getItem: () => null, setItem: () => undefined };
}

export function useBrowserStorage() {
  return useMemo(() => browserStorage(), []);
}

const keyOf = (settings: ListSettings) => JSON.stringify(serializeSettings(settings));

export function useListPersistence(options: {
  storage: Pick<Storage, 'setItem'>;
  userId: Identifier;
  route: string;
  settings: ListSettings;
  source: SettingsSource;
}): ListPersistence {
  const { storage, userId, route, settings, source } = options;
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const key = keyOf(settings);
  /** `next`: a layout about to show that is not to be kept (again) when it does. */
  const state = useRef<{ seen: string; own: boolean; next?: string }>({
    seen: key,
    own: source !== 'default',
  });

  const saveServerLater = useDebounced((next: ListSettings) => {
    dataProvider.saveConfigs([toConfig(route, next)]).catch(() => {
      // The local copy holds it; the provider reports the failure.
    });
  }, SERVER_SAVE_DELAY_MS);

  useEffect(() => {
    const s = state.current;
    if (key === s.seen) return;
    s.seen = key;
    const announced = s.next === key;
    s.next = undefined;
    // A default view shows without becoming the user's; a layout saved at once is kept already.
    if (announced) return;
    s.own = true;
    saveLocal(storage, userId, route, settings);
    saveServerLater(settings);
  }, [key, settings, storage, userId, route, saveServerLater]);

  return {
    hasOwnLayout: () => state.current.own,
    claimLayout: () => {
      state.current.own = true;
    },
    showWithoutKeeping: (next) => {
      const nextKey = keyOf(next);
      if (nextKey !== state.current.seen) state.current.next = nextKey;
    },
    saveNow: async (next) => {
      const nextKey = keyOf(next);
      if (nextKey !== state.current.seen) state.current.next = nextKey;
      state.current.own = true;
      saveLocal(storage, userId, route, next);
      saveServerLater.cancel();
      await dataProvider.saveConfigs([toConfig(route, next)]);
    },
  };
}
