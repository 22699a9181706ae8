// Bounded admission for password hashing (docs/decisions/031-password-hashing-admission.md).
// A scrypt hash is tens of milliseconds of one core; the process's admission (core/load-shedding.ts)
// counts requests, not their cost, so a login storm got about 13 s of hashing admitted behind its
// floor of 256 requests in flight. Here the hashes have a pool of their own (`threads` at once, on
// libuv's threadpool) and a queue in front of it that refuses at once a hash it could not finish
// within `queueMs`, from the measured time of a hash.

/** Weight of the newest hash in the moving average of the time of one hash. */
const ALPHA = 0.2;
/** The time of one hash (ms) assumed until one has been measured: about a hash on one core here. */
export const INITIAL_HASH_MS = 100;

export interface HashAdmissionOptions {
  /** The longest (ms) a new hash may expect to take until it is done, its wait included (0 = no limit). */
  queueMs: number;
  /** Hashes run at once; the others wait in the queue, in order of arrival. */
  threads: number;
  /** Milliseconds from any fixed origin (performance.now by default; a fake clock in tests). */
  now?: () => number;
}

/** One hash admitted: run it once, or release it if it is not needed after all (an early refusal). */
export interface HashSlot {
  run<T>(job: () => Promise<T>): Promise<T>;
  release(): void;
}

export interface HashAdmission {
  /**
   * `count` hashes at once (all or none: a registration verifies its code, then hashes the new
   * password), or undefined when the queue could not finish the last of them within `queueMs`.
   */
  admit(count?: number): HashSlot[] | undefined;
  /** Admitted and not yet done: waiting, running, or held by a request about to hash. */
  readonly admitted: number;
  readonly running: number;
  /** The moving average of the time of one hash (ms), from its start on a thread to its end. */
  readonly meanHashMs: number;
  /** The time (ms) a hash admitted now should take until it is done. */
  expectedMs(count?: number): number;
}

/**
 * The rule: with `admitted` hashes ahead and `threads` of them run at once, a new one is done after
 * ceil((admitted + 1) / threads) hashes' time. It is refused when that is over `queueMs`, unless a
 * thread is free (a process whose hashes have become slower than `queueMs` must still hash, and so
 * measure again). The time of a hash is measured on the threads themselves, so it follows what the
 * machine gives them (other processes, PostgreSQL, the event loop on the same cores).
 */
export function createHashAdmission({ queueMs, threads, now = () => performance.now() }: HashAdmissionOptions): HashAdmission {
  let admitted = 0;
  let running = 0;
  let meanHashMs = INITIAL_HASH_MS;
  /** Admitted hashes waiting for a thread, in order of arrival. */
  const waiting: (() => void)[] = [];

  const expectedMs = (count = 1) => Math.ceil((admitted + count) / threads) * meanHashMs;

  async function takeThread() {
    if (running < threads) {
      running += 1;
      return;
    }
    // The thread is handed over by the hash that ends (running stays the same), so that no hash
    // arriving meanwhile can start ahead of the queue.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  function giveThreadBack() {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }

  function slot(): HashSlot {
    let state: 'admitted' | 'used' = 'admitted';
    return {
      async run(job) {
        if (state !== 'admitted') throw new Error('a hash slot runs one hash');
        state = 'used';
        await takeThread();
        const started = now();
        try {
          return await job();
        } finally {
          meanHashMs += ALPHA * (now() - started - meanHashMs);
          admitted -= 1;
          giveThreadBack();
        }
      },
      release() {
        if (state !== 'admitted') return;
        state = 'used';
        admitted -= 1;
      },
    };
  }

  return {
    admit(count = 1) {
      if (queueMs > 0 && admitted + count > threads && expectedMs(count) > queueMs) return undefined;
      admitted += count;
      return Array.from({ length: count }, slot);
    },
    get admitted() {
      return admitted;
    },
    get running() {
      return running;
    },
    get meanHashMs() {
      return meanHashMs;
    },
    expectedMs,
  };
}
