import type { Db } from '../database.ts';
import type { Registry } from '../../schema/registry.ts';
import { syncPermissions } from './permissions.ts';
import type { FileStore } from '../../files/store.ts';
import { demoFile } from './demo-files.ts';
import { withTranslations } from './translations.ts';
import { messageText } from '../../html/sanitize.ts';

/*
 * The demo data of DESIGN.md section 9: tenant "Acme IT" with two operators and two clients, each client
 * with a company that has tickets in every status with message threads, assets, a contract with hours
 * per period and a prepaid contract, subscriptions, quotes in every status, invoices in every status and
 * time registrations. Nothing of one client's company points at the other's.
 *
 * Deterministic: the only randomness is a seeded generator; dates are relative to `now` (whole days).
 */

export interface DemoOptions {
  /** The hash of the demo password, stored for every demo account. */
  passwordHash: string;
  /** Dates are relative to this moment; default the current time. */
  now?: Date;
  /** Where the attachments' files are written; without it the rows point at no file. */
  files?: FileStore;
}

type Row = Record<string, unknown>;

const DAY = 86_400_000;

/** mulberry32: a small seeded generator, so the demo is the same on every run. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const at = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
const round2 = (n: number) => Math.round(n * 100) / 100;
const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const json = (value: unknown) => JSON.stringify(value);

async function insert(db: Db, table: string, rows: Row[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const result = await db.insertInto(table).values(rows).returning('id').execute();
  return result.map((r) => Number(r.id));
}

async function insertOne(db: Db, table: string, row: Row): Promise<number> {
  return (await insert(db, table, [row]))[0]!;
}

// ---------------------------------------------------------------------------------------------------
// The tenant's named lists

/** The tenant's settings: a first-line operator reads them, only second line changes them (issue 6). */
export const TENANT_SETTINGS = [
  'activities',
  'asset-categories',
  'asset-statuses',
  'business-hour-contracts',
  'categories',
  'config',
  'contract-periods',
  'countries',
  'custom-fields',
  'invoice-statuses',
  'operators',
  'permissions',
  'prepaid-cards',
  'priorities',
  'products',
  'roles',
  'services',
  'slas',
  'ticket-sources',
  'ticket-statuses',
  'ticket-types',
];

const TICKET_STATUSES = [
  { name: 'Nieuw', name_client: 'Ontvangen', style: 'info', style_client: 'info', internal_type: 1 },
  {
    name: 'In behandeling',
    name_client: 'In behandeling',
    style: 'primary',
    style_client: 'primary',
    internal_type: 1,
  },
  {
    name: 'Wacht op klant',
    name_client: 'Wacht op uw reactie',
    style: 'warning',
    style_client: 'warning',
    internal_type: 4,
  },
  {
    name: 'Reactie ontvangen',
    name_client: 'Reactie ontvangen',
    style: 'secondary',
    style_client: 'primary',
    internal_type: 5,
  },
  { name: 'Ingepland', name_client: 'Ingepland', style: 'info', style_client: 'info', internal_type: 6 },
  { name: 'Opgelost', name_client: 'Opgelost', style: 'success', style_client: 'success', internal_type: 2 },
  {
    name: 'Gearchiveerd',
    name_client: 'Gearchiveerd',
    style: 'default',
    style_client: 'default',
    internal_type: 3,
  },
];

const PRIORITIES = [
  { label: 'Laag', style: 'default' },
  { label: 'Normaal', style: 'info' },
  { label: 'Hoog', style: 'warning' },
  { label: 'Kritiek', style: 'error' },
];

const ASSET_STATUSES = [
  { name: 'Offerte', internal_type: 1, style: 'default' },
  { name: 'Besteld', internal_type: 2, style: 'info' },
  { name: 'Op voorraad', internal_type: 3, style: 'secondary' },
  { name: 'In gebruik', internal_type: 4, style: 'success' },
  { name: 'Buiten gebruik', internal_type: 5, style: 'error' },
];

const ASSET_CATEGORIES = ['Laptop', 'Desktop', 'Printer', 'Netwerkapparatuur', 'Server', 'Telefoon'];
const CATEGORIES = ['Werkplekken', 'Netwerk', 'Microsoft 365', 'Printers', 'Telefonie', 'Beveiliging'];
const TICKET_TYPES = ['Incident', 'Serviceverzoek', 'Wijziging', 'Vraag'];
const TICKET_SOURCES = ['E-mail', 'Telefoon', 'Portal', 'Monitoring'];

const TICKET_SUBJECTS: [description: string, category: string][] = [
  ['Outlook synchroniseert niet meer met de gedeelde agenda', 'Microsoft 365'],
  ['Printer op de eerste verdieping drukt niet af', 'Printers'],
  ['Nieuwe medewerker: account en laptop klaarzetten', 'Werkplekken'],
  ['VPN-verbinding valt steeds weg bij thuiswerken', 'Netwerk'],
  ['Laptop start niet meer op na update', 'Werkplekken'],
  ['Wachtwoord verlopen, kan niet meer inloggen', 'Microsoft 365'],
  ['Geen geluid tijdens Teams-vergaderingen', 'Microsoft 365'],
  ['Wifi erg traag in de vergaderruimte', 'Netwerk'],
  ['Licentie Adobe Acrobat verlengen', 'Werkplekken'],
  ['Melding: back-up van vannacht is mislukt', 'Beveiliging'],
  ['Vaste telefoon doorschakelen naar mobiel', 'Telefonie'],
  ['Toegang tot gedeelde mailbox info@ aanvragen', 'Microsoft 365'],
  ['Verdachte e-mail ontvangen met bijlage', 'Beveiliging'],
  ['Scannen naar e-mail werkt niet', 'Printers'],
  ['Tweede beeldscherm wordt niet herkend', 'Werkplekken'],
  ['OneDrive blijft hangen op "bestanden verwerken"', 'Microsoft 365'],
  ['Netwerkkabel in spreekkamer 2 defect', 'Netwerk'],
  ['Voicemail instellen voor de receptie', 'Telefonie'],
  ['Multifactor-authenticatie op nieuwe telefoon zetten', 'Beveiliging'],
  ['Excel crasht bij openen van grote bestanden', 'Microsoft 365'],
  ['Toner bestellen voor de multifunctional', 'Printers'],
  ['Medewerker uit dienst: accounts blokkeren', 'Werkplekken'],
  ['Firewall-regel voor leverancierportaal openzetten', 'Netwerk'],
  ['Updates Windows 11 uitrollen op alle werkplekken', 'Werkplekken'],
];

const STAGES = [null, 'Intake', 'Analyse', 'Uitvoering', 'Controle'];

const OPERATOR_REPLIES = [
  'Ik heb op afstand meegekeken en het probleem is verholpen. Wil je even laten weten of alles weer werkt?',
  'We hebben de oorzaak gevonden. Morgenochtend komt een collega langs om het op te lossen.',
  'Kun je een schermafbeelding sturen van de foutmelding? Dan kijken we direct verder.',
  'De instellingen zijn aangepast. Na een herstart van de computer zou het moeten werken.',
  'Het onderdeel is besteld en wordt naar verwachting binnen twee werkdagen geleverd.',
];
const CLIENT_FOLLOW_UPS = [
  'Dank je, het werkt weer!',
  'Helaas doet het probleem zich nog steeds voor.',
  'Bijgaand de schermafbeelding van de melding.',
  'Morgen na 10:00 uur komt goed uit.',
];
const INTERNAL_NOTES = [
  'Interne notitie: zelfde melding vorige maand bij deze klant, mogelijk hardwareprobleem.',
  'Interne notitie: afgestemd met tweede lijn, oplossing via groepsbeleid.',
  'Interne notitie: garantie nagevraagd bij leverancier, RMA aangevraagd.',
];

// ---------------------------------------------------------------------------------------------------
// The two client companies

