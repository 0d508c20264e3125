/**
 * The icons schemas may name (x-icon of a resource, `icon` of an x-tabs entry): MUI icon names, each
 * imported here once so the bundle holds only these. Any other icon a schema gives as its SVG path (the
 * `d` of a 24×24 Material icon's paths, issue 34): drawn from that, with no TypeScript edit and no
 * other icon in the bundle. Anything else shows the generic list icon.
 */
import { createElement, type ComponentType } from 'react';
import { createSvgIcon } from '@mui/material/utils';
import AccountTree from '@mui/icons-material/AccountTree';
import Autorenew from '@mui/icons-material/Autorenew';
import Business from '@mui/icons-material/Business';
import Checklist from '@mui/icons-material/Checklist';
import ConfirmationNumber from '@mui/icons-material/ConfirmationNumber';
import CreditCard from '@mui/icons-material/CreditCard';
import Description from '@mui/icons-material/Description';
import Devices from '@mui/icons-material/Devices';
import EventRepeat from '@mui/icons-material/EventRepeat';
import Forum from '@mui/icons-material/Forum';
import Groups from '@mui/icons-material/Groups';
import Handshake from '@mui/icons-material/Handshake';
import History from '@mui/icons-material/History';
import Inventory from '@mui/icons-material/Inventory';
import Link from '@mui/icons-material/Link';
import ListAlt from '@mui/icons-material/ListAlt';
import MarkEmailRead from '@mui/icons-material/MarkEmailRead';
import People from '@mui/icons-material/People';
import Receipt from '@mui/icons-material/Receipt';
import RequestQuote from '@mui/icons-material/RequestQuote';
import Schedule from '@mui/icons-material/Schedule';
import SupportAgent from '@mui/icons-material/SupportAgent';
import Timer from '@mui/icons-material/Timer';
import Unsubscribe from '@mui/icons-material/Unsubscribe';
import Workspaces from '@mui/icons-material/Workspaces';

export const ICONS: Readonly<Record<string, ComponentType>> = {
  AccountTree,
  Autorenew,
  Business,
  Checklist,
  ConfirmationNumber,
  CreditCard,
  Description,
  Devices,
  EventRepeat,
  Forum,
  Groups,
  Handshake,
  History,
  Inventory,
  Link,
  ListAlt,
  MarkEmailRead,
  People,
  Receipt,
  RequestQuote,
  Schedule,
  SupportAgent,
  Timer,
  Unsubscribe,
  Workspaces,
};

/** An SVG path's data: moves, lines, curves and arcs, starting with a move. */
const SVG_PATH = /^[Mm][\d\s.,eE+\-MmLlHhVvCcSsQqTtAaZz]*$/;

/** The icons drawn from schemas' paths, one component per path (a stable type for React). */
const drawn = new Map<string, ComponentType>();

function fromPath(d: string): ComponentType {
  let icon = drawn.get(d);
  if (!icon) drawn.set(d, (icon = createSvgIcon(createElement('path', { d }), 'SchemaIcon')));
  return icon;
}

/** The icon a schema names or draws; the generic list icon for none or an unknown name. */
export function iconNamed(name: string | undefined): ComponentType {
  if (name === undefined) return ListAlt;
  if (Object.hasOwn(ICONS, name)) return ICONS[name]!;
  // A path has numbers; an icon name (Mms) never.
  return SVG_PATH.test(name) && /\d/.test(name) ? fromPath(name) : ListAlt;
}
