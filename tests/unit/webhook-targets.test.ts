/**
 * The webhook target rules (server/resources/webhooks/targets.ts) and the one event list
 * (common/webhook-events.ts) that the schemas repeat.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isPublicAddress, resolveTarget, targetProblem } from '../../server/resources/webhooks/targets.ts';
import { signature } from '../../server/resources/webhooks/signing.ts';
import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from '../../common/webhook-events.ts';

const schema = (name: string) => JSON.parse(readFileSync(`schemas/${name}.json`, 'utf8'));

describe('webhook targets', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.1.1',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.251',
    '192.0.2.1',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:192.168.1.1',
    '64:ff9b::a00:1',
    '2001:db8::1',
    'not an address',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('allows private targets and plain http only when the installation does', () => {
    expect(targetProblem('http://127.0.0.1:8080/hook', true)).toBeUndefined();
    expect(targetProblem('http://127.0.0.1:8080/hook', false)).toBe('The URL must start with https://.');
    expect(targetProblem('ftp://example.com/', true)).toBe('The URL must start with https://.');
    expect(targetProblem('not a url', false)).toBe('The URL is not a valid address.');
    expect(targetProblem('https://example.com/hook', false)).toBeUndefined();
  });

  it('connects to the address it checked: a literal as it is, refused when private', async () => {
    await expect(resolveTarget('https://[::ffff:7f00:1]/x', false)).rejects.toThrow('non-public address');
    await expect(resolveTarget('https://8.8.8.8/x', false)).resolves.toMatchObject({
      address: '8.8.8.8',
      family: 4,
    });
  });

  it('signs the timestamp and the body: v1= and the hex HMAC-SHA256', () => {
    // Known answer, computed apart (Python's hmac): HMAC-SHA256 of "1700000000.{}" with the key "whsec_test".
    expect(signature('whsec_test', '1700000000', '{}')).toBe(
      'v1=35495024f4ef3f94e5a93e22221544c4b75e9a42300cd965ab81cb85cd994e91',
    );
  });

  it('has one list of events, which the schemas repeat', () => {
    expect(schema('webhooks').properties.events.items.enum).toEqual([...WEBHOOK_EVENTS]);
    expect(schema('webhook-deliveries').properties.event.enum).toEqual([
      ...WEBHOOK_EVENTS,
      WEBHOOK_TEST_EVENT,
    ]);
  });
});
