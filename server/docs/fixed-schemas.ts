import type { Registry } from '../schema/registry.ts';
import { PUBLIC, type Security } from './components.ts';
import { schemaRef, type Schema } from './refs.ts';
import { ERROR_BODIES, errorResponses, RECORD_ERRORS } from './error-answers.ts';
import { queryString } from './resource-schemas.ts';

/**
 * The route schemas of the calls that are not resources: system status and health, metrics, the preset
 * counts and the documentation of the auth calls. Kept out of the route files where they would
 * outweigh the handlers.
 */

export function presetCountSchema(registry: Registry): Schema {
  const listable = [...registry.resources.values()]
    .filter((r) => r.actions.includes('index'))
    .map((r) => r.name)
    .sort();
  return {
    tags: ['presets'],
    operationId: 'presetsResultCount',
    summary: 'Count the rows of several builder queries at once',
    description:
      'Each entry of `builders` is `{id, builder}`, sent in the same bracket style as a list query ' +
      '(`builders[0][id]=3&builders[0][builder][0][where][0]=status_id&…`); the same whitelist applies.',
    params: {
      type: 'object',
      required: ['resource'],
      properties: {
        resource: {
          description: 'A resource that has a list.',
          ...(listable.length ? { type: 'string', enum: listable } : { type: 'string' }),
        },
      },
    },
    querystring: queryString({
      builders: {
        type: 'array',
        description:
          'The presets to count, at most 20: one JSON-encoded parameter, `builders=[{"id":1,"builder":[…]}]`, ' +
          'or the bracket style `builders[0][id]=1&builders[0][builder][0][where][0]=…`.',
        maxItems: 20,
        items: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: ['integer', 'string'], maxLength: 50 },
            // Without conditions (qs leaves an empty list out), a preset counts every row.
            builder: schemaRef('Builder'),
          },
        },
      },
    }),
    response: {
      200: { description: 'One count per preset.', type: 'array', items: schemaRef('PresetCount') },
      ...errorResponses(...RECORD_ERRORS),
    },
  };
}

export const HEALTH_SCHEMA: Schema = {
  tags: ['system'],
  operationId: 'health',
  summary: 'Liveness and readiness',
  security: PUBLIC,
  response: {
    200: { description: 'The process runs and the database answers.', ...schemaRef('Health') },
    503: { description: 'The database does not answer.', ...schemaRef('Health') },
  },
};

export const LIVENESS_SCHEMA: Schema = {
  tags: ['system'],
  operationId: 'healthLive',
  summary: 'Liveness: the process answers',
  description: 'Touches no database: a slow database is no reason to restart a process.',
  security: PUBLIC,
  response: { 200: { description: 'The process answers.', ...schemaRef('Liveness') } },
};

export const READINESS_SCHEMA: Schema = {
  tags: ['system'],
  operationId: 'healthReady',
  summary: 'Readiness for a load balancer',
  description:
    'Ready when the database answers, its migrations are done and the process is not shutting down. ' +
    'After SIGTERM this answers 503 (with `Retry-After`) while the process still serves for `SHUTDOWN_DRAIN_MS`.',
  security: PUBLIC,
  response: {
    200: { description: 'Send traffic here.', ...schemaRef('Readiness') },
    503: { description: 'Send no traffic here; `failed` says why.', ...schemaRef('Readiness') },
  },
};

export const METRICS_SCHEMA: Schema = {
  tags: ['system'],
  operationId: 'metrics',
  summary: 'Prometheus metrics of this instance',
  description:
    'The counters of the instance that answers, in Prometheus text format 0.0.4: requests and their ' +
    'latency by route pattern and status, the database pool, statement timeouts, queue depths, failed ' +
    'sign-ins and rate-limit refusals, Node process metrics; every series labelled `instance_id`. ' +
    'Off (404) unless `METRICS_TOKEN` is set; needs no tenant host.',
  security: [{ metricsToken: [] }] as Security,
  produces: ['text/plain; version=0.0.4; charset=utf-8'],
  response: {
    200: { description: 'The metrics.', type: 'string' },
    401: { description: 'No token, or not the `METRICS_TOKEN`.', ...ERROR_BODIES.Error },
    404: { description: '`METRICS_TOKEN` is not set.', ...ERROR_BODIES.Error },
  },
};

const REFRESH_COOKIE = 'Sets the rotating refresh token as an httpOnly cookie (`Set-Cookie`).';

/** operationId, summary, description and security of the auth calls (server/auth/*.ts). */
export const AUTH_DOCS = {
  status: {
    operationId: 'systemStatus',
    summary: 'Status of the tenant of this host',
    security: PUBLIC,
  },
  sso: {
    operationId: 'ssoStatus',
    summary: 'Whether Microsoft single sign-on is configured, and where it starts',
    security: PUBLIC,
  },
  login: {
    operationId: 'authLogin',
    summary: 'Sign in',
    description:
      'With `{username, password}`, or with `{code, portal: true}` after the single sign-on redirect. ' +
      `Returns the user and an access token. ${REFRESH_COOKIE} ` +
      'A password login also sets the `known_device` cookie (HttpOnly, path `/api/auth/login`): sent ' +
      "back, it exempts that account's logins from this browser from the tenant's budget of failed " +
      'logins. 429 with `Retry-After` when a limit refuses the attempt or the password checks are busy.',
    security: PUBLIC,
  },
  refresh: {
    operationId: 'authRefresh',
    summary: 'Rotate the refresh token',
    description:
      'Uses the refresh-token cookie, not a bearer token. A refresh token that was used before revokes its ' +
      `whole family; the caller then has to sign in again. ${REFRESH_COOKIE}`,
    security: PUBLIC,
  },
  logout: {
    operationId: 'authLogout',
    summary: 'Sign out',
    description:
      'Ends the session of the refresh-token cookie (or, without one, of the bearer token) and clears the cookie.',
    // The bearer token is optional here: the cookie alone is enough.
    security: [{}, { bearerAuth: [] }] as Security,
  },
  me: { operationId: 'authMe', summary: 'The signed-in user and their lists' },
  saveConfigs: { operationId: 'authMeUpdate', summary: "Save the signed-in user's settings" },
  forgot: {
    operationId: 'passwordForgot',
    summary: 'Mail a password reset link',
    description: 'The same answer whether or not the address is known.',
    security: PUBLIC,
  },
  reset: {
    operationId: 'passwordReset',
    summary: 'Set a new password with a reset link token',
    description: 'The password is changed; every session of the user ends.',
    security: PUBLIC,
  },
} satisfies Record<string, Schema>;
