import { useEffect, useState } from 'react';

export interface SystemStatus {
  setup_completed: boolean;
  trial_ends_in: number | null;
  tenant_name: string;
  tenant: string;
}

export type StatusAnswer =
  | { state: 'ok'; status: SystemStatus }
  | { state: 'not-found' }
  /** The call failed otherwise (network, 5xx): the guards that need the status are skipped. */
  | { state: 'failed' };

let statusCall: Promise<StatusAnswer> | undefined;

/**
 * GET /api/system/status once per page load (no login needed), keeping a 404 apart from other failures:
 * the portal's guards and the page title share this one call.
 */
export function loadStatusAnswer(): Promise<StatusAnswer> {
  statusCall ??= fetch('/api/system/status', { headers: { accept: 'application/json' } })
    .then(async (res): Promise<StatusAnswer> => {
      if (res.status === 404) return { state: 'not-found' };
      if (!res.ok) return { state: 'failed' };
      return { state: 'ok', status: (await res.json()) as SystemStatus };
    })
    .catch((): StatusAnswer => ({ state: 'failed' }));
  return statusCall;
}

/** The status, or undefined when the call failed. */
export function loadSystemStatus(): Promise<SystemStatus | undefined> {
  return loadStatusAnswer().then((answer) => (answer.state === 'ok' ? answer.status : undefined));
}

export function useSystemStatus(): SystemStatus | undefined {
  const [status, setStatus] = useState<SystemStatus | undefined>();
  useEffect(() => {
    let live = true;
    void loadSystemStatus().then((s) => live && setStatus(s));
    return () => {
      live = false;
    };
  }, []);
  return status;
}
