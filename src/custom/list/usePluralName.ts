import { useTranslate } from 'react-admin';
import type { Resource } from '../../../common/schema/types.ts';

/** The resource's name in the plural, in the user's language: the list's heading. */
export function usePluralName(resource: Resource) {
  const translate = useTranslate();
  return translate(`resources.${resource.name}.name`, { smart_count: 2, _: resource.title });
}
