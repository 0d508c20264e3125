import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { UserPayload } from '../../common/user.ts';
import { parseConfigValue } from './config-value.ts';
import { companyRolesOf, toCompanyRoles, type CompanyRole } from './company-roles.ts';

export type { UserPayload } from '../../common/user.ts';

/** What authentication needs of a user: identity, session state and the access it grants. */
export interface AuthUser {
  id: number;
  tenantId: number;
  isStaff: boolean;
  isOperator: 0 | 1 | 2;
  /** An operator's one current login session; null for clients and for a logged-out operator. */
  sessionId: string | null;
  permissions: string[];
  companyIds: number[];
  /** The client's role per company (issue 39). */
  companyRoles: readonly CompanyRole[];
  categoryIds: number[];
}

// The fragments below are correlated subqueries on `users as u`, so one statement loads a user with
// everything that hangs off it (one round trip per uncached request, see authenticate.ts).

/**
 * Permission names of the user's role. A role with grants_all holds every back-office permission
 * ('tenant.*') on top of what it lists, so new resources need no data migration for the admin role.
 */
function permissionNames(): RawBuilder<string[]> {
  return sql<string[]>`coalesce((
    select json_agg(p.name order by p.name)
    from permissions p
    join roles r on r.id = u.role_id and r.tenant_id = u.tenant_id
    where exists (select 1 from permission_role pr where pr.role_id = r.id and pr.permission_id = p.id)
       or (r.grants_all and p.name like 'tenant.%')
  ), '[]'::json)`;
}

function categoryIds(): RawBuilder<number[]> {
  return sql<number[]>`coalesce((
    select json_agg(cu.category_id order by cu.category_id) from category_user cu where cu.user_id = u.id
  ), '[]'::json)`;
}

function companyIds(): RawBuilder<number[]> {
  return sql<number[]>`coalesce((
    select json_agg(cu.company_id order by cu.company_id)
    from company_user cu where cu.user_id = u.id and cu.tenant_id = u.tenant_id
  ), '[]'::json)`;
}

/**
 * The client's companies, with what its role there lets the portal offer (issue 39): its abilities, and
 * what it sees company-wide (the portal offers sharing a ticket it sees so, not one shared with it) and
 * what only as its own (with the former: which screens the portal offers at all).
 */
function companies(): RawBuilder<UserPayload['companies']> {
  return sql<UserPayload['companies']>`coalesce((
    select json_agg(json_build_object('id', c.id, 'name', c.name,
      'on_behalf', coalesce(r.create_on_behalf, false), 'manage_access', coalesce(r.manage_access, false),
      'grants_all', coalesce(r.grants_all, false), 'company_resources', coalesce(r.company_resources, '[]'),
      'own_resources', coalesce(r.own_resources, '[]'))
      order by c.name, c.id)
    from company_user cu join companies c on c.id = cu.company_id and c.tenant_id = cu.tenant_id
    left join company_roles r on r.tenant_id = cu.tenant_id and r.id = coalesce(cu.company_role_id, (
      select d.id from company_roles d where d.tenant_id = cu.tenant_id and d.is_default limit 1))
    where cu.user_id = u.id and cu.tenant_id = u.tenant_id
  ), '[]'::json)`;
}

// user_configs.value is text holding JSON (POST /api/auth/me writes JSON.stringify of any value).
function configs(): RawBuilder<{ name: string; value: string | null }[]> {
  return sql<{ name: string; value: string | null }[]>`coalesce((
    select json_agg(json_build_object('name', uc.name, 'value', uc.value) order by uc.name)
    from user_configs uc where uc.user_id = u.id and uc.tenant_id = u.tenant_id
  ), '[]'::json)`;
}

function activeUser(db: Db, tenantId: number, userId: number) {
  return db
    .selectFrom('users as u')
    .where('u.id', '=', userId)
    .where('u.tenant_id', '=', tenantId)
    .where('u.archived_at', 'is', null);
}

/** The user object of the login and `me` answers; undefined when the user is gone or archived. */
export async function loadUserPayload(
  db: Db,
  tenantId: number,
  userId: number,
): Promise<UserPayload | undefined> {
  const row = await activeUser(db, tenantId, userId)
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.full_name',
      'u.email',
      'u.is_operator',
      'u.acronym',
      'u.modules',
      permissionNames().as('permissions_names'),
      configs().as('configs'),
      categoryIds().as('categories'),
      companies().as('companies'),
    ])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: Number(row.id),
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: row.full_name,
    email: row.email,
    is_operator: Number(row.is_operator) as 0 | 1 | 2,
    acronym: row.acronym,
    permissions_names: row.permissions_names,
    modules: Array.isArray(row.modules) ? (row.modules as string[]) : [],
    configs: row.configs.map((c: { name: string; value: string | null }) => ({
      name: c.name,
      value: parseConfigValue(c.value),
    })),
    categories: row.categories,
    companies: row.companies,
  };
}

/**
 * A user with the access the AuthContext needs, plus whether login session `sessionId` is still
 * alive: some refresh token of it is neither revoked nor expired. Logout and a reused refresh token
 * revoke the session's tokens, so this also ends the session's access tokens at once. Without a
 * session (the holder of a download link) the user alone, as it is now.
 */
export async function loadAuthUser(
  db: Db,
  tenantId: number,
  userId: number,
  sessionId: string | null,
): Promise<(AuthUser & { sessionAlive: boolean }) | undefined> {
  const now = new Date();
  const alive =
    sessionId === null
      ? sql<boolean>`false`
      : sql<boolean>`exists (
    select 1 from refresh_tokens rt
    where rt.user_id = u.id and rt.tenant_id = u.tenant_id and rt.session_id = ${sessionId}
      and rt.revoked_at is null and rt.expires_at > ${now}
  )`;
  const row = await activeUser(db, tenantId, userId)
    .select([
      'u.id',
      'u.tenant_id',
      'u.is_staff',
      'u.is_operator',
      'u.session_id',
      permissionNames().as('permissions'),
      companyIds().as('company_ids'),
      companyRolesOf().as('company_roles'),
      categoryIds().as('category_ids'),
      alive.as('session_alive'),
    ])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: Number(row.id),
    tenantId: Number(row.tenant_id),
    isStaff: Boolean(row.is_staff),
    isOperator: Number(row.is_operator) as 0 | 1 | 2,
    sessionId: row.session_id ?? null,
    permissions: row.permissions,
    companyIds: row.company_ids.map(Number),
    companyRoles: toCompanyRoles(row.company_roles),
    categoryIds: row.category_ids.map(Number),
    sessionAlive: Boolean(row.session_alive),
  };
}

/** The credentials row for a login by e-mail (case-insensitive, as the unique index). */
export async function findLoginUser(
  db: Db,
  tenantId: number,
  email: string,
): Promise<{ id: number; passwordHash: string | null; isStaff: boolean } | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'password_hash', 'is_staff'])
    .where('tenant_id', '=', tenantId)
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .where('archived_at', 'is', null)
    // A service account is no person: it acts through its API tokens only, never by a password.
    .where('service_account', '=', false)
    .executeTakeFirst();
  return row
    ? { id: Number(row.id), passwordHash: row.password_hash ?? null, isStaff: Boolean(row.is_staff) }
    : undefined;
}

/**
 * Stores a new hash of the same password (password-hashing.ts: today's parameters) unless the stored
 * one changed meanwhile (a reset or a new password won the race and stays).
 */
export async function replacePasswordHash(
  db: Db,
  tenantId: number,
  userId: number,
  previous: string,
  next: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: next })
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .where('password_hash', '=', previous)
    .execute();
}
