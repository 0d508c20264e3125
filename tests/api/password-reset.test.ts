import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { parseMail, recipients, startSmtp, type ParsedMail } from './smtp.ts';

const REQUESTED = 'If we know this e-mail address, you will receive an e-mail with a link shortly.';
const INVALID = 'This password reset link is invalid or has expired.';
const TOO_SHORT = 'The password must be at least 8 characters long.';
const MISMATCH = 'The password confirmation does not match.';
const DONE = 'Your password has been reset.';
const BAD_CREDENTIALS = 'These credentials do not match our records.';

const LINK = /(https?:\/\/[^\s"<>]+)\/app\/password\/reset\/([A-Za-z0-9_-]{43})/;

function linkOf(mail: ParsedMail): { origin: string; token: string } {
  const match = LINK.exec(mail.text ?? '');
  if (!match) throw new Error(`no reset link in mail: ${mail.text}`);
  return { origin: match[1]!, token: match[2]! };
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(targets)('password reset on $name', (target) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp(target, { config: { smtpUrl: smtp.url } });
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const forgot = (email: string, extra: object = {}, ip = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { email, ...extra },
      remoteAddress: ip,
    });
  const reset = (token: string, password: string, confirmation = password) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token, password, password_confirmation: confirmation },
    });
  const login = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

  /** Requests a link and returns the mail that carries it. */
  async function requestLink(email: string, extra: object = {}): Promise<ParsedMail> {
    const before = smtp.received.length;
    const res = await forgot(email, extra);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: REQUESTED });
    return until(() => smtp.received[before], 'the reset mail');
  }

  it('mails a one-time link that sets a new password, through a real SMTP server', async () => {
    const before = await t.login('client@example.com', 'demo');

    const mail = await requestLink('Client@Example.com ');
    expect(recipients(mail)).toContain('client@example.com');
    // Dutch first (the portal's default language), English below.
    expect(mail.subject).toBe('Wachtwoord opnieuw instellen / Reset your password');
    expect(mail.text).toContain('Kies een nieuw wachtwoord');
    expect(mail.text).toContain('Choose a new password');
    expect(mail.html).toContain('/app/password/reset/');
    const { origin, token } = linkOf(mail);
    expect(origin).toBe('http://localhost:80');

    const rows = await t.db.selectFrom('password_resets').selectAll().execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.token_hash).not.toContain(token); // only the hash is kept
    const minutes = (new Date(row.expires_at).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(58);
    expect(minutes).toBeLessThanOrEqual(60);

    const short = await reset(token, 'short1');
    expect(short.statusCode).toBe(422);
    expect(short.json()).toMatchObject({ message: TOO_SHORT, errors: { password: [TOO_SHORT] } });

    const mismatch = await reset(token, 'a-new-password', 'a-new-passw0rd');
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toMatchObject({ message: MISMATCH });

    const ok = await reset(token, 'a-new-password');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: DONE });

    expect((await login('client@example.com', 'a-new-password')).statusCode).toBe(200);
    const old = await login('client@example.com', 'demo');
    expect(old.statusCode).toBe(422);
    expect(old.json().message).toBe(BAD_CREDENTIALS);

    // The sessions from before the reset cannot be renewed.
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: before.cookie },
    });
    expect(refreshed.statusCode).toBe(401);

    const again = await reset(token, 'another-password');
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({ message: INVALID, errors: { token: [INVALID] } });
  });

  it('answers the same for an unknown address or a contact without login and sends no mail', async () => {
    const before = smtp.received.length;
    const unknown = await forgot('nobody-here@example.com');
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ message: REQUESTED });
    // A contact without a login (no password) is no account to reset either.
    const noLogin = await forgot('kees@devries-installaties.nl');
    expect(noLogin.json()).toEqual({ message: REQUESTED });

    // A known address right after: exactly its mail arrives, in the language asked for.
    const mail = await requestLink('other@example.com', { locale: 'en' });
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received.length).toBe(before + 1);
    expect(recipients(mail)).toContain('other@example.com');
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text).not.toContain('wachtwoord');
  });

  it('refuses unknown, replaced and expired links', async () => {
    expect((await reset('x'.repeat(43), 'long-enough-password')).json().message).toBe(INVALID);
    expect((await reset('', 'long-enough-password')).statusCode).toBe(422);

    const first = linkOf(await requestLink('other@example.com', { locale: 'de' }));
    const second = linkOf(await requestLink('other@example.com'));
    const replaced = await reset(first.token, 'long-enough-password');
    expect(replaced.statusCode).toBe(422);
    expect(replaced.json().message).toBe(INVALID);

    await t.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('used_at', 'is', null)
      .execute();
    const expired = await reset(second.token, 'long-enough-password');
    expect(expired.statusCode).toBe(422);
    expect(expired.json().message).toBe(INVALID);
    expect((await login('other@example.com', 'demo')).statusCode).toBe(200);
  });

  it('rate-limits requests per address', async () => {
    const ip = '10.9.8.7';
    for (let i = 0; i < 5; i++) expect((await forgot('flood@example.com', {}, ip)).statusCode).toBe(200);
    const limited = await forgot('flood@example.com', {}, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json().message).toMatch(
      /^Too many password reset requests\. Please try again in \d+ minutes\.$/,
    );
  });

  it('clears an operator session', async () => {
    const operator = await t.login('operator@example.com', 'demo');
    const before = smtp.received.length;
    await forgot('operator@example.com');
    const { token } = linkOf(await until(() => smtp.received[before], 'the reset mail'));
    expect((await reset(token, 'desk-shift-password')).statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${operator.token}` },
    });
    expect(me.statusCode).toBe(401);
  });
});

describe('password reset without SMTP_URL', () => {
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(chunk.toString('utf8'));
        callback();
      },
    });
    t = await buildTestApp(targets[0]!, {
      config: { publicUrl: 'https://desk.example.com' },
      logger: { level: 'info', stream },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('writes the mail as an .eml file under DATA_DIR/mail and logs its path, not the link', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { email: 'client@example.com' },
    });
    expect(res.json()).toEqual({ message: REQUESTED });
    const mailDir = join(t.config.dataDir, 'mail');
    const file = await until(async () => {
      const names = await readdir(mailDir).catch(() => [] as string[]);
      return names.find((n) => n.endsWith('.eml'));
    }, 'the .eml file');
    const raw = await readFile(join(mailDir, file));
    const mail = await parseMail(raw);
    expect(recipients(mail)).toContain('client@example.com');
    const { origin, token } = linkOf(mail);
    expect(origin).toBe('https://desk.example.com');

    const logged = await until(
      () => logLines.find((l) => l.includes(file)),
      'the log line with the file path',
    );
    expect(logged).toContain(join(mailDir, file));
    expect(logLines.join('\n')).not.toContain(token);

    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token, password: 'from-the-file', password_confirmation: 'from-the-file' },
    });
    expect(ok.statusCode).toBe(200);
  });
});
