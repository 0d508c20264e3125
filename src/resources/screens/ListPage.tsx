import { useResourceContext } from 'react-admin';
import { registry } from '../../schema.ts';
import { ListScreen } from '../../custom/list/ListScreen.tsx';

/** The generic list screen for whichever resource route is showing. */
export default function ListPage() {
  const name = useResourceContext()!;
  return <ListScreen resource={registry.require(name)} />;
}
