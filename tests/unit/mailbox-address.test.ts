/**
 * The address check of a message's to, cc and bcc (server/resources/messages/recipients.ts) runs in
 * time proportional to its text: the shape that made its earlier pattern try every dot of the domain
 * again (quadratic: about 4 minutes for a 1 MB field) is refused at once, before and after the length
 * limit, and plain addresses still pass.
 */
import { describe, expect, it } from 'vitest';
import { isMailboxAddress } from '../../server/resources/messages/recipients.ts';

/** The earlier pattern's worst case: a domain of many dots that fails at its very end. */
const hostile = (pairs: number) => `a@${'a.'.repeat(pairs)}@`;

describe('a mailbox address', () => {
  it('passes plain addresses and refuses lists, names and broken domains', () => {
    for (const ok of ['a@b.nl', 'jan.de.vries@example.co.uk', 'support+desk@mail.example.com'])
      expect(isMailboxAddress(ok), ok).toBe(true);
    for (const bad of ['a@b', 'a@b..nl', 'a@.b.nl', 'a@b.nl.', 'Jan <a@b.nl>', 'a@b.nl, c@d.nl', 'a b@c.nl'])
      expect(isMailboxAddress(bad), bad).toBe(false);
  });

  it('reads a hostile text once: its pattern alone, without the length limit, refuses 1 MB at once', () => {
    expect(isMailboxAddress(hostile(100))).toBe(false);
    // The pattern itself, past the length limit: the earlier one took minutes here, past the test's
    // time limit; each character of this one can match one way only.
    expect(isMailboxAddress.pattern.test(hostile(500_000))).toBe(false);
  });
});
