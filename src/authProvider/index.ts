/**
 * The auth provider of both apps (react-admin 5), over the same HTTP client as the data provider. The
 * error catalogue of spec section 8 that the apps' notifications use is ../shell/errorCatalogue.ts.
 *
 * | method          | what                                                                           |
 * |-----------------|--------------------------------------------------------------------------------|
 * | login           | POST /api/auth/login {username, password} (or {code, portal} for single sign-on; POST /api/auth/sso/callback {query} for OpenID Connect; a 202 rejects with TwoFactorNeeded, and {challenge, code or recovery_code} goes to /auth/login/two-factor); stores APP_PORTAL_TOKEN and APP_USER, drops APP_QUOTE_TOKEN |
 * | logout          | POST /api/auth/logout (failures ignored); clears the session keys; -> the app's own /login |
 * | checkAuth       | resolves when an access token or a quote token is stored                       |
 * | checkError      | 401 rejects (react-admin then logs out: the HTTP client already tried a refresh) towards this app's login page, naming the page to return to; anything else resolves |
 * | getIdentity     | {id, fullName} of the stored user (GET /api/auth/me when none is stored)       |
 * | getPermissions  | the user's permissions_names                                                   |
 * | canAccess       | `<tenant|portal>.<resource>.<action>` in permissions_names (spec section 6); in the portal also the company role's ability the resource's `x-portal.ability` names (issue 39) |
 *
 * A quote link's holder (only APP_QUOTE_TOKEN stored) has no user: no /auth/me call, an empty
 * identity and permissions, and canAccess allows the record token's actions (show, accept, download) on
 * the kind of record a link opens (./quoteLink.ts).
 *
 * The refresh itself lives in the HTTP client (../dataProvider/http.ts): it is part of every call.
 */
import { loginAddressFromHere } from '../shell/returnTo.ts';
import type { AuthProvider, UserIdentity } from 'ra-core';
import type { HttpClient } from '../dataProvider/http.ts';
import {
  APP_PORTAL_TOKEN,
  APP_QUOTE_PATH,
  APP_QUOTE_TOKEN,
  clearSession,
  getItem,
  getUser,
  rememberLoginAnswer,
  removeItem,
  setItem,
  setUser,
  type SessionUser,
} from '../dataProvider/storage.ts';
import { isQuoteLinkOnly, quoteLinkAllows } from './quoteLink.ts';
import { portalOffers } from '../../common/portal-offers.ts';
import { registry } from '../schema.ts';
import {
  LOGGED_IN_ELSEWHERE_KEY,
  MULTIPLE_SESSIONS_MESSAGE,
  messageOf,
  statusOf,
} from '../shell/errorCatalogue.ts';

export type AppName = 'portal' | 'backoffice';

const PERMISSION_PREFIX: Record<AppName, string> = { portal: 'portal', backoffice: 'tenant' };

/** react-admin's action names -> the server's (the rest are the same on both sides). */
const ACTION_NAMES: Record<string, string> = {
  list: 'index',
  show: 'show',
  create: 'store',
  edit: 'update',
  delete: 'destroy',
};

/** The permission a react-admin action needs: permissionName('portal', 'tickets', 'list') = 'portal.tickets.index'. */
export function permissionName(app: AppName, resource: string, action: string): string {
  return `${PERMISSION_PREFIX[app]}.${resource}.${ACTION_NAMES[action] ?? action}`;
}

/**
 * Whether the stored session user may do `action` on `resource`, answered at once: what canAccess
 * answers whenever a user is stored, for a part that must show in the same paint as the screen around
 * it (react-admin's useCanAccess answers a render later, so its buttons would arrive after the rest).
 */
export function storedUserMay(app: AppName, resource: string, action: string): boolean {
  const user = getUser();
  return user !== undefined && userMay(user, app, resource, action);
}

function userMay(user: SessionUser, app: AppName, resource: string, action: string): boolean {
  if (!user.permissions_names.includes(permissionName(app, resource, action))) return false;
  if (app !== 'portal') return true;
  // A portal screen that needs a company role's ability (x-portal.ability: colleagues' access) is the
  // screen of those clients only whose role has it in one of their companies; one of a resource the
  // roles reach in no company (a member's invoices) is no screen of hers either.
  const schema = registry.get(resource);
  return !schema || portalOffers(user, schema);
}

interface LoginParams {
  username?: string;
  password?: string;
  /** Single sign-on: the code of /msgraph/code/:code; with `challenge`, the authenticator app's code. */
  code?: string;
  /** The second step of a two-factor login (POST /auth/login/two-factor). */
  challenge?: string;
  recovery_code?: string;
  /** OpenID Connect single sign-on: the query string the provider sent to /sso/callback. */
  ssoQuery?: string;
}

interface LoginAnswer {
  user: SessionUser;
  access_token: string;
  /** A user enrolling at sign-in: the ten recovery codes, shown once. */
  recovery_codes?: string[];
}

