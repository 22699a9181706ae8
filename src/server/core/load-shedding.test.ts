// The admission rule of the load shedder, on a fake clock: no timing of a busy machine involved.
import { describe, expect, it } from 'vitest';
import { createAdmission } from './load-shedding';

function fakeAdmission(queueMs: number, minInFlight: number) {
  let at = 1_000_000;
  const admission = createAdmission({ queueMs, minInFlight, now: () => at });
  return { admission, advance: (ms: number) => void (at += ms) };
}

/** Admits n requests; returns how many were refused. */
function offer(admission: ReturnType<typeof createAdmission>, n: number) {
  let refused = 0;
  for (let k = 0; k < n; k += 1) {
    if (admission.full()) refused += 1;
    else admission.admitted();
  }
  return refused;
}

describe('admission by the queue already held', () => {
  it('admits up to the minimum whatever the rate: a process idle until now serves a burst', () => {
    const { admission } = fakeAdmission(500, 256);
    expect(offer(admission, 300)).toBe(44);
    expect(admission.inFlight).toBe(256);
    admission.answered();
    expect(admission.full()).toBe(false);
  });

  /** Answers `perStep` requests every 10 ms for `ms` (admitting them first): a steady rate. */
  function steady(admission: ReturnType<typeof createAdmission>, advance: (ms: number) => void, perStep: number, ms: number) {
    for (let t = 0; t < ms; t += 10) {
      const admitted = perStep - offer(admission, perStep);
      for (let k = 0; k < admitted; k += 1) admission.answered();
      advance(10);
    }
  }

  it('admits what it answers in queueMs at the rate of the last second, and refuses the rest', () => {
    const { admission, advance } = fakeAdmission(500, 10);
    // 2,000 answers a second: 1,000 requests in flight take 500 ms to answer.
    steady(admission, advance, 20, 2000);
    expect(admission.limit()).toBe(1000);
    advance(50);
    expect(admission.limit()).toBe(947); // 1,800 answers over the last 950 ms
    const refused = offer(admission, 4000);
    expect(admission.inFlight).toBe(947);
    expect(refused).toBe(4000 - 947);
  });

  it('lowers the limit to the minimum when nothing is answered for a second (a stalled database)', () => {
    const { admission, advance } = fakeAdmission(500, 10);
    steady(admission, advance, 10, 2000);
    expect(admission.limit()).toBe(500);
    offer(admission, 100);
    expect(admission.inFlight).toBe(100);
    advance(1100);
    expect(admission.limit()).toBe(10);
    expect(admission.full()).toBe(true);
    // Answers come back: the limit rises with them (95 answers in 0.9 s: 52 may wait 500 ms).
    for (let k = 0; k < 95; k += 1) admission.answered();
    expect(admission.inFlight).toBe(5);
    expect(admission.limit()).toBe(52);
    expect(admission.full()).toBe(false);
  });

  it('forgets answers older than a second, bucket by bucket', () => {
    const { admission, advance } = fakeAdmission(1000, 1);
    offer(admission, 300);
    for (let k = 0; k < 100; k += 1) admission.answered();
    advance(500);
    for (let k = 0; k < 200; k += 1) admission.answered();
    expect(admission.limit()).toBe(333); // 300 answers over the 900 ms the buckets cover
    advance(600); // the first 100 answers are now 1.1 s old
    expect(admission.limit()).toBe(222);
    advance(5000);
    expect(admission.limit()).toBe(1);
  });

  it('admits everything with queueMs 0 (off)', () => {
    const { admission } = fakeAdmission(0, 1);
    expect(offer(admission, 10_000)).toBe(0);
  });
});
