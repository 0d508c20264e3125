import { useEffect, useState } from 'react';

export interface SystemStatus {
  setup_completed: boolean;
  trial_ends_in: number | null;
  tenant_name: string;
  tenant: string;
}

let pending: Promise<SystemStatus | undefined> | undefined;

/** GET /api/system/status, once per page load (no login needed). */
export function loadSystemStatus(): Promise<SystemStatus | undefined> {
  pending ??= fetch('/api/system/status', { headers: { accept: 'application/json' } })
    .then((res) => (res.ok ? (res.json() as Promise<SystemStatus>) : undefined))
    .catch(() => undefined);
  return pending;
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
