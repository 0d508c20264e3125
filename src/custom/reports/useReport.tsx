/**
 * A report's answer as the page loads it: the call at `path` (again when it changes, or on a retry),
 * and what to show meanwhile and when it failed. While a changed report loads, the last answer stays
 * (marked busy): the page keeps its place, and a control the user is in stays open.
 */
import { createContext, useEffect, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useDataProvider } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';

export interface ReportState<T> {
  /** The last answer: to the current path, or while that loads to the one before; none at first. */
  answer?: T;
  /** The current path's answer is still on its way. */
  loading: boolean;
  /** The current path's call failed. */
  failed: boolean;
  retry(): void;
}

export function useReport<T>(path: string, enabled = true): ReportState<T> {
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const [state, setState] = useState<{ path?: string; answer?: T; failedPath?: string }>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!enabled) return undefined;
    let current = true;
    dataProvider.call<T>('GET', path).then(
      (answer) => current && setState({ path, answer }),
      () => current && setState((shown) => ({ ...shown, failedPath: path })),
    );
    return () => {
      current = false;
    };
  }, [dataProvider, path, round, enabled]);
  const failed = state.failedPath === path;
  return {
    answer: state.answer,
    loading: state.path !== path && !failed,
    failed,
    retry: () => setRound((n) => n + 1),
  };
}

/**
 * Whether the answer shown is the one before the current settings' (still loading): its drill-downs
 * would open the new settings' tickets under the old counts, so they wait (parts.tsx, Count).
 */
export const AnswerStale = createContext(false);

/** The report once loaded (busy while a change loads); a placeholder of `height` before, or the failure. */
export function Loaded<T>({
  state,
  height,
  children,
}: {
  state: ReportState<T>;
  height: number;
  children: (answer: T) => ReactNode;
}) {
  if (state.failed) return <LoadFailed text="reports.failed" onRetry={state.retry} />;
  if (state.answer !== undefined)
    return (
      <Box sx={{ display: 'contents' }} aria-busy={state.loading || undefined}>
        <AnswerStale.Provider value={state.loading}>{children(state.answer)}</AnswerStale.Provider>
      </Box>
    );
  return (
    <Box aria-busy>
      <Skeleton variant="rectangular" height={height} />
    </Box>
  );
}
