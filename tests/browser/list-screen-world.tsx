import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure, render } from '@testing-library/react';
import { AdminContext, memoryStore, Notification, TestMemoryRouter, type AuthProvider } from 'react-admin';
import { ListScreen } from '../../src/custom/list/ListScreen.tsx';
import { AppKindContext, type AppKind } from '../../src/custom/appKind.ts';
import { createI18nProvider } from '../../src/i18n/index.ts';
import { messages } from '../../src/i18n/catalogue.ts';
import { registry } from '../../src/schema.ts';

/**
 * What the ListScreen test files share (list-screen-rows, list-screen-filters and list-screen-layout):
 * the tickets list rendered in react-admin with a fake data provider of 64 tickets, signed in as user 7,
 * in English.
 */

// The default second is too short on a loaded two-core machine (CI runs the API tests alongside).
configure({ asyncUtilTimeout: 5000 });

// The generic list, without the tickets' own views (x-views: each user's default view, tested in
// list-views.test.ts and the browser's default-view spec), so a user without a layout sees all rows.
const tickets = { ...registry.require('tickets'), views: [] };

export const rows = Array.from({ length: 15 }, (_, i) => ({
  id: i + 1,
  reference: `T-${String(i + 1).padStart(4, '0')}`,
  description: `Printer ${i + 1} is out of toner`,
  priority_id: null,
  status_id: 1,
  company_id: null,
  client_id: null,
  updated_at: '2025-03-05T10:00:00Z',
}));

export function fakeDataProvider(overrides: Record<string, any> = {}) {
  return {
    getList: vi.fn(async (resource: string) =>
      resource === 'tickets' ? { data: rows, total: 64 } : { data: [], total: 0 },
    ),
    getMany: vi.fn(async () => ({ data: [] })),
    getOne: vi.fn(),
    getManyReference: vi.fn(),
    create: vi.fn(),
    update: vi.fn(),
    updateMany: vi.fn(),
    delete: vi.fn(),
    deleteMany: vi.fn(),
    presetCounts: vi.fn(async () => []),
    saveConfigs: vi.fn(async (_configs: { name: string; value: any }[]) => ({})),
    updateOrder: vi.fn(),
    exportList: vi.fn(async () => 'The export will be e-mailed to you.'),
    ...overrides,
  };
}

function authProvider(permissions: string[] = []): AuthProvider {
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getIdentity: async () => ({ id: 7, fullName: 'Jan Jansen' }),
    getPermissions: async () => permissions,
  };
}

export function renderList(
  dataProvider: Record<string, any>,
  options: { permissions?: string[]; kind?: AppKind; onLocation?: (path: string) => void } = {},
) {
  return render(
    <TestMemoryRouter
      initialEntries={['/tickets']}
      locationCallback={(l) => options.onLocation?.(l.pathname)}
    >
      <AdminContext
        dataProvider={dataProvider as any}
        authProvider={authProvider(options.permissions)}
        i18nProvider={createI18nProvider({ messages })}
        store={memoryStore()}
      >
        <AppKindContext.Provider value={options.kind ?? 'backoffice'}>
          <ListScreen resource={tickets} />
        </AppKindContext.Provider>
        <Notification />
      </AdminContext>
    </TestMemoryRouter>,
  );
}

/** Each test starts from an empty storage in English, and leaves nothing rendered behind. */
export function eachTestInEnglish() {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('locale', 'en');
  });
  afterEach(() => cleanup());
}
