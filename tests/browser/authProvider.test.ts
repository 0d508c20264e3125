// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from 'ra-core';
import { createAuthProvider, permissionName } from '../../src/authProvider/index.ts';
import { LOGGED_IN_ELSEWHERE_KEY, TOAST_OPTIONS, errorMessage } from '../../src/shell/errorCatalogue.ts';
import { createHttpClient } from '../../src/dataProvider/http.ts';
import {
  APP_PORTAL_TOKEN,
  APP_QUOTE_TOKEN,
  APP_USER,
  userAnsweredAtLogin,
} from '../../src/dataProvider/storage.ts';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}
interface Reply {
  status?: number;
  body?: unknown;
}

function fakeFetch(reply: (call: Call) => Reply | Promise<Reply>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const call: Call = {
      url: decodeURIComponent(url),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    };
    calls.push(call);
    const { status = 200, body = null } = await reply(call);
    const text = body === null ? '' : JSON.stringify(body);
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: '',
      headers: new Headers(),
      text: async () => text,
    } as unknown as Response;
  });
  return { fetch, calls };
}

const USER = {
  id: 3,
  first_name: 'Jan',
  last_name: 'Jansen',
  full_name: 'Jan Jansen',
  email: 'client@example.com',
  is_operator: 0,
  acronym: 'JJ',
  permissions_names: [
    'portal.tickets.index',
    'portal.tickets.show',
    'portal.tickets.store',
    'tenant.assets.update',
  ],
  modules: [],
  configs: [],
  categories: [],
  companies: [{ id: 1, name: 'Jansen BV' }],
};

function setup(
  app: 'portal' | 'backoffice',
  reply: (call: Call) => Reply | Promise<Reply> = () => ({ body: {} }),
) {
  const fake = fakeFetch(reply);
  const http = createHttpClient({ fetch: fake.fetch });
  return { ...fake, authProvider: createAuthProvider({ http, app }) };
}

beforeEach(() => localStorage.clear());

