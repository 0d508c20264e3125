/**
 * react-admin's ShowBase with SPEC 8's answers to a failed load, for every detail screen: a 404 (or a
 * 403: a record this caller may not see) goes back to the list without a toast; any other failure
 * (a 5xx, no answer) says so once in a toast and shows an error state with a retry button where the
 * record would be. react-admin's own default says 'Item bestaat niet' and leaves for every failure.
 */
import type { ReactNode } from 'react';
import { ShowBase, useRedirect, useResourceContext, useShowContext, useTranslate } from 'react-admin';
import { isAbort, isNotThere, useNotifyError } from '../../shell/errors.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';

/** The record's screen, or the error state when it could not be loaded. */
function LoadGate({ children }: { children: ReactNode }) {
  const { record, error, isFetching, refetch, resource } = useShowContext();
  const translate = useTranslate();
  if (error && !record && !isAbort(error) && !isNotThere(error) && !isFetching) {
    return (
      <LoadFailed
        heading={translate(`resources.${resource}.name`, { smart_count: 1, _: resource })}
        text="app.errors.record_failed"
        onRetry={() => void refetch()}
      />
    );
  }
  return <>{children}</>;
}

export function ShowRecord({
  resource,
  meta,
  children,
}: {
  /** Default: the route's resource. */
  resource?: string;
  meta?: Record<string, unknown>;
  children: ReactNode;
}) {
  const notifyError = useNotifyError();
  const redirect = useRedirect();
  const name = useResourceContext({ resource });
  return (
    <ShowBase
      resource={resource}
      queryOptions={{
        meta,
        onError: (error: unknown) => {
          if (isAbort(error)) return;
          if (isNotThere(error)) {
            redirect('list', name);
            return;
          }
          notifyError(error);
        },
      }}
    >
      <LoadGate>{children}</LoadGate>
    </ShowBase>
  );
}
