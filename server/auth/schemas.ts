/** JSON Schemas of the auth and status routes: body validation, response shape, OpenAPI. */
import type { FastifyInstance } from 'fastify';

export const loginBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    username: { type: 'string', maxLength: 255 },
    // Bounded so a megabyte "password" cannot make argon2 the cheapest denial of service.
    password: { type: 'string', maxLength: 1024 },
    code: { type: 'string', maxLength: 4096 },
    portal: { type: 'boolean' },
  },
} as const;

export interface LoginBody {
  username?: string;
  password?: string;
  code?: string;
  portal?: boolean;
}

export const saveConfigsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['relationships'],
  properties: {
    relationships: {
      type: 'object',
      additionalProperties: false,
      required: ['configs'],
      properties: {
        configs: {
          type: 'array',
          maxItems: 100,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'value'],
            properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, value: {} },
          },
        },
      },
    },
  },
} as const;

export interface SaveConfigsBody {
  relationships: { configs: { name: string; value: unknown }[] };
}

const nullableString = { type: ['string', 'null'] } as const;

export const userSchema = {
  type: 'object',
  required: [
    'id',
    'first_name',
    'last_name',
    'full_name',
    'email',
    'is_operator',
    'acronym',
    'permissions_names',
    'modules',
    'configs',
    'categories',
    'companies',
  ],
  properties: {
    id: { type: 'integer' },
    first_name: nullableString,
    last_name: nullableString,
    full_name: nullableString,
    email: { type: 'string' },
    is_operator: { type: 'integer', enum: [0, 1, 2] },
    acronym: nullableString,
    permissions_names: { type: 'array', items: { type: 'string' } },
    modules: { type: 'array', items: { type: 'string' } },
    configs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'value'],
        properties: { name: { type: 'string' }, value: {} },
      },
    },
    categories: { type: 'array', items: { type: 'integer' } },
    companies: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          // The client's company role there (issue 39): what the portal offers; the server checks again.
          on_behalf: { type: 'boolean' },
          manage_access: { type: 'boolean' },
          grants_all: { type: 'boolean' },
          company_resources: { type: 'array', items: { type: 'string' } },
          own_resources: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
} as const;

/** A reference to one of AUTH_SCHEMAS (or the shared MessageResponse), as a route schema writes it. */
const ref = (name: keyof typeof AUTH_SCHEMAS) => ({ $ref: `${name}#` }) as const;

export const sessionSchema = {
  type: 'object',
  required: ['user', 'access_token', 'token_type', 'expires_in'],
  properties: {
    user: { $ref: 'AuthUser#' },
    access_token: { type: 'string' },
    token_type: { type: 'string', const: 'Bearer' },
    expires_in: { type: 'integer', description: 'Seconds until the access token expires.' },
    lists: {
      type: 'object',
      additionalProperties: true,
      description: 'Login only: the lists GET /auth/me answers, so an app starts without asking it.',
    },
  },
} as const;

/**
 * The answers that several auth calls share, as component schemas: the signed-in user (login, refresh,
 * me, saving settings), the session (login and refresh) and the `{message}` of logout and the password
 * calls. The docs plugin lists them among its components; authPlugin adds those that are missing, so
 * an app without the docs plugin (the auth tests' own) resolves them too.
 */
export const AUTH_SCHEMAS = {
  // Also the answer of a deletion and a queued export (server/docs/components.ts lists it once).
  AuthUser: userSchema,
  AuthSession: sessionSchema,
  MessageResponse: {
    type: 'object',
    required: ['message'],
    properties: { message: { type: 'string' } },
    additionalProperties: false,
  },
};

/** Adds the auth components that the app does not have yet (see AUTH_SCHEMAS). */
export function addAuthSchemas(app: FastifyInstance): void {
  for (const [$id, schema] of Object.entries(AUTH_SCHEMAS)) {
    if (!app.getSchema($id)) app.addSchema({ $id, ...schema });
  }
}

export const tokenResponse = ref('AuthSession');

export const meResponse = {
  type: 'object',
  required: ['user', 'lists'],
  properties: {
    user: ref('AuthUser'),
    // Arrays, or objects keyed by name (custom fields): each list is the resource's own record shape.
    lists: { type: 'object', additionalProperties: true },
  },
} as const;

export const userResponse = {
  type: 'object',
  required: ['user'],
  properties: { user: ref('AuthUser') },
} as const;

export const messageResponse = ref('MessageResponse');

export const ssoResponse = {
  type: 'object',
  required: ['enabled'],
  properties: {
    enabled: { type: 'boolean', description: 'Whether Microsoft single sign-on is configured.' },
    authorize_url: { type: 'string', description: 'Where the sign-in button sends the browser.' },
  },
} as const;

export const statusResponse = {
  type: 'object',
  required: ['setup_completed', 'trial_ends_in', 'tenant_name', 'tenant'],
  properties: {
    setup_completed: { type: 'boolean' },
    trial_ends_in: {
      type: ['integer', 'null'],
      description:
        'Whole days until the trial ends (floored), negative once it has ended; null without a trial.',
    },
    tenant_name: { type: 'string' },
    tenant: { type: 'string', description: 'The tenant slug (the subdomain).' },
  },
} as const;
