import { describe, expect, it } from 'vitest';
import { tenantSlugFromHost } from '../../server/tenancy/host.ts';

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
