/**
 * Who sent a mail, as far as the mail itself can prove it (issue 31, item 2). The From line proves
 * nothing: anyone can write any address there. A sender counts as verified when
 *
 * 1. the mail has exactly one From header with exactly one address, the one the desk reads, and
 * 2. either a DKIM signature verifies (mailauth: the key from DNS, RSA or Ed25519, no crypto of ours)
 *    whose domain aligns with the From address's domain (the same organisational domain, as DMARC's
 *    relaxed mode; strict when the domain's DMARC record asks for it: a DMARC `fail` counts against),
 *    that signs the From header and covers the whole body (no `l=`);
 * 3. or the tenant's own receiving server says so: its Authentication-Results header, known by the
 *    authserv-id configured on the mailbox (RFC 8601), with dmarc=pass for the From domain, or an
 *    aligned dkim=pass or spf=pass. Only the topmost header with that id is read (the receiving server
 *    adds its own on top and removes older ones with its id); without a configured id no
 *    Authentication-Results header is believed, since the sender can write one himself.
 *
 * SPF is not checked here: the desk reads the mail from a mailbox, long after the connection whose
 * address SPF needs; the receiving server's Authentication-Results carry it.
 *
 * Bounded work: a header block over MAX_HEADER_BYTES or MAX_HEADER_LINES is not checked at all
 * (mailauth's header parser is quadratic in the lines of a folded header), nor a mail with more than
 * MAX_SIGNATURES DKIM signatures (each costs a DNS look-up); DNS answers within the resolver's timeout,
 * and the whole check within CHECK_TIMEOUT_MS, or the sender is not verified.
 */
import { promises as dns } from 'node:dns';
import { createRequire } from 'node:module';

export interface SenderCheck {
  verified: boolean;
  /** What the check found, for operators (English, as mail's own vocabulary is). */
  note: string;
}

/** mailauth's resolver: `dns.promises.resolve`'s shape. */
export type DnsResolver = (name: string, rrtype: string) => Promise<unknown>;

const MAX_HEADER_BYTES = 128 * 1024;
const MAX_HEADER_LINES = 1500;
const MAX_SIGNATURES = 5;
const CHECK_TIMEOUT_MS = 20_000;

interface HeaderRow {
  key: string | null;
  line: Buffer;
}
interface DkimRow {
  signingDomain?: string;
  canonBodyLengthLimited?: boolean;
  signingHeaders?: { keys?: string };
  status: { result: string; aligned?: string | false };
}
interface AuthResult {
  dkim: { results?: DkimRow[] };
  dmarc: false | { status?: { result?: string }; alignment?: { dkim?: { strict?: boolean } } };
}
/** One Authentication-Results header as mailauth's header parser reads it. */
interface ParsedResults {
  value?: string;
  dkim?: { value?: string; header?: { d?: string; i?: string } }[];
  spf?: { value?: string; smtp?: { mailfrom?: string } };
  dmarc?: { value?: string; header?: { from?: string } };
}
interface Mailauth {
  authenticate(raw: Buffer, options: Record<string, unknown>): Promise<AuthResult>;
  parseHeaders(buf: Buffer): { parsed: HeaderRow[] };
  parseHeader(line: Buffer): { parsed: ParsedResults };
  getAlignment(fromDomain: string, domains: string[]): { domain: string } | false;
  addressparser(text: string): { address?: string; group?: unknown[] }[];
}

// mailauth and its helpers are loaded by the first mail checked, not at start-up (most services read no
// mailbox). Its deep modules have no types: the few functions used are typed above.
let loaded: Mailauth | undefined;
function mailauth(): Mailauth {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const tools = require('mailauth/lib/tools') as Pick<Mailauth, 'parseHeaders' | 'getAlignment'>;
  loaded = {
    authenticate: (require('mailauth') as Pick<Mailauth, 'authenticate'>).authenticate,
    parseHeaders: tools.parseHeaders,
    getAlignment: tools.getAlignment,
    parseHeader: require('mailauth/lib/parse-dkim-headers') as Mailauth['parseHeader'],
    addressparser: require('nodemailer/lib/addressparser') as Mailauth['addressparser'],
  };
  return loaded;
}

/**
 * The resolver DKIM keys and DMARC records are looked up with: MAIL_DNS_SERVERS (`ip` or `ip:port`,
 * comma-separated) when set, else the system's. Each question waits 5 s for an answer and is asked
 * twice: a busy machine answers late, and a late key must not hold a client's mail.
 */
export function mailResolver(servers: string[] | undefined): DnsResolver {
  const resolver = new dns.Resolver({ timeout: 5000, tries: 2 });
  if (servers?.length) resolver.setServers(servers);
  return (name, rrtype) => resolver.resolve(name, rrtype);
}

/** Where the header block ends: the first empty line (as mailauth reads it), else the whole mail. */
function headerEnd(raw: Buffer): number {
  const ends = [raw.indexOf('\n\n'), raw.indexOf('\n\r\n')].filter((i) => i >= 0);
  return ends.length ? Math.min(...ends) + 1 : raw.length;
}

function countLines(buf: Buffer): number {
  let lines = 0;
  for (let at = buf.indexOf(10); at >= 0; at = buf.indexOf(10, at + 1)) lines++;
  return lines;
}

const domainOf = (address: string | undefined) => address?.split('@').pop()?.trim().toLowerCase() ?? '';

