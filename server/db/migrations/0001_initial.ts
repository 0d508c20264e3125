import { sql, type Kysely } from 'kysely';

/*
 * The initial database, frozen in time: it never reads schemas/, so a later change to a schema needs a
 * new migration. Every table of a resource has exactly the fields of its schema as columns, plus
 * tenant_id when the resource is tenant-owned; a few system columns (password_hash, attachments.path,
 * quotes.signature, ...) are deliberately absent from the schemas so the API never exposes them.
 *
 * Every list is read in a tenant, so indexes start with tenant_id: one per default sort (with id as
 * tie-breaker, which keeps pagination stable), one per filterable foreign key, and one per
 * company-scoped list (the portal's query) that also serves its default sort.
 */

const TENANT = 'tenant_id integer not null references tenants(id) on delete cascade';
const CREATED = 'created_at timestamptz not null default now()';
const UPDATED = 'updated_at timestamptz not null default now()';
const STAMPS = [CREATED, UPDATED];

/** A required or optional reference; optional ones become null when the referenced row goes. */
const ref = (column: string, table: string, opts: { required?: boolean; onDelete?: string } = {}) =>
  `${column} integer ${opts.required ? 'not null ' : ''}references ${table}(id) on delete ${
    opts.onDelete ?? (opts.required ? 'cascade' : 'set null')
  }`;

const MONEY = 'numeric(14,2)';
const QUANTITY = 'numeric(12,4)';

interface Table {
  name: string;
  /** false for the few tables shared by every tenant. */
  tenant?: boolean;
  /** serial (default); fixed: ids given by the specification; none: a pivot keyed by its two columns. */
  id?: 'serial' | 'fixed' | 'none';
  columns: string[];
}

