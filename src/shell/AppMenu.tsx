/**
 * The apps' side menu. The portal lists its resources as registered (x-menu order), each by its name in
 * the portal (x-i18n `portal_name` where clients have a word of their own), then its service overview; the back office shows its resources in the groups of their x-menu (daily work, sales and billing, settings), each a
 * labelled ARIA group, after its dashboard, and adds its exports page. A group the user may open nothing of is left out.
 */
import { useId } from 'react';
import { Box, Divider, Typography } from '@mui/material';
import {
  Menu,
  useLocaleState,
  usePermissions,
  useResourceDefinitions,
  useSidebarState,
  useTranslate,
} from 'react-admin';
import { permissionName } from '../authProvider/index.ts';
import { useAppKind } from '../custom/appKind.ts';
import { ExportsMenuItem } from '../custom/exports/routes.tsx';
import { ReportsMenuItem } from '../custom/reports/routes.tsx';
import { ServiceOverviewMenuItem } from '../custom/service-overview/routes.tsx';
import { DashboardMenuItem } from '../custom/dashboard/routes.tsx';
import { menuSections, type MenuSection } from '../resources/menus.ts';
import type { Resource } from '../../common/schema/types.ts';
import { registry } from '../schema.ts';
import { portalName } from './portalName.ts';

function MenuGroup({ section, names }: { section: MenuSection; names: string[] }) {
  const translate = useTranslate();
  const [open] = useSidebarState();
  const id = useId();
  return (
    <Box role="group" aria-labelledby={id}>
      {/* Folded to icons, the sidebar has no room for a heading: a line parts the groups instead. */}
      {open ? (
        <Typography
          id={id}
          variant="overline"
          component="div"
          sx={{ px: 2, pt: 1.5, lineHeight: 2, color: 'text.secondary', display: 'block' }}
        >
          {translate(`app.menu.groups.${section.group}`)}
        </Typography>
      ) : (
        <Divider id={id} aria-label={translate(`app.menu.groups.${section.group}`)} sx={{ my: 0.5 }} />
      )}
      {names.map((name) => (
        <Menu.ResourceItem key={name} name={name} />
      ))}
    </Box>
  );
}

export function AppMenu() {
  const kind = useAppKind();
  const resources = useResourceDefinitions();
  const { permissions } = usePermissions<string[]>();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (kind === 'portal') {
    return (
      <Menu>
        {Object.keys(resources)
          .filter((name) => resources[name]?.hasList)
          .map((name) => (
            <Menu.ResourceItem key={name} name={name} primaryText={portalName(translate, name)} />
          ))}
        <ServiceOverviewMenuItem />
      </Menu>
    );
  }
  const mayList = (name: string) =>
    Array.isArray(permissions) && permissions.includes(permissionName('backoffice', name, 'list'));
  // Entries without an x-menu order (most settings) follow in the alphabetical order of their names
  // as the user reads them, not of their file names.
  const plural = (r: Resource) => translate(`resources.${r.name}.name`, { smart_count: 2 });
  const inReadingOrder = (a: Resource, b: Resource) => {
    const [first, second] = [a, b].map((r) => r.menu.backoffice?.order ?? Number.POSITIVE_INFINITY);
    return first !== second ? first! - second! : plural(a).localeCompare(plural(b), locale);
  };
  return (
    <Menu>
      <DashboardMenuItem />
      <ReportsMenuItem />
      {menuSections(registry, kind).map((section) => {
        const names = [...section.resources]
          .sort(inReadingOrder)
          .map((r) => r.name)
          .filter((name) => resources[name]?.hasList && mayList(name));
        return names.length === 0 ? null : <MenuGroup key={section.group} section={section} names={names} />;
      })}
      <ExportsMenuItem />
    </Menu>
  );
}