/** The 202 of a password login: a second step is due (the login page asks for a code). */
export class TwoFactorNeeded extends Error {
  constructor(
    readonly challenge: string,
    /** The role requires two-factor and the user has none yet: enrol first. */
    readonly enrol: boolean,
  ) {
    super('two-factor');
  }
}

export interface AuthProviderOptions {
  http: HttpClient;
  app: AppName;
}

export { QUOTE_LINK_ACTIONS } from './quoteLink.ts';

export function createAuthProvider({ http, app }: AuthProviderOptions): AuthProvider {
  /** The stored user, or the one GET /api/auth/me returns (then stored); none for a quote link. */
  async function currentUser(): Promise<SessionUser | undefined> {
    const stored = getUser();
    // Without a session token nobody is signed in (a public page, a quote link): asking the server would
    // only earn a 401, and react-admin would answer that with a logout that leaves the page.
    if (stored || !getItem(APP_PORTAL_TOKEN)) return stored;
    const { body } = await http.request<{ user: SessionUser }>('/auth/me');
    setUser(body.user);
    return body.user;
  }

  /**
   * The user logged out on this page and has not logged in since: react-admin is taking them to the login
   * page, so a call answered 401 meanwhile must not send them there a second time, naming this page.
   */
  let loggedOut = false;

  return {
    async login(params: LoginParams) {
      const second = params.challenge !== undefined;
      const body = second
        ? { challenge: params.challenge, code: params.code, recovery_code: params.recovery_code }
        : params.code !== undefined
          ? { code: params.code, portal: app === 'portal' }
          : { username: params.username, password: params.password };
      // 422 (wrong credentials) and 429 (too many attempts) reject with the server's message.
      const sso = params.ssoQuery !== undefined;
      const answer = await http.request<LoginAnswer & { challenge?: string; enrol?: boolean }>(
        sso ? '/auth/sso/callback' : second ? '/auth/login/two-factor' : '/auth/login',
        { method: 'POST', body: sso ? { query: params.ssoQuery } : body, anonymous: true },
      );
      if (answer.status === 202) throw new TwoFactorNeeded(answer.body.challenge!, !!answer.body.enrol);
      setItem(APP_PORTAL_TOKEN, answer.body.access_token);
      setUser(answer.body.user);
      // The answer is what GET /auth/me would say: the portal's guards take it instead of asking.
      rememberLoginAnswer(answer.body.user);
      removeItem(APP_QUOTE_TOKEN, APP_QUOTE_PATH);
      loggedOut = false;
      return answer.body.recovery_codes ? { recoveryCodes: answer.body.recovery_codes } : undefined;
    },

    async logout() {
      // Signed out here before the call goes out: a call of this page that the server answers 401 from
      // now on finds no session, so the HTTP client neither refreshes nor sends the app to its login
      // page a second time (with this page as `next`), whichever answer comes first.
      const bearer = getItem(APP_PORTAL_TOKEN);
      loggedOut = true;
      clearSession();
      try {
        await http.request('/auth/logout', {
          method: 'POST',
          anonymous: true,
          headers: bearer ? { Authorization: `Bearer ${bearer}` } : {},
        });
      } catch {
        // Logged out on this side all the same.
      }
      // Nothing: react-admin then goes to its own `${basename}/login` (/app/login in the portal). A path
      // returned here would be taken as it is, outside the portal's basename.
    },

    async checkAuth() {
      if (getItem(APP_PORTAL_TOKEN) || getItem(APP_QUOTE_TOKEN)) return;
      // No "please log in" toast: a missing session just goes to the login page (spec section 2).
      throw { message: false };
    },

    async checkError(error: unknown) {
      if (statusOf(error) !== 401) return;
      if (loggedOut && !getItem(APP_PORTAL_TOKEN))
        throw { message: false, logoutUser: false, redirectTo: false };
      // The HTTP client refreshed already and failed: the session is over. The message, if any, is
      // shown by react-admin only while a token is still stored; the client has usually removed it.
      const message = messageOf(error);
      throw {
        message: message === MULTIPLE_SESSIONS_MESSAGE ? LOGGED_IN_ELSEWHERE_KEY : false,
        // The same login address as the HTTP client's reload (when the session ended there): whichever
        // comes first, the user lands on this app's login page, which returns here after a login.
        redirectTo: loginAddressFromHere(app),
      };
    },

    async getIdentity(): Promise<UserIdentity> {
      const user = await currentUser();
      if (!user) return { id: '' };
      const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
      return { id: user.id, fullName: user.full_name || name || (user.email ?? undefined) };
    },

    async getPermissions() {
      return (await currentUser())?.permissions_names ?? [];
    },

    async canAccess({ resource, action }: { resource: string; action: string }) {
      let user: SessionUser | undefined;
      try {
        user = await currentUser();
      } catch {
        return false;
      }
      if (!user) return isQuoteLinkOnly() && quoteLinkAllows(resource, action);
      return userMay(user, app, resource, action);
    },
  };
}
