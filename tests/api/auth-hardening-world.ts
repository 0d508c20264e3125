/**
 * Set-up shared by the sign-in and account hardening tests of issue 12 (auth-hardening-links,
 * auth-hardening-logins, auth-hardening-accounts): the demo app mailing to a loopback SMTP server.
 */
import { buildTestApp, type Target, type TestApp } from './harness.ts';
import { startSmtp, type LoopbackSmtp } from './smtp.ts';

export async function openHardeningWorld(target: Target): Promise<{ t: TestApp; smtp: LoopbackSmtp }> {
  const smtp = await startSmtp();
  // PUBLIC_URL unset: links come from the request's host, which is what finding 5 is about. The
  // address rules fail 40 logins in seconds, more than the tenant's budget of failed logins a
  // minute allows (LOGIN_FAILURES_PER_MINUTE, tested in login-flood.test.ts): a wider one here.
  const t = await buildTestApp(target, { config: { smtpUrl: smtp.url, loginFailuresPerMinute: 100 } });
  return { t, smtp };
}
