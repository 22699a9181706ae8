import { describe, expect, it } from 'vitest';
import { fisherCombined, hypergeometricUpperTail, keyFromReviewP } from './key-from-review';

describe('the key-from-a-review test', () => {
  it('gives the hypergeometric tail by hand', () => {
    // 20 questions, 14 right, 7 shown, all 7 shown right: C(14,7) / C(20,7) = 3432 / 77520.
    expect(hypergeometricUpperTail(20, 14, 7, 7)).toBeCloseTo(3432 / 77520, 12);
    // At or below the least possible count: 1. Above the most: 0.
    expect(hypergeometricUpperTail(20, 14, 7, 1)).toBe(1);
    expect(hypergeometricUpperTail(20, 14, 7, 8)).toBe(0);
    // The whole distribution sums to one.
    const mass = Array.from({ length: 8 }, (_, x) => hypergeometricUpperTail(20, 14, 7, x) - hypergeometricUpperTail(20, 14, 7, x + 1));
    expect(mass.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it("combines p-values by Fisher's method", () => {
    expect(fisherCombined([0.3])).toBeCloseTo(0.3, 12);
    // Two p-values: p1 p2 (1 - ln(p1 p2)).
    expect(fisherCombined([0.1, 0.2])).toBeCloseTo(0.02 * (1 - Math.log(0.02)), 12);
    expect(fisherCombined([])).toBe(1);
  });

  it('counts only the questions of reviews finished before the exam started', () => {
    const key = (ids: number[]) => Object.fromEntries(ids.map((id) => [String(id), id * 10]));
    const source = [
      { start: 0, submitted: 100, answers: {}, key: key([1, 2, 3]) },
      { start: 500, submitted: 900, answers: {}, key: key([4]) }, // finished after the copier started
    ];
    // Right on 1, 2, 3 (shown), wrong on 4, 5, 6.
    const copier = [{ start: 200, submitted: 400, answers: { 1: 10, 2: 20, 3: 30, 4: 0, 5: 0, 6: 0 }, key: key([1, 2, 3, 4, 5, 6]) }];
    // 6 questions, 3 right, 3 shown, 3 of them right: 1 / C(6,3).
    expect(keyFromReviewP(copier, source)).toBeCloseTo(1 / 20, 12);
    expect(keyFromReviewP(copier, [])).toBeNull();
    // Two reviews before it: all of them show 1-4; the latest only 4 (wrong): 1 - 0 = 1.
    const both = [source[0]!, { ...source[1]!, start: 110, submitted: 150 }];
    expect(keyFromReviewP(copier, both, 'all')).toBeCloseTo(hypergeometricUpperTail(6, 3, 4, 3), 12);
    expect(keyFromReviewP(copier, both, 'latest')).toBe(1);
  });
});
