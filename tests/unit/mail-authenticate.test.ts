/**
 * Who sent a mail (issue 31, item 2), server/mail/inbound/authenticate.ts against a real DNS server on
 * loopback that publishes the test's DKIM keys: an aligned DKIM signature verifies the From address; a
 * From line, a signature of another domain, an altered body, a partial-body signature (`l=`), two From
 * addresses or a DMARC policy that wants strict alignment do not; the tenant's receiving server's
 * Authentication-Results count only under its configured authserv-id and only as the topmost one; a
 * header too large to check is not checked (mailauth's header parser is quadratic).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSender, mailResolver, type DnsResolver } from '../../server/mail/inbound/authenticate.ts';
import { dkimKey, signMail, startTestDns, type DkimKey, type TestDns } from '../api/dkim.ts';

const mail = (from: string, extra = '', body = 'Please reset my password.\r\n') =>
  `${extra}From: ${from}\r\nTo: support@desk.example\r\nSubject: Help\r\n` +
  `Message-ID: <${Math.random().toString(36).slice(2)}@client.example>\r\nDate: ${new Date().toUTCString()}\r\n\r\n${body}`;

describe('checkSender', () => {
  let dns: TestDns;
  let resolver: DnsResolver;
  let client: DkimKey;
  let attacker: DkimKey;
  let sub: DkimKey;
  const check = (raw: string, from: string, authservId: string | null = null) =>
    checkSender(Buffer.from(raw), from, { authservId, resolver });

  beforeAll(async () => {
    dns = await startTestDns();
    resolver = mailResolver([dns.server]);
    client = dkimKey('client.example', 'sel1');
    attacker = dkimKey('attacker.example', 'evil');
    sub = dkimKey('mail.strict.example', 'sel2');
    for (const key of [client, attacker, sub]) dns.publish(key.record.name, key.record.text);
    dns.publish('_dmarc.strict.example', 'v=DMARC1; p=reject; adkim=s');
  });
  afterAll(async () => {
    await dns?.close();
  });

  it("verifies a sender whose domain's DKIM signature verifies and aligns", async () => {
    const result = await check(
      await signMail(mail('Client <client@client.example>'), client),
      'client@client.example',
    );
    expect(result).toEqual({ verified: true, note: 'dkim=pass d=client.example' });
    expect(dns.asked).toContain('sel1._domainkey.client.example TXT');
    // A subdomain signs for its organisation (relaxed alignment) too.
    const staff = await check(await signMail(mail('it@client.example'), client), 'it@client.example');
    expect(staff.verified).toBe(true);
  });

  it('does not verify a From line alone, nor a signature of another domain', async () => {
    const bare = await check(mail('client@client.example'), 'client@client.example');
    expect(bare).toEqual({ verified: false, note: 'no DKIM signature' });
    const other = await check(
      await signMail(mail('client@client.example'), attacker),
      'client@client.example',
    );
    expect(other.verified).toBe(false);
    expect(other.note).toBe('dkim=pass d=attacker.example (not aligned)');
  });

  it('does not verify a mail changed after signing, or signed over part of its body', async () => {
    const signed = await signMail(mail('client@client.example'), client);
    const changed = signed.replace('Please reset my password.', 'Pay the invoice at evil.example.');
    const result = await check(changed, 'client@client.example');
    expect(result.verified).toBe(false);
    expect(result.note).toContain('dkim=neutral d=client.example');
    // l=: what is appended after the signed part would pass as signed.
    const partial = await signMail(mail('client@client.example'), client, { maxBodyLength: 10 });
    const appended = partial.replace(/\r\n$/, '\r\nPay at evil.example.\r\n');
    expect((await check(appended, 'client@client.example')).verified).toBe(false);
  });

  it('does not verify a mail with two From addresses or two From headers', async () => {
    const two = await signMail(mail('attacker@attacker.example, client@client.example'), attacker);
    expect(await check(two, 'client@client.example')).toEqual({
      verified: false,
      note: 'the From header is not exactly one address',
    });
    const twice = await signMail(
      mail('client@client.example', 'From: attacker@attacker.example\r\n'),
      attacker,
    );
    expect((await check(twice, 'client@client.example')).verified).toBe(false);
  });

  it("holds to the domain's DMARC record when it asks for strict alignment", async () => {
    const result = await check(await signMail(mail('ceo@strict.example'), sub), 'ceo@strict.example');
    expect(result.verified).toBe(false);
    expect(result.note).toContain('adkim=s');
    // The same signature, relaxed: the organisation's subdomain signs for it.
    dns.publish('_dmarc.strict.example', 'v=DMARC1; p=reject; adkim=r');
    const relaxed = await check(await signMail(mail('ceo@strict.example'), sub), 'ceo@strict.example');
    expect(relaxed.verified).toBe(true);
  });

  it("believes only the configured receiving server's topmost Authentication-Results", async () => {
    const says = (id: string, verdict: string) =>
      `Authentication-Results: ${id};\r\n dkim=none;\r\n spf=none smtp.mailfrom=x@relay.example;\r\n dmarc=${verdict} header.from=client.example\r\n`;
    const passed = mail('client@client.example', says('mx.desk.example', 'pass'));
    expect(await check(passed, 'client@client.example', 'mx.desk.example')).toEqual({
      verified: true,
      note: 'mx.desk.example: dmarc=pass header.from=client.example',
    });
    // Without a configured id the same header is anyone's words.
    expect((await check(passed, 'client@client.example', null)).verified).toBe(false);
    // Another server's header, or one under ours that our server's own (topmost) contradicts.
    const foreign = mail('client@client.example', says('mx.attacker.example', 'pass'));
    expect((await check(foreign, 'client@client.example', 'mx.desk.example')).verified).toBe(false);
    const buried = mail(
      'client@client.example',
      says('mx.desk.example', 'fail') + 'Received: from evil\r\n' + says('mx.desk.example', 'pass'),
    );
    expect((await check(buried, 'client@client.example', 'mx.desk.example')).verified).toBe(false);
    // An aligned SPF pass of the receiving server counts; another domain's does not.
    const spf = (domain: string) =>
      mail(
        'client@client.example',
        `Authentication-Results: mx.desk.example; spf=pass smtp.mailfrom=bounce@${domain}\r\n`,
      );
    expect(
      (await check(spf('mail.client.example'), 'client@client.example', 'mx.desk.example')).verified,
    ).toBe(true);
    expect((await check(spf('attacker.example'), 'client@client.example', 'mx.desk.example')).verified).toBe(
      false,
    );
  });

  it('does not check a header block too large to parse in bounded time, and answers at once', async () => {
    // Signed first (mailauth's signer parses a header block as slowly), then padded.
    const signed = await signMail(mail('client@client.example'), client);
    const raw = `X-Padding: a\r\n${' b\r\n'.repeat(30_000)}${signed}`;
    const asked = dns.asked.length;
    expect(await check(raw, 'client@client.example')).toEqual({
      verified: false,
      note: 'the header is too large to be checked',
    });
    // Refused before any work: not one DNS question.
    expect(dns.asked.length).toBe(asked);
  });

  it('does not look up the keys of a mail with many signatures', async () => {
    let raw = mail('client@client.example');
    for (let i = 0; i < 6; i++) raw = await signMail(raw, client);
    const asked = dns.asked.length;
    const result = await check(raw, 'client@client.example');
    expect(result).toEqual({ verified: false, note: 'more than 5 DKIM signatures: not checked' });
    expect(dns.asked.length).toBe(asked);
  });
});