interface AssetPlan {
  name: string;
  category: string;
  status: string;
  location: string;
  /** Index into the company's clients, or null. */
  client: number | null;
  warrantyDays: number | null;
}

interface CompanyPlan {
  name: string;
  address: string;
  postalCode: string;
  city: string;
  sla: string;
  domain: string;
  clients: { first: string; last: string; email: string; login: boolean; phone: string }[];
  tickets: number;
  assets: AssetPlan[];
  contract: { name: string; period: 'month' | 'quarter'; hours: number; periods: number };
  prepaid: { name: string; hours: number };
  workplaces: number;
  groups: { name: string; archived: boolean }[];
  quotes: { name: string; status: 1 | 2 | 3 | 4; products: [code: string, quantity: number][] }[];
  deals: string[];
  projects: string[];
}

const COMPANIES: CompanyPlan[] = [
  {
    name: 'Jansen BV',
    address: 'Keizersgracht 123',
    postalCode: '1015 CJ',
    city: 'Amsterdam',
    sla: 'Premium',
    domain: 'jansenbv.nl',
    clients: [
      { first: 'Pieter', last: 'Jansen', email: 'client@example.com', login: true, phone: '020 123 4567' },
      { first: 'Lotte', last: 'Smit', email: 'lotte.smit@jansenbv.nl', login: false, phone: '020 123 4568' },
    ],
    tickets: 64,
    assets: [
      {
        name: 'Laptop Pieter Jansen',
        category: 'Laptop',
        status: 'In gebruik',
        location: 'Kantoor',
        client: 0,
        warrantyDays: 420,
      },
      {
        name: 'Laptop Lotte Smit',
        category: 'Laptop',
        status: 'In gebruik',
        location: 'Kantoor',
        client: 1,
        warrantyDays: 200,
      },
      {
        name: 'Laptop reserve',
        category: 'Laptop',
        status: 'Op voorraad',
        location: 'Magazijn',
        client: null,
        warrantyDays: 600,
      },
      {
        name: 'Desktop receptie',
        category: 'Desktop',
        status: 'In gebruik',
        location: 'Kantoor',
        client: null,
        warrantyDays: -30,
      },
      {
        name: 'Multifunctional HP LaserJet M480',
        category: 'Printer',
        status: 'In gebruik',
        location: 'Kantoor',
        client: null,
        warrantyDays: -200,
      },
      {
        name: 'Switch kantoor 24 poorten',
        category: 'Netwerkapparatuur',
        status: 'In gebruik',
        location: 'Serverruimte',
        client: null,
        warrantyDays: 900,
      },
      {
        name: 'Firewall FortiGate 60F',
        category: 'Netwerkapparatuur',
        status: 'In gebruik',
        location: 'Serverruimte',
        client: null,
        warrantyDays: 25,
      },
      {
        name: 'Server HPE ProLiant DL20',
        category: 'Server',
        status: 'Buiten gebruik',
        location: 'Serverruimte',
        client: null,
        warrantyDays: -400,
      },
      {
        name: 'iPhone 15 Pieter Jansen',
        category: 'Telefoon',
        status: 'Besteld',
        location: 'Kantoor',
        client: 0,
        warrantyDays: null,
      },
      {
        name: 'Laptop nieuwe medewerker',
        category: 'Laptop',
        status: 'Offerte',
        location: 'Kantoor',
        client: null,
        warrantyDays: null,
      },
    ],
    contract: { name: 'Servicecontract Jansen BV', period: 'month', hours: 16, periods: 4 },
    prepaid: { name: 'Strippenkaart Jansen BV', hours: 10 },
    workplaces: 12,
    groups: [
      { name: 'Migratie naar Microsoft 365', archived: false },
      { name: 'Verhuizing naar nieuw kantoor', archived: true },
    ],
    quotes: [
      {
        name: 'Offerte vervanging laptops',
        status: 1,
        products: [
          ['HW-LAP-14', 3],
          ['ARB-UUR', 4],
        ],
      },
      {
        name: 'Offerte netwerkuitbreiding',
        status: 2,
        products: [
          ['HW-SW-24', 1],
          ['HW-AP-WIFI6', 3],
          ['ARB-UUR', 6],
        ],
      },
      {
        name: 'Offerte Microsoft 365 migratie',
        status: 3,
        products: [
          ['LIC-M365-BP', 12],
          ['ARB-UUR', 16],
        ],
      },
      {
        name: 'Offerte nieuwe multifunctional',
        status: 4,
        products: [
          ['HW-MFP-A4', 1],
          ['ARB-UUR', 2],
        ],
      },
      {
        name: 'Offerte uitbreiding back-up',
        status: 2,
        products: [
          ['SRV-BACKUP-500', 1],
          ['ARB-UUR', 1],
        ],
      },
    ],
    deals: ['Vervanging werkplekken 2027', 'Netwerk en Microsoft 365'],
    projects: ['Migratie naar Microsoft 365', 'Netwerkuitbreiding kantoor'],
  },
  {
    name: 'De Vries Installaties',
    address: 'Oudegracht 45',
    postalCode: '3511 AB',
    city: 'Utrecht',
    sla: 'Standaard',
    domain: 'devries-installaties.nl',
    clients: [
      { first: 'Eva', last: 'de Vries', email: 'other@example.com', login: true, phone: '030 987 6543' },
      {
        first: 'Kees',
        last: 'de Vries',
        email: 'kees@devries-installaties.nl',
        login: false,
        phone: '06 1234 5678',
      },
    ],
    tickets: 24,
    assets: [
      {
        name: 'Laptop Eva de Vries',
        category: 'Laptop',
        status: 'In gebruik',
        location: 'Kantoor',
        client: 0,
        warrantyDays: 300,
      },
      {
        name: 'Laptop Kees de Vries',
        category: 'Laptop',
        status: 'In gebruik',
        location: 'Thuiswerkplek',
        client: 1,
        warrantyDays: -10,
      },
      {
        name: 'Tablet werkplaats',
        category: 'Telefoon',
        status: 'Op voorraad',
        location: 'Magazijn',
        client: null,
        warrantyDays: 500,
      },
      {
        name: 'Printer werkplaats',
        category: 'Printer',
        status: 'Buiten gebruik',
        location: 'Magazijn',
        client: null,
        warrantyDays: -700,
      },
      {
        name: 'NAS Synology DS923+',
        category: 'Server',
        status: 'Besteld',
        location: 'Kantoor',
        client: null,
        warrantyDays: null,
      },
      {
        name: 'Router kantoor',
        category: 'Netwerkapparatuur',
        status: 'Offerte',
        location: 'Kantoor',
        client: null,
        warrantyDays: null,
      },
    ],
    contract: { name: 'Onderhoudscontract De Vries Installaties', period: 'quarter', hours: 12, periods: 2 },
    prepaid: { name: 'Strippenkaart De Vries Installaties', hours: 5 },
    workplaces: 5,
    groups: [{ name: 'Inrichting werkplaats', archived: false }],
    quotes: [
      {
        name: 'Offerte NAS en back-up',
        status: 1,
        products: [
          ['HW-NAS-4', 1],
          ['SRV-BACKUP-500', 1],
        ],
      },
      {
        name: 'Offerte tablets monteurs',
        status: 2,
        products: [
          ['HW-TAB-10', 4],
          ['ARB-UUR', 3],
        ],
      },
      {
        name: 'Offerte telefonie in de cloud',
        status: 3,
        products: [
          ['SRV-VOIP', 6],
          ['ARB-UUR', 4],
        ],
      },
      {
        name: 'Offerte beveiligingscamera',
        status: 4,
        products: [
          ['HW-CAM', 2],
          ['ARB-UUR', 3],
        ],
      },
    ],
    deals: ['Digitalisering werkplaats'],
    projects: ['Telefonie in de cloud'],
  },
];

