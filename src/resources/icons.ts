/**
 * The icons schemas may name (x-icon of a resource, `icon` of an x-tabs entry): MUI icon names, each
 * imported here once so the bundle holds only these. A name not in the table shows the generic list icon.
 */
import type { ComponentType } from 'react';
import AccountTree from '@mui/icons-material/AccountTree';
import Autorenew from '@mui/icons-material/Autorenew';
import Business from '@mui/icons-material/Business';
import ConfirmationNumber from '@mui/icons-material/ConfirmationNumber';
import CreditCard from '@mui/icons-material/CreditCard';
import Description from '@mui/icons-material/Description';
import Devices from '@mui/icons-material/Devices';
import Forum from '@mui/icons-material/Forum';
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
  ConfirmationNumber,
  CreditCard,
  Description,
  Devices,
  Forum,
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

/** The icon a schema names; the generic list icon for none or an unknown name. */
export function iconNamed(name: string | undefined): ComponentType {
  return (name !== undefined && Object.hasOwn(ICONS, name) ? ICONS[name] : undefined) ?? ListAlt;
}