/** The value of a header line (after `Name:`), unfolded. */
const valueOf = (row: HeaderRow) =>
  row.line
    .toString('binary')
    .replace(/^[^:]*:/, '')
    .replace(/\r?\n/g, '');

/** What the tenant's receiving server says about the From domain, if its header is there and says pass. */
function receivingServerSays(
  lib: Mailauth,
  rows: HeaderRow[],
  authservId: string,
  fromDomain: string,
): string | undefined {
  const wanted = authservId.trim().toLowerCase();
  let results: ParsedResults | undefined;
  for (const row of rows) {
    if (row.key !== 'authentication-results') continue;
    const parsed = lib.parseHeader(row.line).parsed;
    if (parsed.value?.toLowerCase() !== wanted) continue;
    results = parsed;
    break; // the topmost one of our server only
  }
  if (!results) return undefined;
  const aligned = (domain: string | undefined) => !!domain && !!lib.getAlignment(fromDomain, [domain]);
  if (results.dmarc?.value === 'pass' && results.dmarc.header?.from?.toLowerCase() === fromDomain)
    return `${wanted}: dmarc=pass header.from=${fromDomain}`;
  for (const dkim of results.dkim ?? []) {
    const domain = dkim.header?.d ?? domainOf(dkim.header?.i);
    if (dkim.value === 'pass' && aligned(domain)) return `${wanted}: dkim=pass header.d=${domain}`;
  }
  const mailFrom = results.spf?.smtp?.mailfrom;
  if (results.spf?.value === 'pass' && aligned(domainOf(mailFrom)))
    return `${wanted}: spf=pass smtp.mailfrom=${domainOf(mailFrom)}`;
  return undefined;
}

/** A DKIM signature that proves the From address's domain, if the mail has one. */
async function dkimSays(
  lib: Mailauth,
  raw: Buffer,
  fromDomain: string,
  resolver: DnsResolver,
): Promise<{ pass?: string; note: string }> {
  const result = await lib.authenticate(raw, { resolver, disableArc: true, disableBimi: true });
  const rows = result.dkim.results ?? [];
  const dmarc = result.dmarc === false ? undefined : result.dmarc;
  const dmarcFails = dmarc?.status?.result === 'fail';
  // adkim=s: the signing domain must be the From domain itself (mailauth's DMARC check is relaxed here).
  const strict = dmarc?.alignment?.dkim?.strict === true;
  const proving = rows.find(
    (r) =>
      r.status.result === 'pass' &&
      !!r.status.aligned &&
      (!strict || r.signingDomain?.toLowerCase() === fromDomain) &&
      !r.canonBodyLengthLimited &&
      (r.signingHeaders?.keys ?? '')
        .split(':')
        .map((k) => k.trim().toLowerCase())
        .includes('from'),
  );
  if (proving && !dmarcFails) return { pass: `dkim=pass d=${proving.signingDomain}`, note: '' };
  const seen = rows
    .filter((r) => r.signingDomain)
    .map((r) => `dkim=${r.status.result} d=${r.signingDomain}${r.status.aligned ? '' : ' (not aligned)'}`);
  if (strict) seen.push('dmarc adkim=s: the signing domain must be the From domain');
  else if (dmarcFails) seen.push('dmarc=fail');
  return { note: seen.join('; ') || 'no DKIM signature' };
}

const timeout = (ms: number) =>
  new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error('the check took too long (DNS)')), ms).unref();
  });

/**
 * Whether the mail proves that `from` (the address the desk read, lower case) sent it. Never throws: a
 * check that cannot finish leaves the sender unverified, with the reason in the note.
 */
export async function checkSender(
  raw: Buffer,
  from: string | undefined,
  options: { authservId: string | null; resolver: DnsResolver; timeoutMs?: number },
): Promise<SenderCheck> {
  if (!from) return { verified: false, note: 'the mail has no sender address' };
  const head = raw.subarray(0, headerEnd(raw));
  if (head.length > MAX_HEADER_BYTES || countLines(head) > MAX_HEADER_LINES)
    return { verified: false, note: 'the header is too large to be checked' };
  try {
    const lib = mailauth();
    const rows = lib.parseHeaders(head).parsed;
    const froms = rows.filter((r) => r.key === 'from');
    const addresses = froms.flatMap((r) => lib.addressparser(valueOf(r)));
    if (froms.length !== 1 || addresses.length !== 1 || addresses[0]!.address?.toLowerCase() !== from)
      return { verified: false, note: 'the From header is not exactly one address' };
    const fromDomain = domainOf(from);
    if (options.authservId) {
      const said = receivingServerSays(lib, rows, options.authservId, fromDomain);
      if (said) return { verified: true, note: said };
    }
    const signatures = rows.filter((r) => r.key === 'dkim-signature').length;
    if (signatures === 0) return { verified: false, note: 'no DKIM signature' };
    if (signatures > MAX_SIGNATURES)
      return { verified: false, note: `more than ${MAX_SIGNATURES} DKIM signatures: not checked` };
    const dkim = await Promise.race([
      dkimSays(lib, raw, fromDomain, options.resolver),
      timeout(options.timeoutMs ?? CHECK_TIMEOUT_MS),
    ]);
    return dkim.pass ? { verified: true, note: dkim.pass } : { verified: false, note: dkim.note };
  } catch (error) {
    return { verified: false, note: error instanceof Error ? error.message.slice(0, 200) : 'check failed' };
  }
}
