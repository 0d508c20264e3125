/**
 * Set-up shared by tests/api/report-subscriptions-routes.test.ts and report-subscriptions-delivery.test.ts
 * (issue 36, item 4): an app on a real SMTP server with a public address, a company with a ticket and
 * three time registrations around the week of 16 November 2026, and the subscription routes as a caller.
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildTestApp, type Target, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { statusesByKind } from './sla-world.ts';
import { startSmtp, type LoopbackSmtp } from './smtp.ts';

export const ORIGIN = 'https://desk.example.com';
/** Moments in the desk's zone in November and December 2026 (UTC+1). */
export const at = (local: string) => new Date(`${local}:00+01:00`).getTime();

export interface SubscriptionWorld {
  t: TestApp;
  b: BackOffice;
  smtp: LoopbackSmtp;
  /** The company the time was registered for. */
  company: number;
  /** A call of /api/report-subscriptions{url}, as the admin unless told. */
  api(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers?: Record<string, string>,
    payload?: object,
  ): Promise<LightMyRequestResponse>;
  /** A new subscription with these settings (201), as the admin unless told. */
  subscribe(payload: object, headers?: Record<string, string>): Promise<{ id: number }>;
  close(): Promise<void>;
}

export async function subscriptionWorld(target: Target): Promise<SubscriptionWorld> {
  const smtp = await startSmtp();
  let t: TestApp | undefined;
  try {
    t = await buildTestApp(target, {
      config: { deadlineCheckMs: 0, smtpUrl: smtp.url, mailPollMs: 100, publicUrl: ORIGIN },
    });
    return await world(t, smtp);
  } catch (e) {
    await t?.close();
    await smtp.close();
    throw e;
  }
}

async function world(t: TestApp, smtp: LoopbackSmtp): Promise<SubscriptionWorld> {
  const b = await backOffice(t, []);
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers = b.admin, payload?: object) =>
    t.app.inject({ method, url: `/api/report-subscriptions${url}`, headers, payload });

  const subscribe = async (payload: object, headers = b.admin) => {
    const res = await api('POST', '', headers, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number };
  };

  const status = await statusesByKind(t, b.tenantId);
  const post = async (url: string, payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url, headers: b.admin, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const company = await post('/api/companies', { name: 'Abonnement BV' });
  const ticket = await post('/api/tickets', {
    description: 'Werk',
    status_id: status.open,
    company_id: company,
  });
  // Tuesday 17 and Sunday 22 November (in the week of the 16th), and Monday 23 (the next one).
  for (const [executed_at, time_spent] of [
    ['2026-11-17T09:00:00Z', 50],
    ['2026-11-22T22:30:00Z', 20],
    ['2026-11-22T23:30:00Z', 100],
  ] as const)
    await post('/api/time-registrations', {
      ticket_id: ticket,
      executed_at,
      time_spent,
      description: 'Gedaan',
    });

  const close = async () => {
    await t.close();
    await smtp.close();
  };
  return { t, b, smtp, company, api, subscribe, close };
}
