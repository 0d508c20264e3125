/**
 * Mail authentication for the incoming-mail tests: a real DNS server on a loopback UDP port that
 * answers the TXT records a test publishes (DKIM keys, DMARC records) and NXDOMAIN for everything else,
 * and DKIM signing with a test's own key (mailauth signs as it verifies). The app reaches the server
 * through its own setting, MAIL_DNS_SERVERS (config `mailDnsServers`): nothing of ours is replaced.
 */
import { createSocket } from 'node:dgram';
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface Question {
  name: string;
  type: string;
}
interface Packet {
  id?: number;
  type?: string;
  flags?: number;
  questions?: Question[];
  answers?: { name: string; type: string; ttl: number; data: Buffer[] }[];
}
const dnsPacket = require('dns-packet') as {
  decode(buf: Buffer): Packet;
  encode(packet: Packet): Buffer;
  RECURSION_DESIRED: number;
  RECURSION_AVAILABLE: number;
};
const { dkimSign } = require('mailauth/lib/dkim/sign') as {
  dkimSign(
    message: string | Buffer,
    options: Record<string, unknown>,
  ): Promise<{ signatures: string; errors: unknown[] }>;
};

const NXDOMAIN = 3;

export interface TestDns {
  /** `127.0.0.1:port`, as MAIL_DNS_SERVERS takes it. */
  server: string;
  /** Answers `name`'s TXT question with this text from now on. */
  publish(name: string, text: string): void;
  /** The names asked for, in order. */
  asked: string[];
  close(): Promise<void>;
}

export async function startTestDns(): Promise<TestDns> {
  const records = new Map<string, string>();
  const asked: string[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (message, remote) => {
    let query: Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    asked.push(`${name} ${question.type}`);
    const text = question.type === 'TXT' ? records.get(name) : undefined;
    // A TXT record is a list of strings of at most 255 bytes each: a long key is split.
    const chunks = text ? (text.match(/.{1,255}/g) ?? []).map((c) => Buffer.from(c)) : [];
    const answer = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags:
        dnsPacket.RECURSION_DESIRED |
        dnsPacket.RECURSION_AVAILABLE |
        (text || records.has(name) ? 0 : NXDOMAIN),
      questions: [question],
      answers: text ? [{ name: question.name, type: 'TXT', ttl: 1, data: chunks }] : [],
    });
    socket.send(answer, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    publish: (name, text) => records.set(name.toLowerCase(), text),
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

export interface DkimKey {
  domain: string;
  selector: string;
  privateKey: string;
  /** The DNS record that publishes the public key. */
  record: { name: string; text: string };
}

/** A fresh RSA key for `selector._domainkey.domain`. */
export function dkimKey(domain: string, selector = 'test'): DkimKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return {
    domain,
    selector,
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    record: { name: `${selector}._domainkey.${domain}`, text: `v=DKIM1; k=rsa; p=${p}` },
  };
}

/** The mail with a DKIM-Signature of `key` on top; `maxBodyLength` signs only so much of the body (l=). */
export async function signMail(
  raw: string,
  key: DkimKey,
  options: { maxBodyLength?: number } = {},
): Promise<string> {
  const signed = await dkimSign(raw, {
    signatureData: [
      {
        signingDomain: key.domain,
        selector: key.selector,
        privateKey: key.privateKey,
        ...(options.maxBodyLength === undefined ? {} : { maxBodyLength: options.maxBodyLength }),
      },
    ],
  });
  if (signed.errors.length) throw new Error(`signing failed: ${JSON.stringify(signed.errors)}`);
  return signed.signatures + raw;
}
