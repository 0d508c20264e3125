import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useBasename, useTranslate } from 'react-admin';
import { useAppKind } from '../custom/appKind.ts';
import { useSystemStatus } from './systemStatus.ts';
import { portalName } from './portalName.ts';

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
    const name =
      section ??
      (!resource
        ? ''
        : kind === 'portal'
          ? portalName(translate, resource)
          : translate(`resources.${resource}.name`, { smart_count: 2, _: resource }));
    if (!name) return;
    // SPEC 1: the section title plus the tenant name plus 'Portal' (in the portal).
    const key = kind === 'portal' ? 'app.title.portal' : 'app.title.back_office';
    document.title = status ? translate(key, { section: name, tenant: status.tenant_name }) : name;
  }, [location.pathname, basename, translate, status, kind, section]);
  return null;
}