describe('login and logout', () => {
  it('login posts the credentials and stores the token and the user; a quote token is dropped', async () => {
    localStorage.setItem(APP_QUOTE_TOKEN, 'quote');
    const { authProvider, calls } = setup('portal', () => ({
      body: { user: USER, access_token: 'jwt-1', token_type: 'Bearer', expires_in: 900 },
    }));
    await authProvider.login({ username: 'client@example.com', password: 'demo' });
    expect([calls[0]!.method, calls[0]!.url, calls[0]!.body]).toEqual([
      'POST',
      '/api/auth/login',
      { username: 'client@example.com', password: 'demo' },
    ]);
    expect(calls[0]!.headers).not.toHaveProperty('Authorization');
    expect(localStorage.getItem(APP_PORTAL_TOKEN)).toBe('jwt-1');
    expect(JSON.parse(localStorage.getItem(APP_USER)!)).toEqual(USER);
    expect(localStorage.getItem(APP_QUOTE_TOKEN)).toBeNull();
  });

  it('the user of its own login answers for the session, across token refreshes, until the logout (no GET /auth/me needed)', async () => {
    const { authProvider } = setup('portal', () => ({
      body: { user: USER, access_token: 'jwt-3', token_type: 'Bearer', expires_in: 900 },
    }));
    expect(userAnsweredAtLogin('jwt-3')).toBeUndefined();
    await authProvider.login({ username: 'client@example.com', password: 'demo' });
    expect(userAnsweredAtLogin('jwt-3')).toEqual(USER);
    // A refreshed token is the same session of the same user.
    expect(userAnsweredAtLogin('jwt-4')).toEqual(USER);
    // No session held, or another user stored (a login in another tab): the server is asked.
    expect(userAnsweredAtLogin(null)).toBeUndefined();
    localStorage.setItem(APP_USER, JSON.stringify({ ...USER, id: USER.id + 1 }));
    expect(userAnsweredAtLogin('jwt-3')).toBeUndefined();
    localStorage.setItem(APP_USER, JSON.stringify(USER));
    await authProvider.logout({});
    expect(userAnsweredAtLogin('jwt-3')).toBeUndefined();
  });

  it('single sign-on logs in with the code and the portal flag', async () => {
    const { authProvider, calls } = setup('portal', () => ({ body: { user: USER, access_token: 'jwt-2' } }));
    await authProvider.login({ code: 'abc' });
    expect(calls[0]!.body).toEqual({ code: 'abc', portal: true });
  });

  it.each([
    [422, 'These credentials do not match our records.'],
    [429, 'Too many login attempts. Please try again in 60 seconds.'],
  ])('login rejects a %i with the server message', async (status, message) => {
    const { authProvider } = setup('portal', () => ({
      status,
      body: { message, errors: { username: [message] } },
    }));
    await expect(authProvider.login({ username: 'a', password: 'b' })).rejects.toMatchObject({
      status,
      message,
    });
    expect(localStorage.getItem(APP_PORTAL_TOKEN)).toBeNull();
  });

  it('logout posts /api/auth/logout and clears the session, even when the call fails, and names no path (react-admin goes to its basename’s /login)', async () => {
    for (const status of [200, 500]) {
      localStorage.setItem(APP_PORTAL_TOKEN, 'jwt');
      localStorage.setItem(APP_QUOTE_TOKEN, 'quote');
      localStorage.setItem(APP_USER, JSON.stringify(USER));
      localStorage.setItem('locale', 'en');
      const { authProvider, calls } = setup('backoffice', () => ({
        status,
        body: { message: 'Logged out.' },
      }));
      expect(await authProvider.logout({})).toBeUndefined();
      expect(calls.map((c) => [c.method, c.url])).toEqual([['POST', '/api/auth/logout']]);
      expect([APP_PORTAL_TOKEN, APP_QUOTE_TOKEN, APP_USER].map((k) => localStorage.getItem(k))).toEqual([
        null,
        null,
        null,
      ]);
      expect(localStorage.getItem('locale')).toBe('en');
    }
  });
  it('logout drops the session before its call goes out, and names the session by the token it held', async () => {
    localStorage.setItem(APP_PORTAL_TOKEN, 'jwt');
    localStorage.setItem(APP_USER, JSON.stringify(USER));
    let storedWhenSent: (string | null)[] = [];
    const { authProvider, calls } = setup('portal', () => {
      storedWhenSent = [APP_PORTAL_TOKEN, APP_USER].map((k) => localStorage.getItem(k));
      return { status: 401, body: { message: 'Unauthenticated.' } };
    });
    await authProvider.logout({});
    // A 401 of another call answered meanwhile finds no session: no refresh, no second login trip.
    expect(storedWhenSent).toEqual([null, null]);
    expect(calls.map((c) => [c.url, c.headers.Authorization])).toEqual([['/api/auth/logout', 'Bearer jwt']]);
  });
});

describe('checkAuth and checkError', () => {
  it('checkAuth resolves with an access token or a quote token, else rejects without a toast', async () => {
    const { authProvider } = setup('portal');
    await expect(authProvider.checkAuth({})).rejects.toEqual({ message: false });
    localStorage.setItem(APP_QUOTE_TOKEN, 'quote');
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
    localStorage.clear();
    localStorage.setItem(APP_PORTAL_TOKEN, 'jwt');
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
  });

  it('checkError rejects a 401 towards the app’s own login page, naming the page to return to, and resolves 403, 404 and other errors', async () => {
    const { authProvider } = setup('portal');
    window.history.replaceState(null, '', '/app/quotes/2');
    await expect(authProvider.checkError(new HttpError('Unauthenticated.', 401))).rejects.toEqual({
      message: false,
      redirectTo: '/app/login?next=/quotes/2',
    });
    await expect(
      authProvider.checkError(new HttpError('You cannot have multiple login sessions per account.', 401)),
    ).rejects.toEqual({ message: LOGGED_IN_ELSEWHERE_KEY, redirectTo: '/app/login?next=/quotes/2' });
    window.history.replaceState(null, '', '/companies/1');
    await expect(
      setup('backoffice').authProvider.checkError(new HttpError('Unauthenticated.', 401)),
    ).rejects.toEqual({ message: false, redirectTo: '/login?next=/companies/1' });
    for (const status of [403, 404, 422, 500]) {
      await expect(authProvider.checkError(new HttpError('x', status))).resolves.toBeUndefined();
    }
    await expect(authProvider.checkError(new TypeError('Failed to fetch'))).resolves.toBeUndefined();
  });
});

