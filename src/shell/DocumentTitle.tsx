import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useBasename, useTranslate } from 'react-admin';
import { useAppKind } from '../custom/appKind.ts';
import { useSystemStatus } from './systemStatus.ts';

/** SPEC 1: the page title is the section title plus the tenant name plus 'Portal' (in the portal). */
export function pageTitle(section: string, tenant: string | undefined, kind: 'portal' | 'backoffice', suffix: string): string {
  const site = [tenant, kind === 'portal' ? suffix : undefined].filter(Boolean).join(' ');
  return site ? `${section} - ${site}` : section;
}

/** Sets document.title from the current section; a detail screen sets its own with useRecordTitle. */
export function DocumentTitle({ section }: { section?: string }) {
  const location = useLocation();
  const basename = useBasename();
  const translate = useTranslate();
  const status = useSystemStatus();
  const kind = useAppKind();
  useEffect(() => {
    const path = location.pathname.slice(basename.length).replace(/^\/+/, '');
    const resource = path.split('/')[0];
    const name = section ?? (resource ? translate(`resources.${resource}.name`, { smart_count: 2, _: resource }) : '');
    if (!name) return;
    document.title = pageTitle(name, status?.tenant_name, kind, translate('app.portal', { _: 'Portal' }));
  }, [location.pathname, basename, translate, status, kind, section]);
  return null;
}