const PRODUCTS = [
  {
    product_code: 'HW-LAP-14',
    product_name: 'Laptop 14 inch zakelijk',
    unit: 'stuk',
    price: 1099,
    purchase_price: 899,
  },
  {
    product_code: 'HW-SW-24',
    product_name: 'Switch 24 poorten PoE',
    unit: 'stuk',
    price: 349,
    purchase_price: 265,
  },
  {
    product_code: 'HW-AP-WIFI6',
    product_name: 'Access point wifi 6',
    unit: 'stuk',
    price: 189,
    purchase_price: 140,
  },
  {
    product_code: 'HW-MFP-A4',
    product_name: 'Multifunctional A4 kleur',
    unit: 'stuk',
    price: 1450,
    purchase_price: 1150,
  },
  { product_code: 'HW-NAS-4', product_name: 'NAS 4 schijven', unit: 'stuk', price: 899, purchase_price: 720 },
  {
    product_code: 'HW-TAB-10',
    product_name: 'Tablet 10 inch robuust',
    unit: 'stuk',
    price: 529,
    purchase_price: 430,
  },
  {
    product_code: 'HW-CAM',
    product_name: 'Beveiligingscamera buiten',
    unit: 'stuk',
    price: 245,
    purchase_price: 180,
  },
  {
    product_code: 'LIC-M365-BP',
    product_name: 'Microsoft 365 Business Premium',
    unit: 'licentie',
    price: 20.6,
    purchase_price: 18.2,
  },
  {
    product_code: 'SRV-WERKPLEK',
    product_name: 'Managed werkplek',
    unit: 'werkplek',
    price: 39.5,
    purchase_price: null,
  },
  {
    product_code: 'SRV-BACKUP-500',
    product_name: 'Cloud back-up 500 GB',
    unit: 'stuk',
    price: 89,
    purchase_price: 45,
  },
  {
    product_code: 'SRV-VOIP',
    product_name: 'Telefonie in de cloud, per toestel',
    unit: 'toestel',
    price: 14.95,
    purchase_price: 8,
  },
  {
    product_code: 'SRV-DOMEIN',
    product_name: 'Domeinregistratie .nl',
    unit: 'stuk',
    price: 12.5,
    purchase_price: 4,
  },
  {
    product_code: 'SRV-HOSTING',
    product_name: 'Webhosting basis',
    unit: 'stuk',
    price: 120,
    purchase_price: 60,
  },
  {
    product_code: 'ARB-UUR',
    product_name: 'Arbeid technicus per uur',
    unit: 'uur',
    price: 95,
    purchase_price: null,
  },
];

const PERIOD_MONTHS: Record<string, number> = { month: 1, quarter: 3, half_year: 6, year: 12 };

// ---------------------------------------------------------------------------------------------------

/** Fills an empty database with the demo tenant. The caller decides that the database is empty. */
export async function seedDemo(db: Db, registry: Registry, opts: DemoOptions): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await syncPermissions(trx, registry);
    await seed(trx, opts);
  });
}