describe('a call answered 401 after a logout here', () => {
  it('sends nobody to the login page a second time: the logout is on its way there', async () => {
    localStorage.setItem(APP_PORTAL_TOKEN, 'jwt');
    const { authProvider } = setup('backoffice');
    window.history.replaceState(null, '', '/tickets');
    await authProvider.logout({});
    await expect(authProvider.checkError(new HttpError('Unauthenticated.', 401))).rejects.toEqual({
      message: false,
      logoutUser: false,
      redirectTo: false,
    });
    // Logged in again, a 401 is a session that ended: the login page, naming this page.
    const { authProvider: again } = setup('backoffice', () => ({
      body: { user: USER, access_token: 'jwt-2' },
    }));
    await again.logout({});
    await again.login({ username: 'a', password: 'b' });
    await expect(again.checkError(new HttpError('Unauthenticated.', 401))).rejects.toEqual({
      message: false,
      redirectTo: '/login?next=/tickets',
    });
  });
});

describe('identity and permissions', () => {
  it('getIdentity and getPermissions read the stored user', async () => {
    localStorage.setItem(APP_PORTAL_TOKEN, 'jwt');
    localStorage.setItem(APP_USER, JSON.stringify(USER));
    const { authProvider, calls } = setup('portal');
    expect(await authProvider.getIdentity!()).toEqual({ id: 3, fullName: 'Jan Jansen' });
    expect(await authProvider.getPermissions!({})).toEqual(USER.permissions_names);
    expect(calls).toHaveLength(0);
  });

  it('getIdentity loads the user from GET /api/auth/me when none is stored', async () => {
    localStorage.setItem(APP_PORTAL_TOKEN, 'jwt');
    const { authProvider, calls } = setup('portal', () => ({ body: { user: USER, lists: {} } }));
    expect(await authProvider.getIdentity!()).toEqual({ id: 3, fullName: 'Jan Jansen' });
    expect(calls.map((c) => [c.method, c.url, c.headers.Authorization])).toEqual([
      ['GET', '/api/auth/me', 'Bearer jwt'],
    ]);
    expect(JSON.parse(localStorage.getItem(APP_USER)!)).toEqual(USER);
  });

  it('permissionName maps react-admin actions to the server names with the app prefix', () => {
    expect(permissionName('portal', 'tickets', 'list')).toBe('portal.tickets.index');
    expect(permissionName('portal', 'tickets', 'show')).toBe('portal.tickets.show');
    expect(permissionName('backoffice', 'tickets', 'create')).toBe('tenant.tickets.store');
    expect(permissionName('backoffice', 'tickets', 'edit')).toBe('tenant.tickets.update');
    expect(permissionName('backoffice', 'tickets', 'delete')).toBe('tenant.tickets.destroy');
    expect(permissionName('portal', 'contracts', 'buy')).toBe('portal.contracts.buy');
  });

  it.each<['portal' | 'backoffice', string, string, boolean]>([
    ['portal', 'tickets', 'list', true],
    ['portal', 'tickets', 'show', true],
    ['portal', 'tickets', 'create', true],
    ['portal', 'tickets', 'edit', false],
    ['portal', 'tickets', 'delete', false],
    ['portal', 'assets', 'edit', false],
    ['backoffice', 'assets', 'edit', true],
    ['backoffice', 'tickets', 'list', false],
    ['backoffice', 'assets', 'update', true],
  ])('canAccess in the %s: %s %s -> %s', async (app, resource, action, allowed) => {
    localStorage.setItem(APP_PORTAL_TOKEN, 'jwt');
    localStorage.setItem(APP_USER, JSON.stringify(USER));
    const { authProvider } = setup(app);
    expect(await authProvider.canAccess!({ resource, action })).toBe(allowed);
  });

  it("a portal screen that needs a company role's ability opens only for a user whose role has it somewhere", async () => {
    const may = async (companies: object[]) => {
      localStorage.setItem(APP_PORTAL_TOKEN, 'jwt');
      const permissions_names = ['portal.company-user.index', 'portal.company-user.update'];
      localStorage.setItem(APP_USER, JSON.stringify({ ...USER, permissions_names, companies }));
      const { authProvider } = setup('portal');
      return authProvider.canAccess!({ resource: 'company-user', action: 'list' });
    };
    expect(await may([{ id: 1, name: 'Jansen BV', manage_access: false }])).toBe(false);
    expect(await may([])).toBe(false);
    expect(
      await may([
        { id: 1, name: 'Jansen BV', manage_access: false },
        { id: 2, name: 'De Vries', manage_access: true },
      ]),
    ).toBe(true);
  });

  it('a portal resource the company roles reach in no company is no screen: a member has no invoices', async () => {
    const may = async (resource: string, companies: object[]) => {
      localStorage.setItem(APP_PORTAL_TOKEN, 'jwt');
      const permissions_names = ['portal.invoices.index', 'portal.tickets.index'];
      localStorage.setItem(APP_USER, JSON.stringify({ ...USER, permissions_names, companies }));
      const { authProvider } = setup('portal');
      return authProvider.canAccess!({ resource, action: 'list' });
    };
    const member = {
      id: 1,
      name: 'Jansen BV',
      grants_all: false,
      company_resources: ['companies'],
      own_resources: ['tickets'],
    };
    expect(await may('invoices', [member])).toBe(false);
    expect(await may('tickets', [member])).toBe(true);
    const finance = { ...member, id: 2, company_resources: ['invoices'] };
    expect(await may('invoices', [member, finance])).toBe(true);
  });

  it("a quote link's holder has no user: no /auth/me call, only the record token's actions", async () => {
    localStorage.setItem(APP_QUOTE_TOKEN, 'quote');
    const { authProvider, calls } = setup('portal');
    expect(await authProvider.canAccess!({ resource: 'quotes', action: 'show' })).toBe(true);
    expect(await authProvider.canAccess!({ resource: 'quotes', action: 'list' })).toBe(false);
    expect(await authProvider.getPermissions!({})).toEqual([]);
    expect(calls).toHaveLength(0);
  });
});

