// Password hashing with scrypt from node:crypto (memory-hard; no native dependency).
// Stored as scrypt$N$r$p$salt$hash (base64url) so parameters can be raised later.
//
// A request hashes only through a PasswordHasher (createPasswordHasher, passwordHasherOf): a pool of
// its own with a bounded queue that refuses at once, with a 503, a hash it could not finish within
// PASSWORD_HASH_QUEUE_MS (docs/decisions/031-password-hashing-admission.md). hashPassword and
// verifyPassword alone are for what runs outside requests (the seed, the command line, tests' factories).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { accountMessages } from '../../shared/messages';
import { appError } from './errors';
import { createHashAdmission, type HashAdmission, type HashSlot } from './hash-admission';

const KEY_LENGTH = 32;
// N=2^15, r=8: about 32 MB and ~50-100 ms per hash on one core of this machine.
const DEFAULT = { N: 32_768, r: 8, p: 1 };

/**
 * The stored form of 'not-a-password-of-anyone' with the default parameters: compared against when
 * the phone has no account, so that a wrong phone costs the same hash as a wrong password (the answer
 * must not be a timing oracle for who is registered). A constant, so that it is never hashed at run time.
 */
export const DUMMY_PASSWORD_HASH = 'scrypt$32768$8$1$KMybPYJ2EAsZauCMEzXG5w$MAhiDq7-fX5bRESd_4DcVbAEvHIqe14U0t2p-V50uZI';

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: 128 * options.N! * options.r! * 2 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, DEFAULT);
  return ['scrypt', DEFAULT.N, DEFAULT.r, DEFAULT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Hashes admitted for one request: each hash or verify uses one; release() gives back those not used. */
export interface PasswordWork {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  release(): void;
}

export interface PasswordHasher {
  /**
   * Admits `count` hashes for one request, before anything else is done for it (nothing to undo
   * when it is refused), or throws the 503 at once.
   */
  admit(count?: number): PasswordWork;
  /** One admitted hash, or the 503. */
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  readonly admission: HashAdmission;
}

/** 503 service_unavailable with Retry-After (the error handler adds it to every 503). */
export const hashingBusy = () => appError('service_unavailable', accountMessages.passwordHashingBusy);

export function createPasswordHasher(options: { queueMs: number; threads: number; now?: () => number }): PasswordHasher {
  const admission = createHashAdmission(options);
  function admit(count = 1): PasswordWork {
    const slots = admission.admit(count);
    if (!slots) throw hashingBusy();
    const next = (): HashSlot => {
      const slot = slots.shift();
      if (!slot) throw new Error('more hashes than admitted');
      return slot;
    };
    return {
      hash: (password) => next().run(() => hashPassword(password)),
      verify: (password, stored) => next().run(() => verifyPassword(password, stored)),
      release: () => {
        for (const slot of slots.splice(0)) slot.release();
      },
    };
  }
  return {
    admit,
    hash: (password) => admit(1).hash(password),
    verify: (password, stored) => admit(1).verify(password, stored),
    admission,
  };
}

/**
 * The hasher of an app, by its configuration (one app, one config object): the pool is the process's
 * CPU and libuv threads, which every feature that hashes shares, so it is found from what every
 * feature is given rather than passed to each. Made at the first hash.
 */
const hashers = new WeakMap<object, PasswordHasher>();
export function passwordHasherOf(config: { passwordHashing: { queueMs: number; threads: number } }): PasswordHasher {
  let hasher = hashers.get(config);
  if (!hasher) {
    hasher = createPasswordHasher(config.passwordHashing);
    hashers.set(config, hasher);
  }
  return hasher;
}
