// The in-step test (decision 027) against an example worked on paper, and its bound checked
// against the exact null by enumerating every order of a small paper.
import { describe, expect, it } from 'vitest';
import { inStep, inStepPValue, inStepTerms, overlapInTime, pooledInStep, IN_STEP_WINDOW_SECONDS, type InStepTerms } from './in-step';
import type { PreparedSheet } from './similarity';

/** A prepared sheet written by hand: ability band 0, each question's option, time and (for a source) the chance that band 0 gives its answer. */
function sheet(rows: { q: number; option: number; at: number | null; p?: number }[]): PreparedSheet {
  return {
    examId: 1,
    band: 0,
    question: Int32Array.from(rows.map((row) => row.q)),
    option: Int32Array.from(rows.map((row) => row.option)),
    wrong: new Uint8Array(rows.length),
    chance: Float64Array.from(rows.map((row) => row.p ?? 0.5)),
    seconds: Float64Array.from(rows.map((row) => row.at ?? Number.NaN)),
    times: Float64Array.from(rows.flatMap((row) => (row.at === null ? [] : [row.at]))).sort(),
  };
}

describe('the in-step test', () => {
  // The source answered questions 1-5 (and 9, 10) at 1000, 1100, …; the copier answered 1-8, its
  // 8 times sorted: 1010 1020 1105 1215 1250 1310 1500 1600. The window is 30 s.
  //
  //   q  source t_s  window      copier t_c  same answer  copier times in window m  event
  //   1  1000        1000-1030   1010        yes          2 (1010, 1020)             yes
  //   2  1100        1100-1130   1105        yes          1 (1105)                   yes
  //   3  1200        1200-1230   1250        yes          1 (1215)                   no (late)
  //   4  1300        1300-1330   1310        yes          1 (1310)                   yes
  //   5  1400        1400-1430   1500        no           0                          impossible: left out
  //
  // Chances p (band 0 gives the source's answer): 0.5, 0.8, 0.6, 0.25, 0.4. The k-th question
  // with m > 0 gets π = p · m / (n − k + 1), n = 8:
  //   π1 = 0.5 · 2/8 = 1/8, π2 = 0.8 · 1/7 = 4/35, π3 = 0.6 · 1/6 = 1/10, π4 = 0.25 · 1/5 = 1/20.
  // 3 events: P(S ≥ 3) = P(all four) + Σ P(exactly three), over 8 · 35 · 10 · 20 = 56,000:
  //   all four: 1 · 4 · 1 · 1 = 4; missing q1: 7 · 4 · 1 · 1 = 28; q2: 1 · 31 · 1 · 1 = 31;
  //   q3: 1 · 4 · 9 · 1 = 36; q4: 1 · 4 · 1 · 19 = 76; sum 175 / 56,000 = 1/320.
  // The smallest p it could have (all four events): 4 / 56,000 = 1/14,000.
  const source = sheet([
    { q: 1, option: 1, at: 1000, p: 0.5 },
    { q: 2, option: 2, at: 1100, p: 0.8 },
    { q: 3, option: 3, at: 1200, p: 0.6 },
    { q: 4, option: 1, at: 1300, p: 0.25 },
    { q: 5, option: 2, at: 1400, p: 0.4 },
    { q: 9, option: 1, at: 2000 },
    { q: 10, option: 1, at: 2100 },
  ]);
  const copier = sheet([
    { q: 1, option: 1, at: 1010 },
    { q: 2, option: 2, at: 1105 },
    { q: 3, option: 3, at: 1250 },
    { q: 4, option: 1, at: 1310 },
    { q: 5, option: 4, at: 1500 },
    { q: 6, option: 1, at: 1020 },
    { q: 7, option: 1, at: 1215 },
    { q: 8, option: 1, at: 1600 },
  ]);

  it('counts the events and bounds their chances as worked on paper', () => {
    expect(IN_STEP_WINDOW_SECONDS).toBe(30);
    const terms = inStepTerms(copier, source);
    expect(terms.common).toBe(5);
    expect(terms.events).toBe(3);
    expect(terms.chances.length).toBe(4);
    [1 / 8, 4 / 35, 1 / 10, 1 / 20].forEach((chance, k) => expect(terms.chances[k]).toBeCloseTo(chance, 14));
    expect(terms.smallestP).toBeCloseTo(1 / 14_000, 14);
    expect(inStepPValue(terms)).toBeCloseTo(1 / 320, 14);
  });

  it('has no event the other way round (the source answered first)', () => {
    const terms = inStepTerms(source, copier);
    expect(terms.events).toBe(0);
    expect(inStepPValue(terms)).toBe(1);
  });

  it('a blank or an answer without a time is no common question', () => {
    const blank = sheet([
      { q: 1, option: 1, at: 1010 },
      { q: 2, option: 0, at: null },
    ]);
    expect(inStepTerms(blank, source).common).toBe(1);
  });

  it('the window: from the source’s second to 30 s after', () => {
    expect(inStep(1000, 1000)).toBe(true);
    expect(inStep(1030, 1000)).toBe(true);
    expect(inStep(1031, 1000)).toBe(false);
    expect(inStep(999, 1000)).toBe(false);
  });

  it('checks the overlap in time first', () => {
    const later = sheet([{ q: 1, option: 1, at: 2200 }]);
    expect(overlapInTime(copier, source)).toBe(true);
    expect(overlapInTime(later, source)).toBe(false);
    expect(overlapInTime(sheet([{ q: 1, option: 1, at: 2130 }]), source)).toBe(true);
  });

  it('is conservative against the exact null, where independence is not', () => {
    // The copier's 4 times 10, 50, 90, 130; the source's 3 questions answered at 5, 45, 85: each
    // window holds one of the copier's times. Under no copying the copier's paper order is one of
    // the 4! shuffles, all equally likely, and each answer matches with p = 1/2 independently.
    const times = [10, 50, 90, 130];
    const src = sheet([5, 45, 85].map((at, k) => ({ q: k + 1, option: 1, at, p: 0.5 })));
    const permutations = (items: number[]): number[][] =>
      items.length <= 1 ? [items] : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
    const exact = [0, 0, 0, 0];
    for (const order of permutations(times)) {
      // Questions 1-3 (and a fourth the source did not draw) at the order's times; events: the time in the window and the answer matched.
      const inWindow = [0, 1, 2].filter((k) => inStep(order[k]!, [5, 45, 85][k]!)).length;
      for (let matched = 0; matched <= inWindow; matched += 1) {
        const ways = [1, inWindow, (inWindow * (inWindow - 1)) / 2, inWindow === 3 ? 1 : 0][matched]!;
        exact[matched]! += (ways * 0.5 ** inWindow) / 24;
      }
    }
    const exactTail = (h: number) => exact.slice(h).reduce((sum, x) => sum + x, 0);
    for (const events of [1, 2, 3]) {
      // A copier sheet with `events` in-step matches (the rest of its answers differ): the bound's p.
      const cop = sheet([
        ...[10, 50, 90].map((at, k) => ({ q: k + 1, option: k < events ? 1 : 2, at })),
        { q: 4, option: 1, at: 130 },
      ]);
      const terms = inStepTerms(cop, src);
      expect(terms.events).toBe(events);
      expect(inStepPValue(terms)).toBeGreaterThanOrEqual(exactTail(events) - 1e-15);
    }
    // All three: exactly 1/24 · 1/8 by the bound (1/4 · 1/3 · 1/2 · 1/8); independence (m / n = 1/4 each) would say 1/512, below the truth.
    expect(exactTail(3)).toBeCloseTo(1 / 192, 15);
    expect((0.25 * 0.5) ** 3).toBeLessThan(exactTail(3));
  });
});

