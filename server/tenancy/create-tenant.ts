import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import { syncPermissions } from '../db/seed/permissions.ts';
import { seedContext } from '../db/seed/demo/context.ts';
import { HttpError } from '../http/errors.ts';
import { encryptPassword } from '../mail/inbound/secret.ts';
import { serverText } from '../../common/server-texts.ts';
import { ROLE_NAMES, seedReferenceLists, seedTenantConfigs } from './reference-data.ts';

/*
 * A new tenant with its first second-line operator (issue 32): the first-run setup page, `npm run setup`
 * and `npm run tenant:create` all come here. The tenant gets every tenant's reference lists
 * (reference-data.ts), no demo data. What the caller checked (the password's rules) is not checked again.
 */

export const LANGUAGES = ['nl', 'en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface NewTenant {
  /** The organisation's name, shown in the portal's title and on documents. */
  name: string;
  /** The subdomain the tenant answers on; on a bare host the server's DEFAULT_TENANT. */
  slug: string;
  language: Language;
  admin: { firstName: string; lastName: string; email: string; passwordHash: string };
  /** A first mailbox to fetch support mail from (its password encrypted as the mailboxes resource does). */
  mailbox?: NewMailbox;
}

export interface NewMailbox {
  host: string;
  port: number;
  tls: boolean;
  username: string;
  password: string;
}

export interface CreatedTenant {
  tenantId: number;
  userId: number;
}

/** The first setup is over: a desk that has a tenant is never set up again this way (409). */
export const SETUP_DONE = serverText('setup_done');

/**
 * Creates the tenant, its reference lists and its first operator in one transaction. `firstOnly`: only
 * while the installation has no tenant at all (the setup page and `npm run setup`); two at once are
 * taken in turn by the table lock, and the second finds the first's tenant (409).
 */
export async function createTenant(
  db: Db,
  registry: Registry,
  input: NewTenant,
  { firstOnly }: { firstOnly: boolean },
): Promise<CreatedTenant> {
  return db.transaction().execute(async (trx) => {
    // SHARE ROW EXCLUSIVE conflicts with itself: a second setup waits here until the first commits.
    await sql`lock table tenants in share row exclusive mode`.execute(trx);
    if (firstOnly) {
      const any = await trx.selectFrom('tenants').select('id').limit(1).executeTakeFirst();
      if (any) throw new HttpError(409, SETUP_DONE);
    }
    const taken = await trx
      .selectFrom('tenants')
      .select('id')
      .where('slug', '=', input.slug)
      .executeTakeFirst();
    if (taken) throw new HttpError(409, serverText('tenant_slug_taken', { name: input.slug }));

    const tenant = await trx
      .insertInto('tenants')
      .values({ slug: input.slug, name: input.name, setup_completed: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tenantId = Number(tenant.id);
    await syncPermissions(trx, registry);
    const ctx = seedContext(trx, { passwordHash: input.admin.passwordHash }, tenantId);
    const lists = await seedReferenceLists(ctx);
    await seedTenantConfigs(ctx, lists, input.name);
    const { firstName, lastName, email, passwordHash } = input.admin;
    const [userId] = await ctx.list('users', [
      {
        first_name: firstName,
        last_name: lastName,
        email,
        password_hash: passwordHash,
        is_operator: 2,
        is_staff: true,
        role_id: lists.roles.get(ROLE_NAMES[0]),
        acronym: initials(firstName, lastName),
        modules: JSON.stringify([]),
      },
    ]);
    await ctx.list('user_configs', [{ user_id: userId, name: 'locale', value: input.language }]);
    if (input.mailbox) {
      const { password, ...box } = input.mailbox;
      await ctx.list('mailboxes', [
        {
          ...box,
          name: 'Support',
          password_encrypted: await encryptPassword(trx, tenantId, password),
          active: true,
          reply_to: box.username.includes('@') ? box.username : null,
        },
      ]);
    }
    return { tenantId, userId: userId! };
  });
}

/** 'Jan de Vries' → 'JDV': the acronym the thread shows beside an operator's messages. */
function initials(firstName: string, lastName: string): string {
  return `${firstName} ${lastName}`
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase())
    .join('')
    .slice(0, 4);
}
