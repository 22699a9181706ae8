import { describe, expect, it } from 'vitest';
import { createHashAdmission, INITIAL_HASH_MS } from './hash-admission';

/** A fake clock and hashes that end when the test says so, after the time it says. */
function setup(options: { queueMs: number; threads: number }) {
  let clock = 0;
  const admission = createHashAdmission({ ...options, now: () => clock });
  const started: number[] = [];
  const finishers = new Map<number, () => void>();
  /** Admits one hash and runs it; returns undefined when refused. */
  function hash(id: number) {
    const slots = admission.admit();
    if (!slots) return undefined;
    return slots[0]!.run(
      () =>
        new Promise<number>((resolve) => {
          started.push(id);
          finishers.set(id, () => resolve(id));
        }),
    );
  }
  /** Ends hash `id` after `ms` of the fake clock, and lets the queue move on. */
  async function finish(id: number, ms: number) {
    await new Promise((resolve) => setImmediate(resolve));
    clock += ms;
    finishers.get(id)!();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { admission, hash, finish, settle, started };
}

describe('password hashing admission', () => {
  it('queues what it can finish within queueMs at the measured hash time, and refuses the rest at once', async () => {
    // 2 threads, 100 ms a hash until measured: a hash is done after ceil((admitted + 1) / 2) x 100 ms.
    const { admission, hash } = setup({ queueMs: 500, threads: 2 });
    expect(admission.meanHashMs).toBe(INITIAL_HASH_MS);
    const admitted = Array.from({ length: 10 }, (_, i) => hash(i)).filter(Boolean);
    // 10 hashes: the 10th would be done after 5 x 100 ms = 500 ms (admitted); the 11th after 600.
    expect(admitted).toHaveLength(10);
    expect(hash(10)).toBeUndefined();
    expect(admission.admitted).toBe(10);
    expect(admission.running).toBe(2);
  });

  it('runs at most `threads` hashes at once, in order of arrival, and admits again as they end', async () => {
    const { admission, hash, finish, settle, started } = setup({ queueMs: 300, threads: 2 });
    const done = [0, 1, 2, 3, 4, 5].map(hash);
    expect(done.every(Boolean)).toBe(true);
    expect(hash(6)).toBeUndefined();
    await settle();
    expect(started).toEqual([0, 1]);
    await finish(0, 100);
    expect(started).toEqual([0, 1, 2]);
    expect(admission.running).toBe(2);
    // One place free in the queue: one more admitted, the next refused.
    expect(hash(7)).toBeDefined();
    expect(hash(8)).toBeUndefined();
    await finish(1, 0);
    await finish(2, 0);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('measures the time of a hash (moving average) and sizes the queue by it', async () => {
    const { admission, hash, finish } = setup({ queueMs: 1000, threads: 1 });
    // Hashes of 400 ms each: the average moves from 100 towards 400.
    for (let i = 0; i < 20; i += 1) {
      hash(i);
      await finish(i, 400);
    }
    expect(admission.meanHashMs).toBeGreaterThan(390);
    expect(admission.meanHashMs).toBeLessThanOrEqual(400);
    // 1,000 ms at about 400 ms a hash on one thread: 2 admitted (done after 400 and 800), not a 3rd.
    expect(hash(100)).toBeDefined();
    expect(hash(101)).toBeDefined();
    expect(hash(102)).toBeUndefined();
  });

  it('always admits a hash for a free thread, even when hashes take longer than queueMs', async () => {
    const { admission, hash, finish } = setup({ queueMs: 50, threads: 2 });
    hash(0);
    await finish(0, 5_000);
    expect(admission.meanHashMs).toBeGreaterThan(50);
    expect(hash(1)).toBeDefined();
    expect(hash(2)).toBeDefined();
    expect(hash(3)).toBeUndefined();
  });

  it('admits several hashes of one request all or none, and gives back those released unused', () => {
    const { admission } = setup({ queueMs: 200, threads: 1 });
    // At 100 ms a hash on one thread, 2 fit in 200 ms.
    const pair = admission.admit(2)!;
    expect(pair).toHaveLength(2);
    expect(admission.admit(1)).toBeUndefined();
    pair[1]!.release();
    pair[1]!.release(); // twice: counted once
    expect(admission.admitted).toBe(1);
    expect(admission.admit(2)).toBeUndefined();
    expect(admission.admit(1)).toHaveLength(1);
  });

  it('with queueMs 0 admits everything (no limit)', () => {
    const { hash } = setup({ queueMs: 0, threads: 1 });
    expect(Array.from({ length: 100 }, (_, i) => hash(i)).every(Boolean)).toBe(true);
  });
});