/** In dependency order; `down` drops them in reverse. */
const TABLES: Table[] = [
  // ---- system: tenants, roles, permissions ----
  {
    name: 'roles',
    columns: [
      'name text not null',
      'is_operator boolean not null default false',
      // A role that always holds every tenant.* permission (syncPermissions keeps it complete).
      'grants_all boolean not null default false',
      ...STAMPS,
    ],
  },
  { name: 'permissions', tenant: false, columns: ['name text not null unique'] },
  // ---- named lists ----
  { name: 'countries', columns: ['name text not null', 'code text not null', ...STAMPS] },
  {
    name: 'business_hour_contracts',
    columns: ['name text not null', 'schedule jsonb', 'timezone text', ...STAMPS],
  },
  {
    name: 'slas',
    columns: [
      'name text not null',
      'description text',
      'response_time integer',
      'resolution_time integer',
      ref('business_hour_contract_id', 'business_hour_contracts'),
      ...STAMPS,
    ],
  },
  { name: 'categories', columns: ['name text not null', 'description text', ...STAMPS] },
  {
    name: 'ticket_statuses',
    columns: [
      'name text not null',
      'name_client text not null',
      'style text',
      'style_client text',
      'internal_type integer not null',
      '"order" integer not null default 0',
      ...STAMPS,
    ],
  },
  {
    name: 'priorities',
    columns: ['label text not null', 'style text', '"order" integer not null default 0', ...STAMPS],
  },
  { name: 'ticket_types', columns: ['name text not null', ...STAMPS] },
  { name: 'ticket_sources', columns: ['name text not null', ...STAMPS] },
  {
    name: 'locations',
    columns: ['name text not null', 'address text', 'postal_code text', 'city text', ...STAMPS],
  },
  { name: 'asset_categories', columns: ['name text not null', ...STAMPS] },
  {
    name: 'asset_statuses',
    columns: ['name text not null', 'internal_type integer not null', 'style text', ...STAMPS],
  },
  {
    name: 'activities',
    columns: [
      'name text not null',
      'is_billable boolean not null default false',
      `hourly_rate ${MONEY}`,
      ...STAMPS,
    ],
  },
  { name: 'services', columns: ['name text not null', 'description text', ...STAMPS] },
  {
    name: 'prepaid_cards',
    columns: [
      'description text not null',
      `hours ${QUANTITY} not null`,
      `price ${MONEY} not null`,
      `quantity ${QUANTITY} not null default 1`,
      ...STAMPS,
    ],
  },
  {
    name: 'products',
    columns: [
      'product_code text not null',
      'product_name text not null',
      'description text',
      'unit text',
      `price ${MONEY} not null`,
      `purchase_price ${MONEY}`,
      'vat_percentage numeric(5,2) not null default 21',
      'archived_at timestamptz',
      ...STAMPS,
    ],
  },
  // ---- companies and people ----
  {
    name: 'companies',
    columns: [
      'name text not null',
      'address_1 text',
      'postal_code text',
      'city text',
      ref('country_id', 'countries'),
      'phone text',
      'email text',
      ref('sla_id', 'slas'),
      'archived_at timestamptz',
      ...STAMPS,
    ],
  },
  {
    // Operators (is_staff) and clients: one table, two resources.
    name: 'users',
    columns: [
      'first_name text not null',
      'last_name text not null',
      `full_name text generated always as (first_name || ' ' || last_name) stored not null`,
      'email text',
      'password_hash text',
      // 0 client, 1 first line, 2 second line.
      'is_operator integer not null default 0',
      'is_staff boolean not null default false',
      ref('role_id', 'roles'),
      'acronym text',
      'phone text',
      'archived_at timestamptz',
      // Per-user module flags, e.g. "invoice_pdf_export".
      `modules jsonb not null default '[]'`,
      // The operator's current login session (one session per operator).
      'session_id text',
      ...STAMPS,
    ],
  },
  {
    name: 'company_user',
    columns: [
      ref('company_id', 'companies', { required: true }),
      ref('user_id', 'users', { required: true }),
      CREATED,
      'unique (company_id, user_id)',
    ],
  },
  {
    name: 'category_user',
    tenant: false,
    id: 'none',
    columns: [
      ref('user_id', 'users', { required: true }),
      ref('category_id', 'categories', { required: true }),
      'primary key (user_id, category_id)',
    ],
  },
  {
    name: 'permission_role',
    tenant: false,
    id: 'none',
    columns: [
      ref('role_id', 'roles', { required: true }),
      ref('permission_id', 'permissions', { required: true }),
      'primary key (role_id, permission_id)',
    ],
  },
  // ---- assets ----
  {
    name: 'assets',
    columns: [
      'name text not null',
      'description text',
      'serial_number text',
      'tracking_number text',
      'warranty_until date',
      'purchase_date date',
      ref('company_id', 'companies'),
      ref('client_id', 'users'),
      ref('location_id', 'locations'),
      ref('operator_id', 'users'),
      ref('asset_status_id', 'asset_statuses'),
      ...STAMPS,
    ],
  },
  {
    name: 'asset_category',
    tenant: false,
    id: 'none',
    columns: [
      ref('asset_id', 'assets', { required: true }),
      ref('asset_category_id', 'asset_categories', { required: true }),
      'primary key (asset_id, asset_category_id)',
    ],
  },
  // ---- tickets ----
  {
    name: 'ticket_groups',
    columns: [
      'name text not null',
      'description text',
      ref('company_id', 'companies'),
      'archived_at timestamptz',
      ...STAMPS,
    ],
  },
  {
    // Tickets and ticket templates (is_template): one table, two resources. Templates have no reference.
    name: 'tickets',
    columns: [
      'reference text',
      'description text not null',
      'stage text',
      ref('priority_id', 'priorities'),
      ref('status_id', 'ticket_statuses', { required: true, onDelete: 'restrict' }),
      ref('company_id', 'companies'),
      ref('client_id', 'users'),
      ref('operator_id', 'users'),
      ref('ticket_group_id', 'ticket_groups'),
      ref('ticket_type_id', 'ticket_types'),
      ref('ticket_source_id', 'ticket_sources'),
      ref('category_id', 'categories'),
      ref('sla_id', 'slas'),
      ref('asset_id', 'assets'),
      'deadline timestamptz',
      'is_template boolean not null default false',
      'resolved_at timestamptz',
      ...STAMPS,
    ],
  },
  {
    // The owner is polymorphic (morphable_type: ticket, asset, company, user), so it has no foreign key.
    name: 'messages',
    columns: [
      'message text not null',
      'description text',
      'is_from_client boolean not null default false',
      'visible_to_client boolean not null default false',
      'morphable_type text not null',
      'morphable_id integer not null',
      `type text not null default 'normal'`,
      'data jsonb',
      ref('activity_id', 'activities'),
      ref('actor_id', 'users'),
      'original_email_from text',
      'send_to_client boolean not null default false',
      `"to" jsonb not null default '[]'`,
      `cc jsonb not null default '[]'`,
      `bcc jsonb not null default '[]'`,
      ...STAMPS,
    ],
  },
  {
    name: 'attachments',
    columns: [
      ref('message_id', 'messages', { onDelete: 'cascade' }),
      'name text not null',
      'extension text',
      'size integer not null default 0',
      'mime_type text',
      'is_embedded boolean not null default false',
      // Where the storage keeps the file; never part of the API.
      'path text not null',
      CREATED,
    ],
  },
  {
    name: 'custom_fields',
    columns: [
      'name text not null',
      'title text not null',
      'type integer not null',
      'morphable_type text not null',
      `options jsonb not null default '[]'`,
      'is_required boolean not null default false',
      '"order" integer not null default 0',
      ...STAMPS,
      'unique (tenant_id, morphable_type, name)',
    ],
  },
  {
    name: 'custom_values',
    columns: [
      ref('custom_field_id', 'custom_fields', { required: true }),
      'morphable_type text not null',
      'morphable_id integer not null',
      'value text',
      ...STAMPS,
      'unique (custom_field_id, morphable_type, morphable_id)',
    ],
  },
  // ---- contracts and time ----
  {
    name: 'contracts',
    columns: [
      'name text not null',
      'description text',
      ref('client_id', 'users'),
      ref('service_id', 'services'),
      // 'none' is a prepaid card; otherwise the hours (quantity) renew every period.
      'period text not null',
      `quantity ${QUANTITY} not null default 0`,
      'minutes_remaining integer not null default 0',
      'start_date date not null',
      'end_date date',
      ...STAMPS,
    ],
  },
  {
    name: 'company_contract',
    tenant: false,
    id: 'none',
    columns: [
      ref('company_id', 'companies', { required: true }),
      ref('contract_id', 'contracts', { required: true }),
      'primary key (company_id, contract_id)',
    ],
  },
  {
    name: 'contract_periods',
    columns: [
      ref('contract_id', 'contracts', { required: true }),
      'period_start date not null',
      'period_end date',
      'minutes_total integer not null default 0',
      'registered_time integer not null default 0',
      'minutes_remaining integer not null default 0',
      ...STAMPS,
    ],
  },
  // ---- sales ----
  {
    name: 'deals',
    columns: [
      'description text not null',
      ref('company_id', 'companies'),
      ref('client_id', 'users'),
      ref('operator_id', 'users'),
      `amount ${MONEY}`,
      'expected_close_date date',
      'closed_at timestamptz',
      ...STAMPS,
    ],
  },
  {
    name: 'projects',
    columns: [
      'name text not null',
      'description text',
      ref('company_id', 'companies'),
      ref('deal_id', 'deals'),
      ref('operator_id', 'users'),
      'start_date date',
      'end_date date',
      'archived_at timestamptz',
      ...STAMPS,
    ],
  },
  {
    name: 'quotes',
    columns: [
      'name text not null',
      'description text',
      'status_id integer not null default 1',
      ref('deal_id', 'deals'),
      ref('company_id', 'companies'),
      ref('client_id', 'users'),
      ref('operator_id', 'users'),
      `total ${MONEY} not null default 0`,
      'valid_until date',
      'sent_at timestamptz',
      'signed_name text',
      'signed_note text',
      // The accepting client's signature (an image data URL); the PDF shows it, the API does not.
      'signature text',
      'accepted_at timestamptz',
      'declined_at timestamptz',
      ...STAMPS,
    ],
  },
  {
    name: 'subscriptions',
    columns: [
      'description text not null',
      ref('company_id', 'companies'),
      'period text not null',
      'periods integer not null default 1',
      `total ${MONEY} not null default 0`,
      `mrr ${MONEY} not null default 0`,
      'billing_start_date date not null',
      'start_period date',
      'end_period date',
      'next_billing_date date',
      'termination_date date',
      'direct_debit boolean not null default false',
      ...STAMPS,
    ],
  },
  {
    // The statuses of the specification, the same for every tenant: ids are fixed, rows inserted below.
    name: 'invoice_statuses',
    tenant: false,
    id: 'fixed',
    columns: ['name text not null', 'style text'],
  },
  {
    name: 'invoices',
    columns: [
      ref('company_id', 'companies', { required: true, onDelete: 'restrict' }),
      'external_id text',
      'code text',
      'reference text',
      `amount_excl ${MONEY} not null default 0`,
      `amount_incl ${MONEY} not null default 0`,
      'date date not null',
      'due_date date',
      'status_id integer not null default 1 references invoice_statuses(id)',
      ...STAMPS,
    ],
  },
  ...['quote', 'subscription', 'invoice'].map((parent): Table => ({
    name: `${parent}_lines`,
    columns: [
      ref(`${parent}_id`, `${parent}s`, { required: true }),
      ref('product_id', 'products'),
      'description text not null',
      `quantity ${QUANTITY} not null`,
      `price ${MONEY} not null`,
      'vat_percentage numeric(5,2) not null default 21',
      `total ${MONEY} not null default 0`,
      '"order" integer not null default 0',
      ...STAMPS,
    ],
  })),
  {
    name: 'time_registrations',
    columns: [
      ref('ticket_id', 'tickets'),
      ref('contract_period_id', 'contract_periods'),
      ref('activity_id', 'activities'),
      ref('operator_id', 'users'),
      'description text',
      'time_spent integer not null',
      'time_spent_rounded integer not null default 0',
      'executed_at timestamptz not null',
      ref('invoice_id', 'invoices'),
      ...STAMPS,
    ],
  },
  {
    name: 'used_products',
    columns: [
      ref('company_id', 'companies'),
      ref('project_id', 'projects'),
      ref('quote_id', 'quotes'),
      ref('ticket_id', 'tickets'),
      ref('product_id', 'products'),
      'description text not null',
      `quantity ${QUANTITY} not null`,
      `price ${MONEY} not null`,
      `total ${MONEY} not null default 0`,
      'invoice_moment integer not null',
      'type integer not null',
      ref('invoice_id', 'invoices'),
      ...STAMPS,
    ],
  },
  // ---- per-user settings ----
  {
    // user_id null: a preset for every user of the tenant.
    name: 'table_presets',
    columns: [
      ref('user_id', 'users', { onDelete: 'cascade' }),
      'label text not null',
      'styling text',
      'type text not null',
      'columns_config text',
      'order_config text',
      'filter_config text',
      'pagination_config text',
      '"order" integer not null default 0',
      'is_default boolean not null default false',
      ...STAMPS,
    ],
  },
  {
    name: 'settings_views',
    columns: [
      ref('user_id', 'users', { onDelete: 'cascade' }),
      'label text not null',
      'type text not null',
      '"order" integer not null default 0',
      'is_default boolean not null default false',
      ...STAMPS,
    ],
  },
  {
    name: 'user_configs',
    columns: [
      ref('user_id', 'users', { required: true }),
      'name text not null',
      'value text',
      ...STAMPS,
      'unique (user_id, name)',
    ],
  },
  {
    name: 'tenant_configs',
    columns: ['name text not null', 'value text', ...STAMPS, 'unique (tenant_id, name)'],
  },
  // ---- authentication ----
  {
    name: 'refresh_tokens',
    columns: [
      ref('user_id', 'users', { required: true }),
      // Rotation keeps the family; a reused token revokes the whole family.
      'family text not null',
      'token_hash text not null unique',
      'session_id text',
      'expires_at timestamptz not null',
      'used_at timestamptz',
      'revoked_at timestamptz',
      CREATED,
    ],
  },
  {
    // A link in an e-mail that opens exactly one record (a quote).
    name: 'record_tokens',
    columns: [
      'resource text not null',
      'record_id integer not null',
      'token_hash text not null unique',
      'expires_at timestamptz',
      CREATED,
    ],
  },
];

