import { describe, expect, it } from 'vitest';
import {
  awardTiers,
  bestAttempts,
  classIdOf,
  compareAttempts,
  predictionDistance,
  rankAttempts,
  rankBy,
  rankClasses,
  rankSchools,
  scoreSchools,
  type Attempt,
  type ClassStat,
} from './ranking';

const T0 = Date.parse('2025-04-05T10:00:00+07:00');
let nextExam = 1;
function attempt(contestantId: number, points: number, durationSeconds: number, submittedOffsetMs: number, prediction: number | null = null): Attempt {
  return { examId: nextExam++, contestantId, points, durationSeconds, submittedAt: new Date(T0 + submittedOffsetMs), prediction };
}

describe('compareAttempts: the four rules in order', () => {
  const papers = 1000;
  it('higher points first', () => {
    expect(compareAttempts(attempt(1, 90, 900, 0), attempt(2, 85, 100, -5000), papers)).toBeLessThan(0);
  });
  it('equal points: shorter time first', () => {
    expect(compareAttempts(attempt(1, 90, 600, 5000), attempt(2, 90, 601, 0), papers)).toBeLessThan(0);
  });
  it('equal points and time: the earlier second of submission first', () => {
    expect(compareAttempts(attempt(1, 90, 600, 1000), attempt(2, 90, 600, 0, 1000), papers)).toBeGreaterThan(0);
  });
  it('submissions within the same second are equal: the prediction decides, or it is a tie (issue 42: 16 ms decided a prize)', () => {
    // 10:00:00.000 and 10:00:00.016: the same second a family sees.
    expect(compareAttempts(attempt(1, 90, 600, 16, 1000), attempt(2, 90, 600, 0, 990), papers)).toBeLessThan(0);
    expect(compareAttempts(attempt(1, 90, 600, 16, 1000), attempt(2, 90, 600, 0, 1000), papers)).toBe(0);
    expect(compareAttempts(attempt(1, 90, 600, 999, null), attempt(2, 90, 600, 0, null), papers)).toBe(0);
    // 10:00:00.999 and 10:00:01.000 are two seconds, 1 ms apart: the earlier ranks first.
    expect(compareAttempts(attempt(1, 90, 600, 999), attempt(2, 90, 600, 1000), papers)).toBeLessThan(0);
  });
  it('equal points, time and submission: prediction closest to the real number of papers first', () => {
    expect(compareAttempts(attempt(1, 90, 600, 0, 990), attempt(2, 90, 600, 0, 1020), papers)).toBeLessThan(0);
    expect(compareAttempts(attempt(1, 90, 600, 0, null), attempt(2, 90, 600, 0, 5_000_000), papers)).toBeGreaterThan(0);
  });
  it('predictions at the same distance on either side are a tie', () => {
    expect(compareAttempts(attempt(1, 90, 600, 0, 990), attempt(2, 90, 600, 0, 1010), papers)).toBe(0);
    expect(compareAttempts(attempt(1, 90, 600, 0, null), attempt(2, 90, 600, 0, null), papers)).toBe(0);
  });
  it('predictionDistance', () => {
    expect(predictionDistance(12, 20)).toBe(8);
    expect(predictionDistance(null, 20)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('bestAttempts', () => {
  it('keeps each contestant best attempt', () => {
    const a1 = attempt(1, 70, 300, 0);
    const a2 = attempt(1, 85, 900, 10_000);
    const a3 = attempt(1, 85, 800, 20_000);
    const b1 = attempt(2, 40, 100, 0);
    const best = bestAttempts([a1, a2, a3, b1], 10);
    expect(best.find((a) => a.contestantId === 1)).toBe(a3);
    expect(best.find((a) => a.contestantId === 2)).toBe(b1);
    expect(best).toHaveLength(2);
  });
});

describe('rankBy: competition ranking with flagged ties', () => {
  it('gives 1, 2, 2, 4 and flags the tie', () => {
    const ranked = rankBy([5, 3, 3, 1], (a, b) => b - a, () => 0);
    expect(ranked.map((r) => [r.item, r.rank, r.tied])).toEqual([
      [5, 1, false],
      [3, 2, true],
      [3, 2, true],
      [1, 4, false],
    ]);
  });
  it('lists a tie by the order function without changing ranks', () => {
    const ranked = rankAttempts([attempt(9, 50, 100, 0), attempt(3, 50, 100, 0)], 1);
    expect(ranked.map((r) => [r.item.contestantId, r.rank, r.tied])).toEqual([
      [3, 1, true],
      [9, 1, true],
    ]);
  });
});

describe('awardTiers', () => {
  const tiers = [
    { code: 'first', name: 'Nhất', position: 1, winners: 1, amount: 100 },
    { code: 'second', name: 'Nhì', position: 2, winners: 2, amount: 50 },
    { code: 'none', name: 'Không', position: 3, winners: 0, amount: 1 },
  ];
  it('fills places in tier order and stops after the last tier', () => {
    const ranked = rankBy([9, 8, 7, 6], (a, b) => b - a, () => 0);
    const { awarded, ties } = awardTiers(ranked, tiers);
    expect(awarded.map((a) => a.tier?.code ?? null)).toEqual(['first', 'second', 'second', null]);
    expect(ties).toEqual([]);
  });
  it('gives a tie the tier of its first place and reports a tie crossing a prize boundary', () => {
    // 9 | 8 8 8 | 7: the three at rank 2 all take 'second' (2 places) -> crosses.
    const ranked = rankBy([9, 8, 8, 8, 7], (a, b) => b - a, () => 0);
    const { awarded, ties } = awardTiers(ranked, tiers);
    expect(awarded.map((a) => [a.rank, a.tier?.code ?? null])).toEqual([
      [1, 'first'],
      [2, 'second'],
      [2, 'second'],
      [2, 'second'],
      [5, null],
    ]);
    expect(ties).toEqual([{ rank: 2, size: 3, crossesPrize: true }]);
  });
  it('a tie inside one tier does not cross', () => {
    const ranked = rankBy([9, 8, 8, 1], (a, b) => b - a, () => 0);
    expect(awardTiers(ranked, tiers).ties).toEqual([{ rank: 2, size: 2, crossesPrize: false }]);
  });
  it('a tie at rank 1 of a one-winner tier takes the whole tie into that tier', () => {
    const ranked = rankBy([9, 9, 8], (a, b) => b - a, () => 0);
    const { awarded, ties } = awardTiers(ranked, tiers);
    expect(awarded.map((a) => a.tier?.code)).toEqual(['first', 'first', 'second']);
    expect(ties).toEqual([{ rank: 1, size: 2, crossesPrize: true }]);
  });
});

describe('school scores: 50:50 participants and participation relative to size', () => {
  it('computes the formula exactly', () => {
    const scored = scoreSchools([
      { schoolId: 1, participants: 100, pupilCount: 1000 }, // rate 0.1
      { schoolId: 2, participants: 50, pupilCount: 100 }, // rate 0.5 (max)
      { schoolId: 3, participants: 0, pupilCount: 10 }, // not scored
    ]);
    const byId = new Map(scored.map((s) => [s.schoolId, s.score]));
    // school 1: 0.5 * 100/100 + 0.5 * 0.1/0.5 = 0.6 ; school 2: 0.5 * 50/100 + 0.5 * 1 = 0.75
    expect(byId.get(1)).toBeCloseTo(0.6, 6);
    expect(byId.get(2)).toBeCloseTo(0.75, 6);
    expect(byId.has(3)).toBe(false);
  });
  it('caps the rate at 1 and counts an unknown size as rate 0', () => {
    const scored = scoreSchools([
      { schoolId: 1, participants: 30, pupilCount: 20 }, // rate capped to 1
      { schoolId: 2, participants: 60, pupilCount: 0 }, // rate 0
    ]);
    const byId = new Map(scored.map((s) => [s.schoolId, s.score]));
    expect(byId.get(1)).toBeCloseTo(0.5 * 0.5 + 0.5 * 1, 6);
    expect(byId.get(2)).toBeCloseTo(0.5, 6);
  });
  it('equal scores from different figures are an exact tie, not float noise', () => {
    // A: 0.5*40/80 + 0.5*(40/400)/(80/400) = 0.25+0.25 = 0.5; B: 0.5*80/80 + 0.5*0 = 0.5 (size unknown)
    const ranked = rankSchools([
      { schoolId: 7, participants: 40, pupilCount: 400 },
      { schoolId: 8, participants: 80, pupilCount: 0 },
      { schoolId: 9, participants: 80, pupilCount: 400 },
    ]);
    expect(ranked.map((r) => [r.item.schoolId, r.rank, r.tied])).toEqual([
      [9, 1, false],
      [7, 2, true],
      [8, 2, true],
    ]);
  });
});

describe('classes for the teacher prizes', () => {
  const stat = (className: string, participants: number, totalPoints: number, totalDurationSeconds: number): ClassStat => ({
    schoolId: 1,
    className,
    participants,
    totalPoints,
    totalDurationSeconds,
  });
  it('needs the minimum participants, then average points, participants, average time', () => {
    const ranked = rankClasses(
      [
        stat('5A1', 10, 900, 6000), // avg 90, 600 s
        stat('5A2', 12, 1080, 7200), // avg 90, more participants
        stat('5A3', 10, 950, 9000), // avg 95
        stat('5A4', 9, 900, 10), // too few
        stat('5A5', 10, 900, 5000), // avg 90, 10 participants, faster than 5A1
        stat('5A6', 10, 900, 5000), // same as 5A5: tie
      ],
      10,
    );
    expect(ranked.map((r) => [r.item.className, r.rank, r.tied])).toEqual([
      ['5A3', 1, false],
      ['5A2', 2, false],
      ['5A5', 3, true],
      ['5A6', 3, true],
      ['5A1', 5, false],
    ]);
  });
  it('classIdOf tells apart the same class name in two schools', () => {
    expect(classIdOf({ schoolId: 1, className: '5A3' })).not.toBe(classIdOf({ schoolId: 2, className: '5A3' }));
  });
});
