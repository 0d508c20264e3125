import type { ComponentType } from 'react';
import ConfirmationNumber from '@mui/icons-material/ConfirmationNumber';
import RequestQuote from '@mui/icons-material/RequestQuote';
import Autorenew from '@mui/icons-material/Autorenew';
import Devices from '@mui/icons-material/Devices';
import Description from '@mui/icons-material/Description';
import Receipt from '@mui/icons-material/Receipt';
import Business from '@mui/icons-material/Business';
import People from '@mui/icons-material/People';
import SupportAgent from '@mui/icons-material/SupportAgent';
import Schedule from '@mui/icons-material/Schedule';
import Handshake from '@mui/icons-material/Handshake';
import AccountTree from '@mui/icons-material/AccountTree';
import Timer from '@mui/icons-material/Timer';
import CreditCard from '@mui/icons-material/CreditCard';
import Inventory from '@mui/icons-material/Inventory';
import Forum from '@mui/icons-material/Forum';
import Workspaces from '@mui/icons-material/Workspaces';
import ListAlt from '@mui/icons-material/ListAlt';
import LinkIcon from '@mui/icons-material/Link';

/** Menu and tab icons of the main object types; named lists and settings share one. */
const ICONS: Record<string, ComponentType> = {
  tickets: ConfirmationNumber,
  'ticket-templates': ConfirmationNumber,
  'ticket-groups': Workspaces,
  quotes: RequestQuote,
  subscriptions: Autorenew,
  assets: Devices,
  contracts: Description,
  invoices: Receipt,
  companies: Business,
  clients: People,
  operators: SupportAgent,
  'time-registrations': Schedule,
  deals: Handshake,
  projects: AccountTree,
  slas: Timer,
  'prepaid-cards': CreditCard,
  products: Inventory,
  messages: Forum,
  /** Tabs of related records of the same kind (x-tabs icon 'link'). */
  link: LinkIcon,
};

export function resourceIcon(name: string): ComponentType {
  return ICONS[name] ?? ListAlt;
}
