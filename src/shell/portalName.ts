import type { TranslateFunction } from 'react-admin';

/**
 * A resource's plural name as the portal says it: its x-i18n `portal_name` where clients have a word of
 * their own for what operators call otherwise (company memberships are a client's colleagues), else its
 * name (schemas/README.md, "Labels").
 */
export function portalName(translate: TranslateFunction, resource: string, count = 2): string {
  return translate(`resources.${resource}.portal_name`, {
    smart_count: count,
    _: translate(`resources.${resource}.name`, { smart_count: count, _: resource }),
  });
}
