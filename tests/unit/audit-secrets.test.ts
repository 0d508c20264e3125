/**
 * What the audit log hides (server/audit/audit.ts): the schema's marks (writeOnly, format password) and
 * secret names decide, for every resource that has them; an update says a secret changed, never to what.
 */
import { describe, expect, it } from 'vitest';
import { changesOf, HIDDEN, isSecret, withoutSecrets } from '../../server/audit/audit.ts';
import { registry } from '../../server/schema/registry.ts';

describe('audit secrets', () => {
  it('hides every writeOnly or password field of every schema', () => {
    for (const resource of registry().resources.values())
      for (const field of Object.values(resource.fields))
        if (field.writeOnly || field.format === 'password')
          expect(isSecret(field), `${resource.name}.${field.name}`).toBe(true);
  });

  it('hides secret-named columns no schema describes, and leaves ordinary names alone', () => {
    const hidden = withoutSecrets(undefined, {
      password_hash: '$argon2id$x',
      session_id: 'abc',
      refresh_token: 't',
      client_secret: 's',
      password_encrypted: 'v1:x',
      token: 'x',
      name: 'Support',
      hashtag: '#desk',
      tokens_used: 3,
      token_id: 4,
      secret_key: 'k',
    });
    expect(hidden).toEqual({
      password_hash: HIDDEN,
      session_id: 'abc',
      refresh_token: HIDDEN,
      client_secret: HIDDEN,
      password_encrypted: HIDDEN,
      token: HIDDEN,
      name: 'Support',
      hashtag: '#desk',
      tokens_used: 3,
      token_id: 4,
      secret_key: HIDDEN,
    });
  });

  it("gives an update's before and after, a secret as changed only", () => {
    const mailboxes = registry().require('mailboxes');
    expect(
      changesOf(mailboxes, { name: 'A', port: 993 }, { name: 'B', port: 993, password: 'secret-value' }),
    ).toEqual({ name: ['A', 'B'], password: [HIDDEN, HIDDEN] });
  });
});