describe('errorMessage: the error catalogue of spec section 8', () => {
  it('403 and 404 show no toast', () => {
    expect(errorMessage(new HttpError('This action is unauthorized.', 403))).toBeNull();
    expect(errorMessage(new HttpError('Not found.', 404))).toBeNull();
  });

  it("'Unauthenticated.' shows no toast", () => {
    expect(errorMessage(new HttpError('Unauthenticated.', 401))).toBeNull();
  });

  it('logged in elsewhere becomes the translation key of the Dutch sentence', () => {
    const error = new HttpError('You cannot have multiple login sessions per account.', 401);
    expect(errorMessage(error)).toBe('app.errors.logged_in_elsewhere');
    const translate = vi.fn((key: string) => (key === LOGGED_IN_ELSEWHERE_KEY ? 'Elders ingelogd' : key));
    expect(errorMessage(error, translate)).toBe('Elders ingelogd');
  });

  it('422 gives the message and every field line in order', () => {
    const body = {
      message: 'The name field is required.',
      errors: {
        name: ['The name field is required.'],
        email: ['The email is not valid.', 'The email is taken.'],
      },
    };
    expect(errorMessage(new HttpError(body.message, 422, body))).toEqual({
      message: 'The name field is required.',
      lines: ['The name field is required.', 'The email is not valid.', 'The email is taken.'],
    });
  });

  it('anything else shows its message; a cancelled request nothing', () => {
    expect(errorMessage(new HttpError('Too many login attempts.', 429))).toBe('Too many login attempts.');
    expect(errorMessage(new HttpError('Internal Server Error', 500))).toBe('Internal Server Error');
    expect(errorMessage(new DOMException('gone', 'AbortError'))).toBeNull();
    expect(errorMessage({})).toBe('ra.notification.http_error');
  });

  it('toasts last 5000 ms at the bottom centre', () => {
    expect(TOAST_OPTIONS).toEqual({
      autoHideDuration: 5000,
      anchorOrigin: { vertical: 'bottom', horizontal: 'center' },
    });
  });
});
