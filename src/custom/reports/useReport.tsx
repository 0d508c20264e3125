/**
 * A report's answer as the page loads it: the call at `path` (again when it changes, or on a retry),
 * and what to show meanwhile and when it failed.
 */
import { useEffect, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useDataProvider } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';

export interface ReportState<T> {
  /** The answer to the current path; undefined while it loads. */
  answer?: T;
  failed: boolean;
  retry(): void;
}

export function useReport<T>(path: string, enabled = true): ReportState<T> {
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const [state, setState] = useState<{ path?: string; answer?: T; failed?: boolean }>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!enabled) return undefined;
    let current = true;
    dataProvider.call<T>('GET', path).then(
      (answer) => current && setState({ path, answer }),
      () => current && setState((shown) => ({ ...shown, failed: true })),
    );
    return () => {
      current = false;
    };
  }, [dataProvider, path, round, enabled]);
  return {
    answer: state.path === path ? state.answer : undefined,
    failed: !!state.failed,
    retry: () => setRound((n) => n + 1),
  };
}

/** The report once loaded; a placeholder of `height` until then, or the failure with a retry. */
export function Loaded<T>({
  state,
  height,
  children,
}: {
  state: ReportState<T>;
  height: number;
  children: (answer: T) => ReactNode;
}) {
  if (state.answer !== undefined) return <>{children(state.answer)}</>;
  if (state.failed) return <LoadFailed text="reports.failed" onRetry={state.retry} />;
  return (
    <Box aria-busy>
      <Skeleton variant="rectangular" height={height} />
    </Box>
  );
}
