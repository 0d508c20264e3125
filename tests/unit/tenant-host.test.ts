import { describe, expect, it } from 'vitest';
import { networkInterfaces } from 'node:os';
import { isLocalHost, tenantSlugFromHost } from '../../server/tenancy/host.ts';

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
    '::1',
    'desk',
    'example.com',
    'example.com:8080',
    'www.example.com',
    '',
    undefined,
  ])('serves the default tenant on the bare host %s', (host) => {
    expect(tenantSlugFromHost(host, 'default')).toBe('default');
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
  ])('does not take %s for this machine', (host) => {
    expect(isLocalHost(host)).toBe(false);
  });

  it.runIf(ownAddress)("takes one of this machine's own interface addresses", () => {
    expect(isLocalHost(ownAddress!.includes(':') ? `[${ownAddress}]:3000` : `${ownAddress}:3000`)).toBe(true);
  });
});