describe('the in-step test over several attempts (pooledInStep)', () => {
  const part = (rows: { q: number; p: number; time: number; hit: boolean }[], common: number): InStepTerms => ({
    common,
    events: rows.filter((row) => row.hit).length,
    chances: rows.map((row) => row.p * row.time),
    questions: rows.map((row) => row.q),
    answerChances: rows.map((row) => row.p),
    timeChances: rows.map((row) => row.time),
    smallestP: rows.reduce((product, row) => product * row.p * row.time, 1),
  });

  it('adds the attempts up, a question met again counting its time only (worked on paper)', () => {
    // Attempt 1: q1 (p 0.5, time 1/4, event), q2 (0.8, 1/3, none). Attempt 2: q2 again (its answer
    // counted as certain: 1 · 1/5, event), q3 (0.5, 1/2, event). Chances 1/8, 4/15, 1/5, 1/4; 3 events.
    // Over 8 · 15 · 5 · 4 = 2,400: all four 1 · 4 · 1 · 1 = 4; exactly three: 7 · 4 · 1 · 1 + 1 · 11 · 1 · 1
    // + 1 · 4 · 4 · 1 + 1 · 4 · 1 · 3 = 28 + 11 + 16 + 12 = 67; P(S ≥ 3) = 71 / 2,400. Smallest p 4 / 2,400.
    const first = part([{ q: 1, p: 0.5, time: 1 / 4, hit: true }, { q: 2, p: 0.8, time: 1 / 3, hit: false }], 3);
    const second = part([{ q: 2, p: 0.8, time: 1 / 5, hit: true }, { q: 3, p: 0.5, time: 1 / 2, hit: true }], 2);
    const pooled = pooledInStep([first, second]);
    expect(pooled.common).toBe(5);
    expect(pooled.events).toBe(3);
    [1 / 8, 4 / 15, 1 / 5, 1 / 4].forEach((chance, k) => expect(pooled.chances[k]).toBeCloseTo(chance, 14));
    expect(pooled.smallestP).toBeCloseTo(1 / 600, 14);
    expect(inStepPValue(pooled)).toBeCloseTo(71 / 2400, 14);
    // Each attempt alone proves less: P(S ≥ 1) for the first's one event, 0.16 · 0.25 = 1/25 for the second's two.
    expect(inStepPValue(first)).toBeGreaterThan(inStepPValue(pooled));
    expect(inStepPValue(second)).toBeGreaterThan(inStepPValue(pooled));
  });

  it('is the pair itself for one attempt', () => {
    const only = part([{ q: 1, p: 0.5, time: 1 / 4, hit: true }], 1);
    expect(pooledInStep([only])).toBe(only);
  });
});
