// A small seeded pseudo-random generator (mulberry32): the same sequence for the same seed, so
// simulated data (the demo's results, the tests' and benchmarks' synthetic exams) and fuzz cases
// are the same on every run and a failure reproduces. Not for anything secret.

/** A generator of numbers in [0, 1) from `seed`. */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
