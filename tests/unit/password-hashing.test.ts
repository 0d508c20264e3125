/**
 * Issue 31 item 6: password hashing has a bounded share of the machine. The queue's rules with jobs the
 * test holds (a slot, a lane, the order), and the argon2 parameters: today's for new hashes, older ones
 * still verified and replaced, none verified beyond the ceiling. The login's use of both:
 * tests/api/login-flood.test.ts.
 */
import argon2 from 'argon2';
import { describe, expect, it } from 'vitest';
import { HashingBusy, HashingQueue, defaultHashingLimits } from '../../server/auth/hashing-queue.ts';
import { HASH_PARAMETERS, PasswordHashing } from '../../server/auth/password-hashing.ts';
import { configFromEnv } from '../../server/config.ts';

/** A job that runs until the test releases it. */
function gate() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { job: () => done, release };
}

describe('the hashing queue', () => {
  it('with 1 slot and a queue of 3, 3 + 2 jobs: exactly 2 refused at once, saying when to return', async () => {
    const queue = new HashingQueue({ concurrency: 1, queue: 3 });
    const held = gate();
    const holder = queue.run('anonymous', held.job);
    const outcomes = Array.from({ length: 5 }, (_, i) =>
      queue
        .run('anonymous', async () => i)
        .then(
          (value) => ({ ran: value }),
          (error: unknown) => ({ refused: error }),
        ),
    );
    // The refusals come before the slot is free: nobody waits for an answer that is no.
    const refused = (await Promise.race([
      Promise.all([outcomes[3], outcomes[4]]),
      holder.then(() => 'slot freed first'),
    ])) as { refused?: unknown }[];
    expect(refused).toHaveLength(2);
    for (const outcome of refused) {
      expect(outcome.refused).toBeInstanceOf(HashingBusy);
      expect((outcome.refused as HashingBusy).retryAfterMs).toBeGreaterThan(0);
    }
    expect(queue.running).toBe(1);
    expect(queue.waiting('anonymous')).toBe(3);
    held.release();
    expect(await Promise.all(outcomes.slice(0, 3))).toEqual([{ ran: 0 }, { ran: 1 }, { ran: 2 }]);
    expect([queue.running, queue.waiting()]).toEqual([0, 0]);
  });

  it('serves the trusted lane first, and a full anonymous lane does not refuse a trusted job', async () => {
    const queue = new HashingQueue({ concurrency: 1, queue: 2 });
    const held = gate();
    const holder = queue.run('anonymous', held.job);
    const order: string[] = [];
    const job = (name: string) => async () => void order.push(name);
    const anonymous = [queue.run('anonymous', job('a1')), queue.run('anonymous', job('a2'))];
    await expect(queue.run('anonymous', job('a3'))).rejects.toBeInstanceOf(HashingBusy);
    const trusted = [queue.run('trusted', job('t1')), queue.run('trusted', job('t2'))];
    await expect(queue.run('trusted', job('t3'))).rejects.toBeInstanceOf(HashingBusy);
    held.release();
    await Promise.all([holder, ...anonymous, ...trusted]);
    expect(order).toEqual(['t1', 't2', 'a1', 'a2']);
  });

  it('a job that fails frees its slot', async () => {
    const queue = new HashingQueue({ concurrency: 1, queue: 1 });
    await expect(queue.run('trusted', () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await queue.run('trusted', async () => 'next')).toBe('next');
    expect(queue.running).toBe(0);
  });

  it('reads PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_QUEUE and LOGIN_FAILURES_PER_MINUTE, refusing nonsense', () => {
    expect(configFromEnv({}).passwordHashing).toEqual(defaultHashingLimits());
    expect(configFromEnv({}).loginFailuresPerMinute).toBe(30);
    const set = configFromEnv({
      PASSWORD_HASH_CONCURRENCY: '2',
      PASSWORD_HASH_QUEUE: '0',
      LOGIN_FAILURES_PER_MINUTE: '0',
    });
    expect([set.passwordHashing, set.loginFailuresPerMinute]).toEqual([{ concurrency: 2, queue: 0 }, 0]);
    for (const [name, value] of [
      ['PASSWORD_HASH_CONCURRENCY', '0'],
      ['PASSWORD_HASH_CONCURRENCY', '65'],
      ['PASSWORD_HASH_QUEUE', '-1'],
      ['PASSWORD_HASH_QUEUE', '10001'],
      ['LOGIN_FAILURES_PER_MINUTE', 'many'],
    ] as const) {
      expect(() => configFromEnv({ [name]: value }), `${name}=${value}`).toThrow(name);
    }
  });

  it('leaves a core to the event loop by default: 1 slot on 2 cores, never more than 3', () => {
    expect(defaultHashingLimits(1).concurrency).toBe(1);
    expect(defaultHashingLimits(2).concurrency).toBe(1);
    expect(defaultHashingLimits(4).concurrency).toBe(3);
    expect(defaultHashingLimits(64).concurrency).toBe(3);
  });
});

describe('argon2 parameters', () => {
  const hashing = new PasswordHashing({ concurrency: 1, queue: 4 });
  const phc = (hash: string) => hash.split('$')[3];

  it('hashes with argon2id, 19 MiB, 2 passes, 1 lane (one thread per verify)', async () => {
    const hash = await hashing.hash('Correct-Horse-42');
    expect(hash.startsWith('$argon2id$v=19$')).toBe(true);
    expect(phc(hash)).toBe('m=19456,p=1,t=2');
    expect(await hashing.verify(hash, 'Correct-Horse-42', 'anonymous')).toEqual({ matches: true });
    expect(await hashing.verify(hash, 'wrong', 'anonymous')).toEqual({ matches: false });
  });

  it("verifies a hash of the library's old defaults (4 lanes) and hands back one with today's", async () => {
    const old = await argon2.hash('Correct-Horse-42');
    expect(phc(old)).toBe('m=65536,p=4,t=3');
    const verdict = await hashing.verify(old, 'Correct-Horse-42', 'trusted');
    expect(verdict.matches).toBe(true);
    expect(phc(verdict.rehashed!)).toBe('m=19456,p=1,t=2');
    expect(await argon2.verify(verdict.rehashed!, 'Correct-Horse-42')).toBe(true);
    // A wrong password gets no new hash; a cheaper hash (the tests' seed) is left as it is.
    expect(await hashing.verify(old, 'wrong', 'trusted')).toEqual({ matches: false });
    const cheap = await argon2.hash('demo', { memoryCost: 1024, timeCost: 1, parallelism: 1 });
    expect(await hashing.verify(cheap, 'demo', 'trusted')).toEqual({ matches: true });
  });

  it('never verifies a stored hash beyond the old defaults, nor a malformed one, and an unknown user never matches', async () => {
    const cheap = await argon2.hash('demo', { memoryCost: 1024, timeCost: 1, parallelism: 1 });
    for (const params of ['m=262144,p=4,t=3', 'm=65536,p=1,t=100', 'm=65536,p=64,t=3']) {
      const planted = cheap.replace('m=1024,p=1,t=1', params);
      expect(await hashing.verify(planted, 'demo', 'anonymous'), params).toEqual({
        matches: false,
        unusable: true,
      });
    }
    expect(await hashing.verify('not a hash', 'demo', 'anonymous')).toEqual({
      matches: false,
      unusable: true,
    });
    expect(await hashing.verify(null, 'demo', 'anonymous')).toEqual({ matches: false });
    expect(HASH_PARAMETERS.parallelism).toBe(1);
  });
});
