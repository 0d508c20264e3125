import { describe, expect, it } from 'vitest';
import { networkInterfaces } from 'node:os';
import { isLocalHost, tenantSlugFromHost } from '../../server/tenancy/host.ts';
import { parseAuthority } from '../../server/http/host-header.ts';

/** Hosts a browser may read as another machine than the one a careless reader sees (issue 31 item 4). */
const NOT_PLAIN = [
  'localhost:80@attacker.com',
  'localhost:@attacker.com',
  'localhost@attacker.com',
  '127.0.0.1:3000@evil',
  'user:pass@localhost',
  '[::1]@evil',
  '[::1]:80@evil',
  'localhost\\@evil',
  'localhost%40evil',
  'local%68ost',
  'localhost:3000#@evil',
  'localhost:3000/@evil',
  ' localhost',
  'localhost evil',
  'localhost..',
  '.localhost',
  '127.1',
  '2130706433',
  '0x7f.0.0.1',
  '[0:0::1]',
  '::1',
  'localhost:',
  'localhost:080',
  'localhost:65536',
  'localhost:80:81',
  'xn--zz.localhost',
];

describe('parseAuthority', () => {
  it.each([
    ['localhost', 'localhost', 'localhost'],
    ['LocalHost:3000', 'localhost', 'localhost:3000'],
    ['acme.localhost.:3000', 'acme.localhost', 'acme.localhost.:3000'],
    ['127.0.0.1:80', '127.0.0.1', '127.0.0.1:80'],
    ['[::1]:3000', '::1', '[::1]:3000'],
  ])('reads %s as the name %s', (header, name, host) => {
    expect(parseAuthority(header)).toEqual({ name, host });
  });

  it.each(NOT_PLAIN)('refuses %s', (header) => {
    expect(parseAuthority(header)).toBeUndefined();
  });
});

describe('tenantSlugFromHost', () => {
  it.each([
    ['acme.localhost:3000', 'acme'],
    ['acme.localhost', 'acme'],
    ['ACME.Example.com', 'acme'],
    ['beta.desk.example.com:443', 'beta'],
    ['acme.example.com.', 'acme'],
  ])('takes the subdomain of %s', (host, slug) => {
    expect(tenantSlugFromHost(host, 'default')).toBe(slug);
  });

  it.each([
    'localhost',
    'localhost:3000',
    '127.0.0.1',
    '127.0.0.1:3000',
    '[::1]:3000',
    'desk',
    'example.com',
    'example.com:8080',
    'www.example.com',
    '',
    undefined,
  ])('serves the default tenant on the bare host %s', (host) => {
    expect(tenantSlugFromHost(host, 'default')).toBe('default');
  });

  it.each(NOT_PLAIN)('names no tenant for %s', (host) => {
    expect(tenantSlugFromHost(host, 'default')).toBeUndefined();
  });

  it('refuses labels that cannot be a slug without a lookup', () => {
    expect(tenantSlugFromHost('-bad.example.com', 'default')).toBeUndefined();
    expect(tenantSlugFromHost('a_b.example.com', 'default')).toBeUndefined();
  });
});

describe('isLocalHost', () => {
  const ownAddress = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && !a.internal)?.address;

  it.each(['localhost', 'localhost:3000', 'acme.localhost:3000', '127.0.0.1', '127.0.0.2:80', '[::1]:3000'])(
    'takes %s for this machine',
    (host) => {
      expect(isLocalHost(host)).toBe(true);
    },
  );

  it.each([
    'attacker.com',
    'acme.attacker.com',
    'localhost.attacker.com',
    '203.0.113.9',
    'desk',
    '',
    undefined,
    ...NOT_PLAIN,
  ])('does not take %s for this machine', (host) => {
    expect(isLocalHost(host)).toBe(false);
  });

  it.runIf(ownAddress)("takes one of this machine's own interface addresses", () => {
    expect(isLocalHost(ownAddress!.includes(':') ? `[${ownAddress}]:3000` : `${ownAddress}:3000`)).toBe(true);
  });
});
