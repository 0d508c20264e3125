import { useEffect } from 'react';
import { useResourceContext } from 'react-admin';
import { registry } from '../../schema.ts';
import { ListScreen } from '../../custom/list/ListScreen.tsx';
import { useAppKind } from '../../custom/appKind.ts';
import { preloadDetail, screensOf } from './generic.ts';

/** The generic list screen for whichever resource route is showing. */
export default function ListPage() {
  const name = useResourceContext()!;
  const kind = useAppKind();
  const resource = registry.require(name);
  // A row opens its record next: its detail's code downloads while the user reads the list.
  useEffect(() => {
    if (screensOf(resource, kind, true).detail) preloadDetail(resource, kind);
  }, [resource, kind]);
  return <ListScreen resource={resource} />;
}