interface Index {
  table: string;
  columns: string[];
  unique?: boolean;
  where?: string;
}

const byName = (table: string, ...fks: string[]): Index[] =>
  fks.map((fk) => ({ table, columns: ['tenant_id', fk] }));
const sorted = (table: string, ...columns: string[]): Index => ({
  table,
  columns: ['tenant_id', ...columns],
});

const NAMED_LISTS = [
  'roles',
  'countries',
  'business_hour_contracts',
  'slas',
  'categories',
  'ticket_types',
  'ticket_sources',
  'locations',
  'asset_categories',
  'asset_statuses',
  'activities',
  'services',
  'ticket_groups',
  'contracts',
  'projects',
];

const INDEXES: Index[] = [
  // Default sorts of lists ordered by name.
  ...NAMED_LISTS.map((t) => sorted(t, 'name', 'id')),
  ...[
    'ticket_statuses',
    'priorities',
    'custom_fields',
    'quote_lines',
    'subscription_lines',
    'invoice_lines',
  ].map((t) => sorted(t, '"order"', 'id')),
  sorted('prepaid_cards', 'hours', 'id'),
  sorted('products', 'product_name', 'id'),
  sorted('attachments', 'id'),
  sorted('custom_values', 'id'),
  sorted('user_configs', 'name', 'id'),
  { table: 'company_user', columns: ['tenant_id', 'company_id', 'user_id'] },

  // users: operators and clients, told apart by is_staff.
  sorted('users', 'is_staff', 'full_name', 'id'),
  { table: 'users', columns: ['tenant_id', 'lower(email)'], unique: true },
  ...byName('users', 'role_id'),
  ...byName('company_user', 'user_id'),
  { table: 'category_user', columns: ['category_id'] },
  { table: 'permission_role', columns: ['permission_id'] },
  { table: 'asset_category', columns: ['asset_category_id'] },
  { table: 'company_contract', columns: ['contract_id'] },

  sorted('companies', 'name', 'id'),
  ...byName('companies', 'country_id', 'sla_id'),
  ...byName('slas', 'business_hour_contract_id'),

  // tickets (and templates)
  sorted('tickets', 'updated_at desc', 'id desc'),
  sorted('tickets', 'company_id', 'updated_at desc', 'id desc'),
  { table: 'tickets', columns: ['tenant_id', 'description', 'id'], where: 'is_template' },
  { table: 'tickets', columns: ['tenant_id', 'reference'], unique: true },
  ...byName(
    'tickets',
    'priority_id',
    'status_id',
    'client_id',
    'operator_id',
    'ticket_group_id',
    'ticket_type_id',
    'ticket_source_id',
    'category_id',
    'sla_id',
    'asset_id',
  ),
  sorted('ticket_groups', 'company_id', 'name', 'id'),

  // messages and their attachments
  sorted('messages', 'created_at', 'id'),
  { table: 'messages', columns: ['morphable_type', 'morphable_id', 'created_at'] },
  ...byName('messages', 'activity_id', 'actor_id'),
  ...byName('attachments', 'message_id'),
  ...byName('custom_values', 'custom_field_id'),
  { table: 'custom_values', columns: ['morphable_type', 'morphable_id'] },

  // assets
  sorted('assets', 'name', 'id'),
  sorted('assets', 'company_id', 'name', 'id'),
  ...byName('assets', 'client_id', 'location_id', 'operator_id', 'asset_status_id'),

  // contracts and time
  ...byName('contracts', 'client_id', 'service_id'),
  sorted('contract_periods', 'period_start desc', 'id desc'),
  sorted('contract_periods', 'contract_id', 'period_start desc'),
  sorted('time_registrations', 'executed_at desc', 'id desc'),
  ...byName(
    'time_registrations',
    'ticket_id',
    'contract_period_id',
    'activity_id',
    'operator_id',
    'invoice_id',
  ),

  // sales
  sorted('deals', 'updated_at desc', 'id desc'),
  sorted('deals', 'company_id', 'updated_at desc', 'id desc'),
  ...byName('deals', 'client_id', 'operator_id'),
  sorted('projects', 'company_id', 'name', 'id'),
  ...byName('projects', 'deal_id', 'operator_id'),
  sorted('quotes', 'name', 'id'),
  sorted('quotes', 'company_id', 'name', 'id'),
  ...byName('quotes', 'deal_id', 'client_id', 'operator_id'),
  sorted('quote_lines', 'quote_id', '"order"', 'id'),
  ...byName('quote_lines', 'product_id'),
  sorted('subscriptions', 'next_billing_date', 'id'),
  sorted('subscriptions', 'company_id', 'next_billing_date', 'id'),
  sorted('subscription_lines', 'subscription_id', '"order"', 'id'),
  ...byName('subscription_lines', 'product_id'),
  sorted('invoices', 'date desc', 'id desc'),
  sorted('invoices', 'company_id', 'date desc', 'id desc'),
  ...byName('invoices', 'status_id'),
  sorted('invoice_lines', 'invoice_id', '"order"', 'id'),
  ...byName('invoice_lines', 'product_id'),
  sorted('used_products', 'created_at desc', 'id desc'),
  sorted('used_products', 'company_id', 'created_at desc', 'id desc'),
  ...byName('used_products', 'project_id', 'quote_id', 'ticket_id', 'product_id', 'invoice_id'),

  // per-user settings
  sorted('table_presets', '"order"', 'id'),
  sorted('table_presets', 'user_id', '"order"', 'id'),
  sorted('settings_views', '"order"', 'id'),
  sorted('settings_views', 'user_id', '"order"', 'id'),
  ...byName('user_configs', 'user_id'),

  // authentication
  { table: 'refresh_tokens', columns: ['family'] },
  { table: 'refresh_tokens', columns: ['user_id'] },
  { table: 'record_tokens', columns: ['tenant_id', 'resource', 'record_id'] },
];

