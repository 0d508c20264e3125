/**
 * Sign-ins under way (sso_flows): made by the start call, taken once by the callback. The row keeps the
 * PKCE verifier and the nonce on the server; the browser holds only a binding cookie, whose hash the row
 * keeps, so a callback address carried to another browser (a login CSRF) opens nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { Db } from '../../db/database.ts';

/** How long a sign-in may stay at the provider before its callback is refused. */
export const FLOW_TTL_MS = 10 * 60_000;

export type AppName = 'portal' | 'backoffice';

export interface Flow {
  providerId: number;
  state: string;
  nonce: string;
  codeVerifier: string;
  app: AppName;
  redirectUri: string;
  bindingHash: string;
  expiresAt: Date;
}

export const hashBinding = (binding: string) => createHash('sha256').update(binding).digest('hex');

/** A new binding value for a browser that has none (or a damaged one). */
export function newBinding(): string {
  return randomBytes(32).toString('base64url');
}

/** Stores a new flow for the provider and answers its state, nonce and verifier. */
export async function createFlow(
  db: Db,
  input: { tenantId: number; providerId: number; app: AppName; redirectUri: string; binding: string },
): Promise<Flow> {
  const flow: Flow = {
    providerId: input.providerId,
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
    app: input.app,
    redirectUri: input.redirectUri,
    bindingHash: hashBinding(input.binding),
    expiresAt: new Date(Date.now() + FLOW_TTL_MS),
  };
  // Flows never finished (the user closed the tab) go as new ones come: the table stays small.
  await db.deleteFrom('sso_flows').where('expires_at', '<', new Date()).execute();
  await db
    .insertInto('sso_flows')
    .values({
      tenant_id: input.tenantId,
      provider_id: flow.providerId,
      state: flow.state,
      nonce: flow.nonce,
      code_verifier: flow.codeVerifier,
      binding_hash: flow.bindingHash,
      app: flow.app,
      redirect_uri: flow.redirectUri,
      expires_at: flow.expiresAt,
    })
    .execute();
  return flow;
}

/** The flow of `state` in the tenant, deleted as it is read: a second callback with it finds nothing. */
export async function takeFlow(db: Db, tenantId: number, state: string): Promise<Flow | undefined> {
  const row = await db
    .deleteFrom('sso_flows')
    .where('tenant_id', '=', tenantId)
    .where('state', '=', state)
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    providerId: row.provider_id,
    state: row.state,
    nonce: row.nonce,
    codeVerifier: row.code_verifier,
    app: row.app as AppName,
    redirectUri: row.redirect_uri,
    bindingHash: row.binding_hash,
    expiresAt: row.expires_at,
  };
}
