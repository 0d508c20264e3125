/**
 * The holder of a quote e-mail's link (docs/decisions.md, "A quote link is a record token"): nobody is
 * signed in, only the link's token is stored, and the server opens that one record through it (with what
 * its schema's x-record-link lists). The guards, the permissions, the navigation and the 403 page ask
 * here what such a holder may open, so none of them offers a page the link cannot open.
 */
import { APP_PORTAL_TOKEN, APP_QUOTE_PATH, APP_QUOTE_TOKEN, getItem } from '../dataProvider/storage.ts';
import { registry } from '../schema.ts';

/**
 * What a link's holder may do with the record it opens; the server decides which record. The list is
 * not among them: a link opens one record, never a list of them.
 */
export const QUOTE_LINK_ACTIONS = ['show', 'accept', 'download'] as const;

/** Only a quote token is stored: nobody is signed in, and GET /api/auth/me would answer 401. */
export function isQuoteLinkOnly(): boolean {
  return !getItem(APP_PORTAL_TOKEN) && !!getItem(APP_QUOTE_TOKEN);
}

/** Whether a link's holder may do `action` on `resource`: only on the kind of record a link opens. */
export function quoteLinkAllows(resource: string, action: string): boolean {
  const opensByLink = (registry.get(resource)?.recordLink.length ?? 0) > 0;
  return opensByLink && (QUOTE_LINK_ACTIONS as readonly string[]).includes(action);
}

/** The portal path the link opened ('/quotes/12'): where its holder goes back to. */
export function quoteLinkPath(): string | null {
  return getItem(APP_QUOTE_PATH);
}