/** Searched with ILIKE '%…%' (x-search): trigram indexes keep that off a sequential scan. */
const TRIGRAM: [table: string, column: string][] = [
  ['tickets', 'reference'],
  ['tickets', 'description'],
  ['companies', 'name'],
];

const INVOICE_STATUSES: [id: number, name: string, style: string][] = [
  [1, 'Verzonden', 'info'],
  [2, 'Openstaand', 'warning'],
  [3, 'Openstaand (herinnerd)', 'warning'],
  [4, 'Betaald', 'success'],
  [8, 'Creditfactuur', 'secondary'],
  [9, 'Verlopen', 'error'],
];

function indexName(index: Index): string {
  const words = index.columns.map((c) => c.replace(/\b(desc|asc)\b/g, '').replace(/[^a-z0-9_]+/gi, ''));
  const base = `${index.table}_${words.join('_')}${index.where ? '_partial' : ''}`.replace(/_+/g, '_');
  return `${base.slice(0, 59)}_${index.unique ? 'key' : 'idx'}`;
}

async function exec(db: Kysely<any>, statement: string): Promise<void> {
  await sql.raw(statement).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await exec(
    db,
    `create table tenants (
      id serial primary key,
      slug text not null unique,
      name text not null,
      setup_completed boolean not null default true,
      trial_ends_at timestamptz,
      created_at timestamptz not null default now()
    )`,
  );
  for (const table of TABLES) {
    const columns = [
      ...{ serial: ['id serial primary key'], fixed: ['id integer primary key'], none: [] }[
        table.id ?? 'serial'
      ],
      ...(table.tenant === false ? [] : [TENANT]),
      ...table.columns,
    ];
    await exec(db, `create table ${table.name} (\n  ${columns.join(',\n  ')}\n)`);
  }

  const names = new Set<string>();
  for (const index of INDEXES) {
    const name = indexName(index);
    if (names.has(name)) throw new Error(`duplicate index name ${name}`);
    names.add(name);
    await exec(
      db,
      `create ${index.unique ? 'unique ' : ''}index ${name} on ${index.table} (${index.columns.join(', ')})${
        index.where ? ` where ${index.where}` : ''
      }`,
    );
  }

  // An extension belongs to the database, not to a schema: install it in public when that exists (tests work
  // in throw-away schemas, and dropping one must not take the extension along), and qualify its operator
  // class with wherever it lives.
  const { rows: publicSchema } = await sql`select 1 from pg_namespace where nspname = 'public'`.execute(db);
  await exec(db, `create extension if not exists pg_trgm${publicSchema.length ? ' with schema public' : ''}`);
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const trgmSchema = rows[0]!.schema.replace(/"/g, '""');
  for (const [table, column] of TRIGRAM) {
    await exec(
      db,
      `create index ${table}_${column}_trgm_idx on ${table} using gin (${column} "${trgmSchema}".gin_trgm_ops)`,
    );
  }

  await sql`insert into invoice_statuses (id, name, style) values ${sql.join(
    INVOICE_STATUSES.map(([id, name, style]) => sql`(${id}, ${name}, ${style})`),
  )}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [...TABLES].reverse()) await exec(db, `drop table if exists ${table.name} cascade`);
  await exec(db, 'drop table if exists tenants cascade');
}