async function seed(db: Db, opts: DemoOptions): Promise<void> {
  const random = seededRandom(20260101);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const today = new Date(Math.floor((opts.now ?? new Date()).getTime() / DAY) * DAY);
  /** A moment `days` days before today (negative: after), at hour:minute UTC. */
  const daysAgo = (days: number, hour = 9, minute = 0) =>
    new Date(today.getTime() - days * DAY + (hour * 60 + minute) * 60_000);
  const dateIn = (days: number) => isoDate(new Date(today.getTime() + days * DAY));
  const monthStart = (offset: number) =>
    new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + offset, 1));
  const now = opts.now ?? new Date();

  const tenantId = await insertOne(db, 'tenants', { slug: 'acme', name: 'Acme IT' });
  const T = { tenant_id: tenantId };
  const list = async (table: string, rows: Row[]) =>
    insert(
      db,
      table,
      rows.map((r) => withTranslations(table, { ...T, ...r })),
    );
  const byName = (names: readonly string[], ids: number[]) => new Map(names.map((n, i) => [n, ids[i]!]));

  // ---- roles and permissions ----
  // Issue 6: second line holds every permission (grants_all); first line does the daily work but does
  // not merge, archive or delete companies, touch invoices, or change the tenant's settings (these
  // lists it reads only). The list is in docs/decisions.md and README's demo accounts.
  const [secondLineRole, firstLineRole, clientRole] = await list('roles', [
    { name: 'Tweede lijn', is_operator: true, grants_all: true },
    { name: 'Eerste lijn', is_operator: true },
    { name: 'Klant', is_operator: false },
  ]);
  const permissions = await db.selectFrom('permissions').select(['id', 'name']).execute();
  const firstLineMay = (name: string) => {
    const [, resource, action] = name.split('.') as [string, string, string];
    if (resource === 'invoices' || resource === 'invoice-lines') return false;
    if (['invoice', 'deinvoice', 'merge'].includes(action)) return false;
    if (resource === 'companies' && (action === 'archive' || action === 'destroy')) return false;
    if (TENANT_SETTINGS.includes(resource)) return action === 'index' || action === 'show';
    return true;
  };
  const grants: Row[] = [];
  for (const p of permissions) {
    const name = String(p.name);
    if (name.startsWith('tenant.')) grants.push({ role_id: secondLineRole, permission_id: p.id });
    if (name.startsWith('tenant.') && firstLineMay(name))
      grants.push({ role_id: firstLineRole, permission_id: p.id });
    if (name.startsWith('portal.')) grants.push({ role_id: clientRole, permission_id: p.id });
  }
  await db
    .insertInto('permission_role')
    .values(grants)
    .onConflict((oc) => oc.doNothing())
    .execute();

  // ---- named lists ----
  const [nl] = await list('countries', [
    { name: 'Nederland', code: 'NL' },
    { name: 'België', code: 'BE' },
    { name: 'Duitsland', code: 'DE' },
  ]);
  const officeHours = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [
      d,
      [{ from: '08:30', to: '17:30' }],
    ]),
  );
  const allDay = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
      d,
      [{ from: '00:00', to: '24:00' }],
    ]),
  );
  const [officeHoursId, allDayId] = await list('business_hour_contracts', [
    { name: 'Kantoortijden (ma-vr 8:30-17:30)', schedule: json(officeHours), timezone: 'Europe/Amsterdam' },
    { name: '24/7', schedule: json(allDay), timezone: 'Europe/Amsterdam' },
  ]);
  const slaIds = byName(
    ['Standaard', 'Premium'],
    await list('slas', [
      {
        name: 'Standaard',
        description: 'Reactie binnen 8 werkuren, oplossing binnen 3 werkdagen.',
        response_time: 480,
        resolution_time: 1440,
        business_hour_contract_id: officeHoursId,
      },
      {
        name: 'Premium',
        description: 'Reactie binnen 1 uur, oplossing binnen 8 uur, ook buiten kantoortijden.',
        response_time: 60,
        resolution_time: 480,
        business_hour_contract_id: allDayId,
      },
    ]),
  );
  const categoryIds = byName(
    CATEGORIES,
    await list(
      'categories',
      CATEGORIES.map((name) => ({ name })),
    ),
  );
  const statusIds = await list(
    'ticket_statuses',
    TICKET_STATUSES.map((s, i) => ({ ...s, order: i + 1 })),
  );
  const priorityIds = await list(
    'priorities',
    PRIORITIES.map((p, i) => ({ ...p, order: i + 1 })),
  );
  const ticketTypeIds = await list(
    'ticket_types',
    TICKET_TYPES.map((name) => ({ name })),
  );
  const ticketSourceIds = await list(
    'ticket_sources',
    TICKET_SOURCES.map((name) => ({ name })),
  );
  const locationIds = byName(
    ['Kantoor', 'Magazijn', 'Serverruimte', 'Thuiswerkplek'],
    await list('locations', [
      { name: 'Kantoor', address: null, city: null },
      { name: 'Magazijn', address: null, city: null },
      { name: 'Serverruimte', address: null, city: null },
      { name: 'Thuiswerkplek', address: null, city: null },
    ]),
  );
  const assetCategoryIds = byName(
    ASSET_CATEGORIES,
    await list(
      'asset_categories',
      ASSET_CATEGORIES.map((name) => ({ name })),
    ),
  );
  const assetStatusIds = byName(
    ASSET_STATUSES.map((s) => s.name),
    await list('asset_statuses', ASSET_STATUSES),
  );
  const activityIds = await list('activities', [
    { name: 'Support op afstand', is_billable: true, hourly_rate: 95 },
    { name: 'Support op locatie', is_billable: true, hourly_rate: 110 },
    { name: 'Installatie', is_billable: true, hourly_rate: 95 },
    { name: 'Advies', is_billable: true, hourly_rate: 125 },
    { name: 'Intern overleg', is_billable: false, hourly_rate: null },
  ]);
  const [managedWorkplace] = await list('services', [
    { name: 'Managed werkplek', description: 'Beheer en ondersteuning van werkplekken.' },
    { name: 'Netwerkbeheer', description: 'Beheer van netwerk, firewall en wifi.' },
    { name: 'Microsoft 365 beheer', description: 'Licenties, mailboxen en Teams.' },
    { name: 'Back-up en herstel', description: 'Dagelijkse back-up met hersteltest.' },
  ]);
  await list('prepaid_cards', [
    { description: 'Strippenkaart 5 uur', hours: 5, price: 475, quantity: 1 },
    { description: 'Strippenkaart 10 uur', hours: 10, price: 900, quantity: 1 },
    { description: 'Strippenkaart 20 uur', hours: 20, price: 1700, quantity: 1 },
  ]);
  const productIds = await list(
    'products',
    PRODUCTS.map((p) => ({ ...p, description: null, vat_percentage: 21 })),
  );
  const products = new Map(PRODUCTS.map((p, i) => [p.product_code, { ...p, id: productIds[i]! }]));
  const product = (code: string) => products.get(code) ?? fail(`no product ${code}`);

  // ---- operators ----
  const [adminId, operatorId] = await list('users', [
    {
      first_name: 'Sanne',
      last_name: 'Bakker',
      email: 'admin@example.com',
      password_hash: opts.passwordHash,
      is_operator: 2,
      is_staff: true,
      role_id: secondLineRole,
      acronym: 'SB',
      phone: '085 123 4500',
      modules: json(['invoice_pdf_export']),
    },
    {
      first_name: 'Daan',
      last_name: 'Visser',
      email: 'operator@example.com',
      password_hash: opts.passwordHash,
      is_operator: 1,
      is_staff: true,
      role_id: firstLineRole,
      acronym: 'DV',
      phone: '085 123 4501',
      modules: json([]),
    },
  ]);
  const operators = [
    { id: adminId!, name: 'Sanne Bakker' },
    { id: operatorId!, name: 'Daan Visser' },
  ];
  await db
    .insertInto('category_user')
    .values([
      ...['Netwerk', 'Beveiliging', 'Microsoft 365'].map((c) => ({
        user_id: adminId,
        category_id: categoryIds.get(c),
      })),
      ...['Werkplekken', 'Printers', 'Telefonie', 'Microsoft 365'].map((c) => ({
        user_id: operatorId,
        category_id: categoryIds.get(c),
      })),
    ])
    .execute();

  // ---- companies, clients ----
  const companyIds = await list(
    'companies',
    COMPANIES.map((c) => ({
      name: c.name,
      address_1: c.address,
      postal_code: c.postalCode,
      city: c.city,
      country_id: nl,
      phone: c.clients[0]!.phone,
      email: `info@${c.domain}`,
      sla_id: slaIds.get(c.sla),
    })),
  );
  const clientRows = COMPANIES.flatMap((c) =>
    c.clients.map((p) => ({
      first_name: p.first,
      last_name: p.last,
      email: p.email,
      password_hash: p.login ? opts.passwordHash : null,
      is_operator: 0,
      is_staff: false,
      role_id: clientRole,
      phone: p.phone,
      modules: json([]),
    })),
  );
  const clientIds = await list('users', clientRows);
  const clientsOf: { id: number; name: string; email: string }[][] = [];
  let nextClient = 0;
  for (const c of COMPANIES) {
    clientsOf.push(
      c.clients.map((p) => ({ id: clientIds[nextClient++]!, name: `${p.first} ${p.last}`, email: p.email })),
    );
  }
  await list(
    'company_user',
    clientsOf.flatMap((clients, ci) => clients.map((cl) => ({ company_id: companyIds[ci], user_id: cl.id }))),
  );

  // ---- per company: everything that does not need ticket ids ----
  interface CompanyData {
    plan: CompanyPlan;
    id: number;
    clients: { id: number; name: string; email: string }[];
    assetIds: number[];
    groupIds: number[];
    periods: { id: number; start: string; end: string | null; total: number; contractId: number }[];
    prepaidPeriod: { id: number; start: string; total: number; contractId: number };
    paidInvoiceId: number;
    draftInvoiceId: number;
    projectIds: number[];
    acceptedQuoteId: number;
  }
  const companies: CompanyData[] = [];
  let invoiceNumber = 0;
  let serial = 0;

  for (const [ci, plan] of COMPANIES.entries()) {
    const companyId = companyIds[ci]!;
    const clients = clientsOf[ci]!;
    const C = { company_id: companyId };

    const assetIds = await list(
      'assets',
      plan.assets.map((a, i) => ({
        ...C,
        name: a.name,
        description: `${a.category} van ${plan.name}`,
        serial_number: `SN${(7340 + ci * 100 + ++serial).toString(36).toUpperCase()}${1000 + i * 37}`,
        tracking_number: a.status === 'Besteld' ? `3SDEVC${4410 + serial}` : null,
        warranty_until: a.warrantyDays === null ? null : dateIn(a.warrantyDays),
        purchase_date: a.warrantyDays === null ? null : dateIn(a.warrantyDays - 1095),
        client_id: a.client === null ? null : clients[a.client]!.id,
        location_id: locationIds.get(a.location),
        operator_id: at(operators, i).id,
        asset_status_id: assetStatusIds.get(a.status),
        created_at: daysAgo(400 - i * 20),
        updated_at: daysAgo(30 - i),
      })),
    );
    await db
      .insertInto('asset_category')
      .values(
        plan.assets.map((a, i) => ({
          asset_id: assetIds[i],
          asset_category_id: assetCategoryIds.get(a.category),
        })),
      )
      .execute();

    const groupIds = await list(
      'ticket_groups',
      plan.groups.map((g) => ({
        ...C,
        name: g.name,
        description: null,
        archived_at: g.archived ? daysAgo(20) : null,
        created_at: daysAgo(150),
        updated_at: daysAgo(g.archived ? 20 : 5),
      })),
    );

    // A contract with hours per period, and a prepaid card (period 'none').
    const months = PERIOD_MONTHS[plan.contract.period]!;
    const firstStart = monthStart(-months * (plan.contract.periods - 1));
    const [contractId, prepaidId] = await list('contracts', [
      {
        name: plan.contract.name,
        description: `${plan.contract.hours} uur ondersteuning per ${plan.contract.period === 'month' ? 'maand' : 'kwartaal'}.`,
        client_id: clients[0]!.id,
        service_id: managedWorkplace,
        period: plan.contract.period,
        quantity: plan.contract.hours,
        start_date: isoDate(firstStart),
        end_date: isoDate(new Date(Date.UTC(firstStart.getUTCFullYear() + 2, firstStart.getUTCMonth(), 0))),
      },
      {
        name: plan.prepaid.name,
        description: 'Prepaid uren, aan te vullen met een strippenkaart.',
        client_id: clients[0]!.id,
        service_id: managedWorkplace,
        period: 'none',
        quantity: plan.prepaid.hours,
        start_date: dateIn(-150),
        end_date: null,
      },
    ]);
    await db
      .insertInto('company_contract')
      .values([contractId, prepaidId].map((id) => ({ company_id: companyId, contract_id: id })))
      .execute();
    const periodRows = Array.from({ length: plan.contract.periods }, (_, k) => {
      const start = monthStart(-months * (plan.contract.periods - 1 - k));
      const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 0));
      return {
        start: isoDate(start),
        end: isoDate(end),
        total: plan.contract.hours * 60,
        contractId: contractId!,
      };
    });
    const periodIds = await list('contract_periods', [
      ...periodRows.map((p) => ({
        contract_id: contractId,
        period_start: p.start,
        period_end: p.end,
        minutes_total: p.total,
        minutes_remaining: p.total,
      })),
      {
        contract_id: prepaidId,
        period_start: dateIn(-150),
        period_end: null,
        minutes_total: plan.prepaid.hours * 60,
        minutes_remaining: plan.prepaid.hours * 60,
      },
    ]);
    const periods = periodRows.map((p, k) => ({ ...p, id: periodIds[k]! }));
    const prepaidPeriod = {
      id: periodIds[periodRows.length]!,
      start: dateIn(-150),
      total: plan.prepaid.hours * 60,
      contractId: prepaidId!,
    };

    // Deals, quotes in every status, projects.
    const dealIds = await list(
      'deals',
      plan.deals.map((description, i) => ({
        ...C,
        description,
        client_id: clients[0]!.id,
        operator_id: adminId,
        amount: 5000 + i * 3500,
        expected_close_date: dateIn(30 + i * 30),
        created_at: daysAgo(120 - i * 10),
        updated_at: daysAgo(10 - i),
      })),
    );
    const quoteRows = plan.quotes.map((q, i) => {
      const lines = q.products.map(([code, quantity]) => round2(product(code).price * quantity));
      const created = daysAgo(90 - i * 12);
      const sent = q.status >= 2 ? daysAgo(85 - i * 12, 14) : null;
      return {
        ...C,
        name: q.name,
        description: `Op basis van ons gesprek met ${clients[0]!.name}.`,
        status_id: q.status,
        deal_id: at(dealIds, i),
        client_id: clients[0]!.id,
        operator_id: adminId,
        total: round2(lines.reduce((a, b) => a + b, 0)),
        valid_until: dateIn(q.status === 2 ? 30 : -30 + i),
        sent_at: sent,
        signed_name: q.status === 3 ? clients[0]!.name : null,
        signed_note: q.status === 3 ? 'Graag levering na overleg met de receptie.' : null,
        accepted_at: q.status === 3 ? daysAgo(80 - i * 12, 11) : null,
        declined_at: q.status === 4 ? daysAgo(80 - i * 12, 16) : null,
        created_at: created,
        updated_at: q.status === 1 ? daysAgo(3) : daysAgo(80 - i * 12, 16),
      };
    });
    const quoteIds = await list('quotes', quoteRows);
    await list(
      'quote_lines',
      plan.quotes.flatMap((q, i) =>
        q.products.map(([code, quantity], order) => {
          const p = product(code);
          return {
            quote_id: quoteIds[i],
            product_id: p.id,
            description: p.product_name,
            quantity,
            price: p.price,
            vat_percentage: 21,
            total: round2(p.price * quantity),
            order: order + 1,
          };
        }),
      ),
    );
    const acceptedIndex = plan.quotes.findIndex((q) => q.status === 3);
    const acceptedQuoteId = quoteIds[acceptedIndex]!;
    const projectIds = await list(
      'projects',
      plan.projects.map((name, i) => ({
        ...C,
        name,
        description: `Project voortkomend uit "${plan.quotes[acceptedIndex]!.name}".`,
        deal_id: quoteRows[acceptedIndex]!.deal_id,
        operator_id: at(operators, i).id,
        start_date: dateIn(-60 + i * 20),
        end_date: dateIn(30 + i * 30),
        created_at: daysAgo(75),
        updated_at: daysAgo(4),
      })),
    );

    // Subscriptions with lines.
    const subscriptions: {
      description: string;
      period: string;
      lines: [string, number][];
      terminated: boolean;
    }[] = [
      {
        description: 'Managed werkplekken',
        period: 'month',
        lines: [
          ['SRV-WERKPLEK', plan.workplaces],
          ['LIC-M365-BP', plan.workplaces],
        ],
        terminated: false,
      },
      { description: 'Cloud back-up', period: 'quarter', lines: [['SRV-BACKUP-500', 1]], terminated: false },
      {
        description: 'Domeinnaam en hosting',
        period: 'year',
        lines: [
          ['SRV-DOMEIN', 2],
          ['SRV-HOSTING', 1],
        ],
        terminated: ci === 1,
      },
    ];
    const subscriptionIds = await list(
      'subscriptions',
      subscriptions.map((s, i) => {
        const total = round2(
          s.lines.reduce((sum, [code, quantity]) => sum + product(code).price * quantity, 0),
        );
        const m = PERIOD_MONTHS[s.period]!;
        const start = monthStart(-((today.getUTCMonth() + i) % m));
        return {
          ...C,
          description: s.description,
          period: s.period,
          periods: 1,
          total,
          mrr: round2(total / m),
          billing_start_date: isoDate(monthStart(-14 - i * 3)),
          start_period: isoDate(start),
          end_period: isoDate(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + m, 0))),
          next_billing_date: isoDate(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + m, 1))),
          termination_date: s.terminated ? dateIn(45) : null,
          direct_debit: i !== 2,
          created_at: daysAgo(430 - i * 90),
          updated_at: daysAgo(15 + i),
        };
      }),
    );
    await list(
      'subscription_lines',
      subscriptions.flatMap((s, i) =>
        s.lines.map(([code, quantity], order) => {
          const p = product(code);
          return {
            subscription_id: subscriptionIds[i],
            product_id: p.id,
            description: p.product_name,
            quantity,
            price: p.price,
            vat_percentage: 21,
            total: round2(p.price * quantity),
            order: order + 1,
          };
        }),
      ),
    );

    // Invoices in every status (and a draft: no external id yet).
    const invoicePlans: {
      status: number;
      daysAgo: number;
      dueIn: number;
      draft?: boolean;
      credit?: boolean;
    }[] = [
      { status: 4, daysAgo: 120, dueIn: -90 },
      { status: 4, daysAgo: 90, dueIn: -60 },
      { status: 1, daysAgo: 2, dueIn: 28 },
      { status: 2, daysAgo: 20, dueIn: 10 },
      { status: 3, daysAgo: 50, dueIn: -20 },
      { status: 8, daysAgo: 60, dueIn: -30, credit: true },
      { status: 9, daysAgo: 100, dueIn: -70 },
      { status: 1, daysAgo: 1, dueIn: 29, draft: true },
    ];
    const invoiceLines = (i: number, credit: boolean): [string, string, number, number][] => {
      const month = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - i, 1)).toLocaleDateString(
        'nl-NL',
        { month: 'long', year: 'numeric', timeZone: 'UTC' },
      );
      if (credit)
        return [['SRV-WERKPLEK', `Creditering werkplekken ${month}`, -2, product('SRV-WERKPLEK').price]];
      return [
        ['SRV-WERKPLEK', `Managed werkplekken ${month}`, plan.workplaces, product('SRV-WERKPLEK').price],
        [
          'LIC-M365-BP',
          `Microsoft 365 Business Premium ${month}`,
          plan.workplaces,
          product('LIC-M365-BP').price,
        ],
        ['ARB-UUR', 'Werkzaamheden buiten contract', 1 + (i % 3), product('ARB-UUR').price],
      ];
    };
    const invoiceRows = invoicePlans.map((p, i) => {
      const lines = invoiceLines(i, p.credit ?? false);
      const excl = round2(lines.reduce((sum, [, , quantity, price]) => sum + quantity * price, 0));
      const code = p.draft ? null : `F${today.getUTCFullYear()}-${String(++invoiceNumber).padStart(4, '0')}`;
      return {
        row: {
          ...C,
          external_id: p.draft ? null : `EXT-${10000 + invoiceNumber}`,
          code,
          reference: p.credit
            ? `Creditnota ${plan.name}`
            : `Factuur ${plan.name} ${dateIn(-p.daysAgo).slice(0, 7)}`,
          amount_excl: excl,
          amount_incl: round2(excl * 1.21),
          date: dateIn(-p.daysAgo),
          due_date: dateIn(p.dueIn),
          status_id: p.status,
          created_at: daysAgo(p.daysAgo),
          updated_at: daysAgo(Math.max(1, Math.min(p.daysAgo, -p.dueIn))),
        },
        lines,
      };
    });
    const invoiceIds = await list(
      'invoices',
      invoiceRows.map((r) => r.row),
    );
    await list(
      'invoice_lines',
      invoiceRows.flatMap((r, i) =>
        r.lines.map(([code, description, quantity, price], order) => ({
          invoice_id: invoiceIds[i],
          product_id: product(code).id,
          description,
          quantity,
          price,
          vat_percentage: 21,
          total: round2(quantity * price),
          order: order + 1,
        })),
      ),
    );

    companies.push({
      plan,
      id: companyId,
      clients,
      assetIds,
      groupIds,
      periods,
      prepaidPeriod,
      paidInvoiceId: invoiceIds[0]!,
      draftInvoiceId: invoiceIds[invoicePlans.length - 1]!,
      projectIds,
      acceptedQuoteId,
    });
  }

  // ---- tickets: every status for every company, numbered in order of creation ----
  interface TicketPlan {
    company: CompanyData;
    subject: [string, string];
    status: number;
    client: { id: number; name: string; email: string };
    operator: { id: number; name: string };
    created: Date;
    updated: Date;
    row: Row;
  }
  const ticketPlans: TicketPlan[] = [];
  for (const company of companies) {
    for (let i = 0; i < company.plan.tickets; i++) {
      const status = i % TICKET_STATUSES.length;
      const internal = TICKET_STATUSES[status]!.internal_type;
      const closed = internal === 2 || internal === 3;
      // Closed and archived tickets are older; open ones are recent.
      const age = closed ? int(20, 200) : int(1, 60);
      const created = daysAgo(age, int(8, 16), at([0, 5, 10, 15, 20, 30, 40, 45, 50], i));
      const updated = new Date(
        Math.floor(
          Math.min(now.getTime() - 60_000 * (i + 1), created.getTime() + random() * Math.max(age, 1) * DAY) /
            60_000,
        ) * 60_000,
      );
      const updatedAt = updated < created ? created : updated;
      const subject = at(TICKET_SUBJECTS, i * 7 + company.id);
      const client = at(company.clients, i % 5 === 4 ? 1 : 0);
      const operator = at(operators, i % 3 === 0 ? 0 : 1);
      ticketPlans.push({
        company,
        subject,
        status,
        client,
        operator,
        created,
        updated: updatedAt,
        row: {
          description: subject[0],
          stage: at(STAGES, i),
          priority_id: at(priorityIds, int(0, 3)),
          status_id: statusIds[status],
          company_id: company.id,
          client_id: client.id,
          operator_id: status === 0 && i % 2 === 0 ? null : operator.id,
          ticket_group_id: i % 6 === 1 ? at(company.groupIds, i) : null,
          ticket_type_id: at(ticketTypeIds, i),
          ticket_source_id: at(ticketSourceIds, i + 1),
          category_id: categoryIds.get(subject[1]),
          sla_id: slaIds.get(company.plan.sla),
          asset_id: i % 4 === 0 ? at(company.assetIds, i) : null,
          deadline:
            internal === 6
              ? daysAgo(-int(1, 14), 10)
              : i % 5 === 0 && !closed
                ? daysAgo(int(-5, 5), 17)
                : null,
          is_template: false,
          resolved_at: closed ? updatedAt : null,
          created_at: created,
          updated_at: updatedAt,
        },
      });
    }
  }
  ticketPlans.sort((a, b) => a.created.getTime() - b.created.getTime());
  const perYear = new Map<number, number>();
  for (const t of ticketPlans) {
    const year = t.created.getUTCFullYear();
    const n = (perYear.get(year) ?? 0) + 1;
    perYear.set(year, n);
    t.row.reference = `T-${year}-${String(n).padStart(5, '0')}`;
  }
  const ticketIds = await list(
    'tickets',
    ticketPlans.map((t) => t.row),
  );

  // Templates: no company, no reference.
  await list(
    'tickets',
    [
      ['Nieuwe medewerker: account en werkplek inrichten', 'Werkplekken', 1],
      ['Medewerker uit dienst: accounts blokkeren en laptop innemen', 'Werkplekken', 1],
      ['Maandelijkse controle back-ups', 'Beveiliging', 2],
    ].map(([description, category, type], i) => ({
      description,
      status_id: statusIds[0],
      priority_id: priorityIds[1],
      category_id: categoryIds.get(String(category)),
      ticket_type_id: ticketTypeIds[Number(type)],
      is_template: true,
      created_at: daysAgo(300 - i),
      updated_at: daysAgo(100 - i),
    })),
  );

  // ---- message threads: sent (client), received (operator reply) and internal notes ----
  interface MessagePlan {
    row: Row;
    attachment?: { name: string; extension: string; mime_type: string; is_embedded?: boolean };
  }
  const messagePlans: MessagePlan[] = [];
  const between = (from: Date, to: Date, fraction: number) =>
    new Date(from.getTime() + Math.max(0, to.getTime() - from.getTime()) * fraction);
  ticketPlans.forEach((t, i) => {
    if (i % 3 === 2) return;
    const ticketId = ticketIds[i]!;
    const base = { morphable_type: 'ticket', morphable_id: ticketId, description: t.subject[0] };
    const first = t.client.name.split(' ')[0];
    const thread: MessagePlan[] = [
      {
        row: {
          ...base,
          message: `<p>Goedemorgen,</p><p>${t.subject[0]}. Kunnen jullie hiernaar kijken?</p><p>Met vriendelijke groet,<br>${t.client.name}</p>`,
          is_from_client: true,
          visible_to_client: true,
          actor_id: t.client.id,
          original_email_from: i % 4 === 0 ? t.client.email : null,
          created_at: t.created,
        },
        attachment:
          i % 5 === 0
            ? { name: 'schermafbeelding.png', extension: 'png', mime_type: 'image/png' }
            : undefined,
      },
      {
        row: {
          ...base,
          message: `<p>Beste ${first},</p><p>${at(OPERATOR_REPLIES, i)}</p><p>Met vriendelijke groet,<br>${t.operator.name}<br>Acme IT</p>`,
          visible_to_client: true,
          actor_id: t.operator.id,
          send_to_client: true,
          to: json([t.client.email]),
          cc: json(i % 7 === 0 ? [`info@${t.company.plan.domain}`] : []),
          activity_id: at(activityIds, i),
          created_at: between(t.created, t.updated, 0.3),
        },
        attachment:
          i % 10 === 1 ? { name: 'werkbon.pdf', extension: 'pdf', mime_type: 'application/pdf' } : undefined,
      },
    ];
    if (i % 2 === 0) {
      thread.push({
        row: {
          ...base,
          message: `<p>${at(INTERNAL_NOTES, i)}</p>`,
          visible_to_client: false,
          actor_id: at(operators, i + 1).id,
          created_at: between(t.created, t.updated, 0.5),
        },
      });
    }
    if (i % 3 === 0) {
      thread.push({
        row: {
          ...base,
          message: `<p>${at(CLIENT_FOLLOW_UPS, i)}</p>`,
          is_from_client: true,
          visible_to_client: true,
          actor_id: t.client.id,
          created_at: between(t.created, t.updated, 0.7),
        },
        attachment: at(CLIENT_FOLLOW_UPS, i).startsWith('Bijgaand')
          ? { name: 'foutmelding.png', extension: 'png', mime_type: 'image/png' }
          : undefined,
      });
    }
    if (t.status !== 0) {
      const status = TICKET_STATUSES[t.status]!;
      thread.push({
        row: {
          ...base,
          message: `<p>Status gewijzigd naar ${status.name_client}.</p>`,
          type: 'status-changed',
          data: json({ status: { id: statusIds[t.status], name: status.name } }),
          visible_to_client: true,
          actor_id: t.operator.id,
          created_at: t.updated,
        },
      });
    }
    if (t.status === 5 && i % 2 === 1) {
      thread.push({
        row: {
          ...base,
          message: '<p>Werkbon ondertekend door de klant.</p>',
          type: 'work-order-signed',
          data: json({ signed_by: t.client.name }),
          visible_to_client: true,
          actor_id: t.client.id,
          is_from_client: true,
          created_at: t.updated,
        },
        attachment: {
          name: 'werkbon-getekend.pdf',
          extension: 'pdf',
          mime_type: 'application/pdf',
        },
      });
    }
    messagePlans.push(...thread);
  });
  for (const company of companies) {
    company.assetIds.slice(0, 2).forEach((assetId, i) => {
      const base = {
        morphable_type: 'asset',
        morphable_id: assetId,
        description: company.plan.assets[i]!.name,
      };
      messagePlans.push(
        {
          row: {
            ...base,
            message: '<p>Geheugen uitgebreid naar 32 GB en BIOS bijgewerkt.</p>',
            visible_to_client: true,
            actor_id: operatorId,
            created_at: daysAgo(40 + i),
          },
        },
        {
          row: {
            ...base,
            message: '<p>Interne notitie: accu loopt terug, vervangen bij volgende storing.</p>',
            visible_to_client: false,
            actor_id: adminId,
            created_at: daysAgo(12 + i),
          },
        },
      );
    });
    messagePlans.push({
      row: {
        morphable_type: 'company',
        morphable_id: company.id,
        description: 'Contactmoment',
        message: `<p>Interne notitie: jaarlijks evaluatiegesprek met ${company.clients[0]!.name} gepland.</p>`,
        visible_to_client: false,
        actor_id: adminId,
        created_at: daysAgo(25),
      },
    });
  }
  const messageIds = await list(
    'messages',
    messagePlans.map((m) => ({ type: 'normal', updated_at: m.row.created_at, ...m.row })),
  );
  // Real files through the storage interface, so the demo's attachments open and download.
  const attachmentRows: Row[] = [];
  for (const [i, m] of messagePlans.entries()) {
    if (!m.attachment) continue;
    const content = demoFile(m.attachment.name);
    // Through the seed's transaction: a database store keeps the files only if the seed commits.
    const stored = opts.files ? await opts.files.put(content, db) : { key: '', size: content.length };
    attachmentRows.push({
      ...m.attachment,
      message_id: messageIds[i],
      user_id: m.row.actor_id,
      is_embedded: m.attachment.is_embedded ?? false,
      size: stored.size,
      path: stored.key,
      created_at: m.row.created_at,
    });
  }
  await list('attachments', attachmentRows);

  // ---- outgoing mail (issue 15, item 4): one reply whose mail the outbox gave up ----
  // Given up, not queued: a queued mail would be sent by every server started on the demo data. The
  // operators see it in the outgoing mail list and on the reply, and may try it again.
  const undelivered = messagePlans.findIndex((m) => m.row.send_to_client === true);
  if (undelivered >= 0) {
    const reply = messagePlans[undelivered]!.row;
    const ticket = ticketPlans.find((_, i) => ticketIds[i] === reply.morphable_id)!;
    const to = JSON.parse(String(reply.to)) as string[];
    const cc = JSON.parse(String(reply.cc)) as string[];
    const error = '550 Mailbox unavailable';
    const failedAt = new Date((reply.created_at as Date).getTime() + 3 * 3_600_000);
    await db
      .updateTable('messages')
      .set({
        mail_error: `The e-mail to the client could not be sent and has been given up (8 attempts): ${error}`,
      })
      .where('id', '=', messageIds[undelivered]!)
      .execute();
    await list('mail_outbox', [
      {
        recipients: [...to, ...cc].join(', '),
        subject: `[${String(ticket.row.reference)}] ${String(reply.description)}`,
        mail: json({
          to,
          cc,
          bcc: [],
          subject: `[${String(ticket.row.reference)}] ${String(reply.description)}`,
          text: messageText(String(reply.message)),
          html: reply.message,
          attachments: [],
        }),
        source: 'messages',
        source_id: messageIds[undelivered],
        context: json({ addresses: { to, cc, bcc: [] } }),
        status: 'failed',
        attempts: 8,
        last_error: error,
        created_at: reply.created_at,
        next_attempt_at: failedAt,
        last_attempt_at: failedAt,
        failed_at: failedAt,
      },
    ]);
  }

  // ---- time registrations, booked on the contract period of their day ----
  const timeRows: Row[] = [];
  const usedPerPeriod = new Map<number, number>();
  ticketPlans.forEach((t, i) => {
    const internal = TICKET_STATUSES[t.status]!.internal_type;
    if (t.status === 0 || (i % 2 === 1 && internal !== 2 && internal !== 3)) return;
    const count = 1 + (i % 3 === 0 ? 1 : 0);
    for (let k = 0; k < count; k++) {
      const executed = between(t.created, t.updated, (k + 1) / (count + 1));
      const day = isoDate(executed);
      const spent = at([15, 20, 30, 45, 60, 90, 120], int(0, 6));
      const rounded = Math.ceil(spent / 15) * 15;
      const period = t.company.periods.find((p) => p.start <= day && (p.end === null || day <= p.end));
      // Some work (outside the contract's scope) is booked on the prepaid card.
      const onPrepaid = i % 5 === 0 && day >= t.company.prepaidPeriod.start;
      const periodId = onPrepaid ? t.company.prepaidPeriod.id : (period?.id ?? null);
      if (periodId !== null) usedPerPeriod.set(periodId, (usedPerPeriod.get(periodId) ?? 0) + rounded);
      // Work outside any contract is billed: part of it is on the paid invoice already.
      const invoiceId = periodId === null && i % 3 === 0 ? t.company.paidInvoiceId : null;
      timeRows.push({
        ticket_id: ticketIds[i],
        contract_period_id: periodId,
        activity_id: at(activityIds, i + k),
        operator_id: t.operator.id,
        description: at(
          [
            'Probleem op afstand onderzocht',
            'Oplossing doorgevoerd en getest',
            'Overleg met gebruiker',
            'Ter plaatse opgelost',
          ],
          i + k,
        ),
        time_spent: spent,
        time_spent_rounded: rounded,
        executed_at: executed,
        invoice_id: invoiceId,
        created_at: executed,
        updated_at: executed,
      });
    }
  });
  await list('time_registrations', timeRows);
  for (const company of companies) {
    const all = [...company.periods, company.prepaidPeriod];
    for (const p of all) {
      const used = usedPerPeriod.get(p.id) ?? 0;
      await db
        .updateTable('contract_periods')
        .set({ registered_time: used, minutes_remaining: p.total - used })
        .where('id', '=', p.id)
        .execute();
    }
    const current = company.periods[company.periods.length - 1]!;
    for (const p of [current, company.prepaidPeriod]) {
      await db
        .updateTable('contracts')
        .set({ minutes_remaining: p.total - (usedPerPeriod.get(p.id) ?? 0) })
        .where('id', '=', p.contractId)
        .execute();
    }
  }

  // ---- used products ----
  await list(
    'used_products',
    companies.flatMap((company) => {
      const companyTickets = ticketPlans
        .map((t, i) => ({ t, id: ticketIds[i]! }))
        .filter((x) => x.t.company === company);
      const lap = product('HW-LAP-14');
      const hours = product('ARB-UUR');
      const toner = product('HW-MFP-A4');
      return [
        {
          project_id: company.projectIds[0],
          quote_id: company.acceptedQuoteId,
          product_id: hours.id,
          description: 'Projecturen volgens offerte',
          quantity: 8,
          price: hours.price,
          total: round2(8 * hours.price),
          invoice_moment: 1,
          type: 2,
          invoice_id: company.paidInvoiceId,
        },
        {
          project_id: company.projectIds[0],
          product_id: lap.id,
          description: lap.product_name,
          quantity: 1,
          price: lap.price,
          total: lap.price,
          invoice_moment: 2,
          type: 1,
          invoice_id: null,
        },
        {
          project_id: company.projectIds[company.projectIds.length - 1],
          description: 'Nacalculatie bekabeling',
          quantity: 1,
          price: 240,
          total: 240,
          invoice_moment: 3,
          type: 3,
          invoice_id: null,
        },
        {
          ticket_id: companyTickets[3]!.id,
          product_id: toner.id,
          description: 'Vervangende multifunctional geleverd',
          quantity: 1,
          price: toner.price,
          total: toner.price,
          invoice_moment: 1,
          type: 1,
          invoice_id: company.draftInvoiceId,
        },
      ].map((row, i) => ({
        company_id: company.id,
        created_at: daysAgo(50 - i * 10),
        updated_at: daysAgo(5),
        ...row,
      }));
    }),
  );

  // ---- custom fields and values ----
  const options = (pairs: [string, string][]) => json(pairs.map(([name, label]) => ({ name, label })));
  const fieldRows = [
    {
      name: 'impact',
      title: 'Impact',
      type: 1,
      morphable_type: 'ticket',
      is_required: true,
      options: options([
        ['single', 'Eén gebruiker'],
        ['department', 'Afdeling'],
        ['organisation', 'Hele organisatie'],
      ]),
    },
    { name: 'kostenplaats', title: 'Kostenplaats', type: 0, morphable_type: 'ticket', is_required: false },
    { name: 'ip_adres', title: 'IP-adres', type: 0, morphable_type: 'asset', is_required: false },
    {
      name: 'installatiedatum',
      title: 'Installatiedatum',
      type: 2,
      morphable_type: 'asset',
      is_required: false,
    },
    { name: 'klantnummer', title: 'Klantnummer', type: 0, morphable_type: 'company', is_required: false },
    { name: 'afdeling', title: 'Afdeling', type: 0, morphable_type: 'user', is_required: false },
    { name: 'projectnummer', title: 'Projectnummer', type: 0, morphable_type: 'quote', is_required: false },
    {
      name: 'levering',
      title: 'Levering',
      type: 1,
      morphable_type: 'quote',
      is_required: false,
      options: options([
        ['pickup', 'Ophalen'],
        ['delivery', 'Bezorgen'],
        ['install', 'Bezorgen en installeren'],
      ]),
    },
  ];
  const fieldIds = byName(
    fieldRows.map((f) => f.name),
    await list(
      'custom_fields',
      fieldRows.map((f, i) => ({ options: json([]), ...f, order: i + 1 })),
    ),
  );
  const value = (field: string, morphable_type: string, morphable_id: number, v: string) => ({
    custom_field_id: fieldIds.get(field),
    morphable_type,
    morphable_id,
    value: v,
  });
  const valueRows: Row[] = [];
  ticketPlans.forEach((t, i) => {
    if (i % 2 === 0)
      valueRows.push(
        value('impact', 'ticket', ticketIds[i]!, at(['single', 'department', 'organisation'], i)),
      );
    if (i % 5 === 0) valueRows.push(value('kostenplaats', 'ticket', ticketIds[i]!, `KP-${100 + (i % 4)}`));
  });
  for (const [ci, company] of companies.entries()) {
    valueRows.push(value('klantnummer', 'company', company.id, `K${10_231 + ci * 17}`));
    valueRows.push(value('afdeling', 'user', company.clients[0]!.id, 'Directie'));
    company.assetIds.forEach((assetId, i) => {
      if (i < 3) valueRows.push(value('ip_adres', 'asset', assetId, `192.168.${10 + ci}.${20 + i}`));
    });
    valueRows.push(value('installatiedatum', 'asset', company.assetIds[0]!, dateIn(-200)));
    valueRows.push(
      value('projectnummer', 'quote', company.acceptedQuoteId, `P-${today.getUTCFullYear()}-0${ci + 1}`),
    );
    valueRows.push(value('levering', 'quote', company.acceptedQuoteId, 'install'));
  }
  await list('custom_values', valueRows);

  // ---- the admin's presets, views and configs; tenant settings ----
  const ticketColumns = json([
    'reference',
    'description',
    'status_id',
    'priority_id',
    'company_id',
    'updated_at',
  ]);
  await list('table_presets', [
    {
      user_id: adminId,
      label: 'Mijn open tickets',
      styling: 'primary',
      type: 'tickets',
      columns_config: ticketColumns,
      order_config: json(['updated_at', 'desc']),
      filter_config: json([
        { where: ['operator_id', '=', 'me'] },
        { whereIn: ['status_id', statusIds.slice(0, 5)] },
      ]),
      pagination_config: json({ perPage: 25 }),
      order: 1,
    },
    {
      user_id: adminId,
      label: 'Hoge prioriteit',
      styling: 'error',
      type: 'tickets',
      columns_config: ticketColumns,
      order_config: json(['updated_at', 'desc']),
      filter_config: json([{ whereIn: ['priority_id', priorityIds.slice(2)] }]),
      pagination_config: json({ perPage: 15 }),
      order: 2,
    },
    {
      user_id: adminId,
      label: 'Contracten op volgorde van einddatum',
      styling: null,
      type: 'contracts',
      columns_config: json(['name', 'period', 'quantity', 'minutes_remaining', 'end_date']),
      order_config: json(['end_date', 'asc']),
      filter_config: json([]),
      pagination_config: json({ perPage: 15 }),
      order: 1,
    },
  ]);
  await list('settings_views', [
    { user_id: adminId, label: 'Alle tickets', type: 'tickets', order: 1, is_default: true },
    { user_id: adminId, label: 'Mijn tickets', type: 'tickets', order: 2, is_default: false },
    { user_id: adminId, label: 'Wacht op klant', type: 'tickets', order: 3, is_default: false },
    { user_id: adminId, label: 'Alle contracten', type: 'contracts', order: 1, is_default: true },
  ]);
  await list('user_configs', [
    { user_id: adminId, name: 'locale', value: 'nl' },
    { user_id: adminId, name: 'tickets.perPage', value: '25' },
  ]);
  await list('tenant_configs', [
    { name: 'company_name', value: 'Acme IT' },
    { name: 'ticket_reference_prefix', value: 'T' },
    { name: 'default_ticket_status_id', value: String(statusIds[0]) },
    { name: 'time_rounding_minutes', value: '15' },
    {
      name: 'portal_ticket_fields',
      value: json([
        { field: 'description', required: true },
        { field: 'priority_id', required: true },
        { field: 'asset_id', required: false },
      ]),
    },
  ]);
}

function fail(message: string): never {
  throw new Error(message);
}
