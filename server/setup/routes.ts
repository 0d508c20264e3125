import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import { HttpError, ValidationError } from '../http/errors.ts';
import { serverText } from '../../common/server-texts.ts';
import { tenantSlugFromHost } from '../tenancy/host.ts';
import { createTenant, LANGUAGES, SETUP_DONE, type NewMailbox } from '../tenancy/create-tenant.ts';
import { newPasswordProblems } from './password.ts';
import { CheckBudget, sendTestMail, testMailbox } from './checks.ts';
import { errorResponses } from '../docs/error-answers.ts';

/** No login: the first run has nobody to sign in yet. */
const PUBLIC: [] = [];
const SETUP_OVER = {
  description: 'A tenant exists already: the first setup is over.',
  type: 'object',
  properties: { message: { type: 'string' } },
} as const;

/*
 * The first run (issue 32, SPEC 2 guard 1): while the installation has no tenant, the back office shows
 * the setup page, which reads GET /api/setup and sends POST /api/setup. These routes need no tenant and
 * no login; every one but GET answers 409 once a tenant exists, so the page is used once and a desk in
 * use offers nothing here. Until then whoever reaches the server first may set it up: docs/production.md
 * says to keep it on 127.0.0.1 (HOST) or use `npm run setup` instead.
 */

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;

const mailboxSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['host', 'port', 'tls', 'username', 'password'],
  properties: {
    host: { type: 'string', minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.-]+$' },
    port: { type: 'integer', minimum: 1, maximum: 65535 },
    tls: { type: 'boolean' },
    username: text(255),
    password: text(1024),
  },
} as const;

const setupBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'language', 'admin'],
  properties: {
    name: text(120),
    language: { type: 'string', enum: [...LANGUAGES] },
    admin: {
      type: 'object',
      additionalProperties: false,
      required: ['first_name', 'last_name', 'email', 'password'],
      properties: {
        first_name: text(100),
        last_name: text(100),
        email: { type: 'string', format: 'email', maxLength: 255 },
        password: { type: 'string', maxLength: 1024 },
      },
    },
    mailbox: mailboxSchema,
  },
} as const;

interface SetupBody {
  name: string;
  language: (typeof LANGUAGES)[number];
  admin: { first_name: string; last_name: string; email: string; password: string };
  mailbox?: NewMailbox;
}

const checkAnswer = {
  description: 'Whether the test succeeded, and what the server at the other end said.',
  type: 'object',
  required: ['ok'],
  properties: {
    ok: { type: 'boolean' },
    messages: { type: 'integer', description: 'The messages in the INBOX (the mailbox test).' },
    file: { type: 'boolean', description: 'SMTP_URL is not set: the mail was written under DATA_DIR/mail.' },
    error: { type: 'string', description: 'What went wrong, as the mail or IMAP server said it.' },
  },
} as const;

export async function setupRoutes(
  app: FastifyInstance,
  { db, registry, config }: { db: Db; registry: Registry; config: Config },
): Promise<void> {
  const budget = new CheckBudget();
  const hasTenant = async () => !!(await db.selectFrom('tenants').select('id').limit(1).executeTakeFirst());
  /** The tests and the setup itself: only while there is no tenant, the tests within the budget. */
  const whileNoTenant = async () => {
    if (await hasTenant()) throw new HttpError(409, SETUP_DONE);
  };
  const withinBudget = () => {
    if (!budget.take()) throw new HttpError(429, serverText('setup_try_later'));
  };

  app.get(
    '/api/setup',
    {
      schema: {
        tags: ['system'],
        operationId: 'setupState',
        summary: 'Whether this installation still needs its first setup',
        security: PUBLIC,
        response: {
          200: {
            description: 'Whether the setup is needed, and what it would create.',
            type: 'object',
            properties: {
              needed: { type: 'boolean' },
              tenant: { type: ['string', 'null'], description: 'The tenant this address would create.' },
              smtp: { type: 'boolean', description: 'Whether SMTP_URL is set.' },
              password_min_length: { type: 'integer' },
            },
          },
        },
      },
    },
    async (request) => ({
      needed: !(await hasTenant()),
      tenant: tenantSlugFromHost(request.host, config.defaultTenant) ?? null,
      smtp: !!config.smtpUrl,
      password_min_length: config.passwordMinLength,
    }),
  );

  app.post<{ Body: SetupBody }>(
    '/api/setup',
    {
      schema: {
        tags: ['system'],
        operationId: 'setupCreate',
        summary: 'Creates the first tenant and its first second-line operator (once)',
        security: PUBLIC,
        body: setupBody,
        response: {
          201: {
            description: 'The tenant and its operator, who signs in with POST /api/auth/login.',
            type: 'object',
            properties: { tenant: { type: 'string' }, user_id: { type: 'integer' } },
          },
          409: SETUP_OVER,
          ...errorResponses(422, 503),
        },
      },
    },
    async (request, reply) => {
      await whileNoTenant();
      const slug = tenantSlugFromHost(request.host, config.defaultTenant);
      if (!slug) throw new HttpError(422, serverText('setup_slug_invalid'));
      const { admin } = request.body;
      const problems = newPasswordProblems(admin.password, admin.email, config.passwordMinLength);
      if (problems) throw new ValidationError({ 'admin.password': problems });
      const passwordHash = await app.passwordHashing.hash(admin.password, 'anonymous');
      const created = await createTenant(
        db,
        registry,
        {
          name: request.body.name.trim(),
          slug,
          language: request.body.language,
          admin: {
            firstName: admin.first_name.trim(),
            lastName: admin.last_name.trim(),
            email: admin.email.trim().toLowerCase(),
            passwordHash,
          },
          mailbox: request.body.mailbox,
        },
        { firstOnly: true },
      );
      app.tenants.forget(slug);
      request.log.info({ tenant: slug }, 'first tenant set up');
      return reply.code(201).send({ tenant: slug, user_id: created.userId });
    },
  );

  app.post<{ Body: { to: string; language: SetupBody['language'] } }>(
    '/api/setup/test-mail',
    {
      schema: {
        tags: ['system'],
        operationId: 'setupTestMail',
        summary: 'Sends a test mail through the outgoing mail (before the first setup only)',
        security: PUBLIC,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['to', 'language'],
          properties: {
            to: { type: 'string', format: 'email', maxLength: 255 },
            language: { type: 'string', enum: [...LANGUAGES] },
          },
        },
        response: { 200: checkAnswer, 409: SETUP_OVER, ...errorResponses(422, 429) },
      },
    },
    async (request) => {
      await whileNoTenant();
      withinBudget();
      return sendTestMail(config, request.body.to, request.body.language, request.log);
    },
  );

  app.post<{ Body: NewMailbox }>(
    '/api/setup/test-mailbox',
    {
      schema: {
        tags: ['system'],
        operationId: 'setupTestMailbox',
        summary: 'Logs in to a mailbox and counts its INBOX (before the first setup only)',
        security: PUBLIC,
        body: mailboxSchema,
        response: { 200: checkAnswer, 409: SETUP_OVER, ...errorResponses(422, 429) },
      },
    },
    async (request) => {
      await whileNoTenant();
      withinBudget();
      return testMailbox(request.body);
    },
  );
}
