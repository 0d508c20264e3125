/**
 * Every argon2 hash and verify of the server goes through here (login, the unknown-address dummy, a
 * password reset, a password set through the records API, the demo seed), in the slots of one
 * `HashingQueue` per app (hashing-queue.ts), so a flood of logins takes at most its share of the cores.
 *
 * Parameters: argon2id with 19 MiB, 2 passes and 1 lane (OWASP's Password Storage Cheat Sheet, first
 * argon2id line): one verify is one thread for a bounded time (about 0.05-0.1 s of CPU). Hashes made
 * before 2026-12-01 carry the library's defaults (64 MiB, 3 passes, 4 lanes: four threads, five times
 * the CPU); they still verify, and a successful login gives the caller a new hash with today's
 * parameters to store. A stored hash asking for more than those old defaults is never verified: no
 * hash we made asks for it, and it could hold a slot for as long as it liked.
 */
import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { HashingQueue, defaultHashingLimits, type HashingLimits, type Lane } from './hashing-queue.ts';

export { HashingBusy, type HashingLimits, type Lane } from './hashing-queue.ts';

export const HASH_PARAMETERS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** The most a stored hash may ask of a verify: the library's defaults, which every older hash has. */
export const VERIFY_CEILING = { memoryCost: 65_536, timeCost: 3, parallelism: 4 } as const;

interface Parameters {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

// The PHC string: $argon2id$v=19$m=19456,p=1,t=2$<salt>$<hash> (the library writes the three in
// this order, the reference tool as m,t,p). Anchored, bounded runs: linear.
const PHC = /^\$argon2(?:id|i|d)\$v=\d{1,3}\$([mtp]=\d{1,10},[mtp]=\d{1,10},[mtp]=\d{1,10})\$/;

function parametersOf(hash: string): Parameters | undefined {
  const match = PHC.exec(hash);
  if (!match) return undefined;
  const values = new Map(match[1]!.split(',').map((pair) => [pair[0], Number(pair.slice(2))] as const));
  const [m, t, p] = [values.get('m'), values.get('t'), values.get('p')];
  if (m === undefined || t === undefined || p === undefined) return undefined;
  return { memoryCost: m, timeCost: t, parallelism: p };
}

function withinCeiling(p: Parameters): boolean {
  return (
    p.memoryCost <= VERIFY_CEILING.memoryCost &&
    p.timeCost <= VERIFY_CEILING.timeCost &&
    p.parallelism <= VERIFY_CEILING.parallelism
  );
}

/** More threads or more memory times passes than today's parameters: worth replacing at a login. */
function costsMore(p: Parameters): boolean {
  return (
    p.parallelism > HASH_PARAMETERS.parallelism ||
    p.memoryCost * p.timeCost > HASH_PARAMETERS.memoryCost * HASH_PARAMETERS.timeCost
  );
}

let dummy: Promise<string> | undefined;

/**
 * Verified against when the e-mail is unknown, so both answers take about as long: made with today's
 * parameters, once per process, inside the first slot that needs it.
 */
function dummyHash(): Promise<string> {
  if (!dummy) {
    dummy = argon2.hash(randomBytes(16).toString('hex'), HASH_PARAMETERS);
    dummy.catch(() => (dummy = undefined));
  }
  return dummy;
}

export interface Verdict {
  matches: boolean;
  /** The same password hashed with today's parameters, when the stored hash costs more to verify. */
  rehashed?: string;
  /** The stored hash is not one argon2 can verify within the ceiling (corrupt, or planted): logged. */
  unusable?: boolean;
}

export class PasswordHashing {
  readonly queue: HashingQueue;

  constructor(limits: HashingLimits = defaultHashingLimits()) {
    this.queue = new HashingQueue(limits);
  }

  /** A new hash of `password`; rejects with `HashingBusy` when the lane is full. */
  hash(password: string, lane: Lane = 'trusted'): Promise<string> {
    return this.queue.run(lane, () => argon2.hash(password, HASH_PARAMETERS));
  }

  /**
   * Whether `password` matches `stored`; with no stored hash (unknown e-mail, no password) the dummy is
   * verified instead and the answer is no. Rejects with `HashingBusy` when the lane is full.
   */
  verify(stored: string | null, password: string, lane: Lane): Promise<Verdict> {
    return this.queue.run(lane, async () => {
      const hash = stored ?? (await dummyHash());
      const parameters = parametersOf(hash);
      if (!parameters || !withinCeiling(parameters)) return { matches: false, unusable: true };
      let matches: boolean;
      try {
        matches = (await argon2.verify(hash, password)) && stored !== null;
      } catch {
        return { matches: false, unusable: true };
      }
      if (!matches || !costsMore(parameters)) return { matches };
      return { matches, rehashed: await argon2.hash(password, HASH_PARAMETERS) };
    });
  }
}

/** Hashes one password outside any app (the demo seed at start-up), in a queue of its own. */
export function hashOnce(password: string): Promise<string> {
  return new PasswordHashing({ concurrency: 1, queue: 0 }).hash(password);
}
