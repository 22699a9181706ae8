// The integrity statistics (decision 027) against a table worked on paper: 5 questions, 10 exams.
import { describe, expect, it } from 'vitest';
import { alternations, speedFinding, timelineOf, saveInstants } from './signals';
import {
  bandOf,
  directionPValue,
  directionTerms,
  directionTermsPerQuestion,
  exactUpperTail,
  indexModel,
  prepareSheet,
  responseModel,
  SmallestPHistogram,
  CONTACT_TIERS,
  contactTier,
  tierThresholds,
  taroneCount,
  type ResponseCell,
  type Sheet,
} from './similarity';

// Questions 1..5, answers q*10+1 .. q*10+4 (A..D); A (q*10+1) is the key of every question.
// Right answers in brackets; band = floor(right / 3).
//
//   exam  Q1 Q2 Q3 Q4 Q5  right  band
//   E1    A  A  A  A  A    5      1
//   E2    A  A  A  A  B    4      1
//   E3    A  A  A  B  C    3      1
//   E4    A  A  B  A  A    4      1
//   E5    A  B  A  A  A    4      1
//   E6    A  B  C  D  B    1      0
//   E7    B  B  C  A  D    1      0
//   E8    C  D  B  B  A    1      0
//   E9    A  C  C  D  C    1      0
//   E10   A  C  C  D  C    1      0     (E9 and E10 identical: four identical wrong answers)
const table = ['AAAAA', 'AAAAB', 'AAABC', 'AABAA', 'ABAAA', 'ABCDB', 'BBCAD', 'CDBBA', 'ACCDC', 'ACCDC'];
const questionIds = [1, 2, 3, 4, 5];
const answerId = (question: number, letter: string) => question * 10 + 1 + 'ABCD'.indexOf(letter);
const right = (row: string) => [...row].filter((letter) => letter === 'A').length;
const rawSheet = (index: number): Sheet => ({
  examId: index + 1,
  band: bandOf(right(table[index]!)),
  questionIds,
  answerIds: questionIds.map((q, i) => answerId(q, table[index]![i]!)),
  keyIds: questionIds.map((q) => answerId(q, 'A')),
});
const cells: ResponseCell[] = table.flatMap((row) =>
  questionIds.map((q, i) => ({ questionId: q, band: bandOf(right(row)), answerId: answerId(q, row[i]!), count: 1 })),
);
// Every answer of the bank is an option, chosen or not: 4 answers + the blank = 5 options.
const bank = new Map(questionIds.map((q) => [q, [1, 2, 3, 4].map((k) => q * 10 + k)]));
const model = responseModel(cells, bank);
const indexed = indexModel(model);
const sheetOf = (index: number) => prepareSheet(rawSheet(index), indexed);

describe('nominal response probabilities', () => {
  it('are (count + 1/2) / (exams of the band + 5/2)', () => {
    const p = (question: number, band: number, letter: string) => {
      const m = model.get(question)!;
      return m.probabilities[band * m.optionCount + m.options.get(answerId(question, letter))!]!;
    };
    // Band 0 (E6..E10) on Q1: A three times of 5 -> 3.5 / 7.5.
    expect(p(1, 0, 'A')).toBeCloseTo(3.5 / 7.5, 12);
    // Band 0 on Q3: C four times -> 4.5 / 7.5 = 0.6; D never -> 0.5 / 7.5.
    expect(p(3, 0, 'C')).toBeCloseTo(0.6, 12);
    expect(p(3, 0, 'D')).toBeCloseTo(0.5 / 7.5, 12);
    // Band 1 (E1..E5) on Q2: A four times -> 4.5 / 7.5.
    expect(p(2, 1, 'A')).toBeCloseTo(0.6, 12);
    // A band nobody is in: every option 1/5.
    expect(p(1, 6, 'B')).toBeCloseTo(0.2, 12);
  });
});

describe("Wollack's omega with weighted matches", () => {
  it('E9 from E10: five identical answers, four of them wrong', () => {
    // p = P(band 0 gives E10's answer): Q1 A 3.5/7.5 (key, weight 1); Q2 C 2.5/7.5, Q3 C 4.5/7.5,
    // Q4 D 3.5/7.5, Q5 C 2.5/7.5 (wrong, weight 2).
    // H = 1 + 2·4 = 9
    // E = 7/15 + 2·(1/3 + 3/5 + 7/15 + 1/3) = 7/15 + 2·26/15 = 59/15 = 3.93333
    // V = (7/15)(8/15) + 4·((1/3)(2/3) + (3/5)(2/5) + (7/15)(8/15) + (1/3)(2/3)) = 56/225 + 4·210/225 = 896/225 = 3.98222
    // ω = (9 − 59/15) / √(896/225) = (76/15) / (√896 / 15) = 76 / √896 = 2.53898
    const terms = directionTerms(sheetOf(8), sheetOf(9), indexed);
    expect(terms.common).toBe(5);
    expect(terms.identical).toBe(5);
    expect(terms.identicalWrong).toBe(4);
    expect(terms.observed).toBe(9);
    expect(terms.expected).toBeCloseTo(59 / 15, 12);
    expect(terms.variance).toBeCloseTo(896 / 225, 12);
    expect(terms.omega).toBeCloseTo(76 / Math.sqrt(896), 12);
    // Exact tail: P(H ≥ 9) = P(all five identical) = (7/15)(1/3)(3/5)(7/15)(1/3) = 147/10125.
    expect(directionPValue(sheetOf(8), sheetOf(9), indexed, terms.observed)).toBeCloseTo(147 / 10125, 14);
    expect(terms.smallestP).toBeCloseTo(147 / 10125, 14);
  });

  it('E6 from E9: three identical of five, by the exact distribution', () => {
    // E9's answers A C C D C; E6 A B C D B: identical on Q1 (key, w 1), Q3 and Q4 (wrong, w 2): H = 5.
    // Wrong-answer matches, p: Q2 1/3, Q3 3/5, Q4 7/15, Q5 1/3 (K of them matched, over 675):
    //   P(K=4) = 1·3·7·1 = 21, P(K=3) = 42 + 14 + 24 + 42 = 122, P(K=2) = 48 + 28 + 16 + 84 + 48 + 28 = 252.
    // H ≥ 5 when K ≥ 3, or K = 2 and Q1 identical (7/15):
    //   (122 + 21)/675 + (252/675)(7/15) = 2145/10125 + 1764/10125 = 3909/10125 = 0.38607.
    const terms = directionTerms(sheetOf(5), sheetOf(8), indexed);
    const { p, w } = directionTermsPerQuestion(sheetOf(5), sheetOf(8), indexed);
    expect(w).toEqual([1, 2, 2, 2, 2]);
    expect(terms.observed).toBe(5);
    expect(terms.identical).toBe(3);
    expect(terms.identicalWrong).toBe(2);
    expect(exactUpperTail(p, w, terms.observed)).toBeCloseTo(3909 / 10125, 14);
    // Nothing observed: the tail is the whole distribution.
    expect(exactUpperTail(p, w, 0)).toBeCloseTo(1, 14);
  });

  it('compares only the questions both exams drew', () => {
    // Question 6 is not of the model (no exam of the table drew it).
    const partial = prepareSheet({ examId: 99, band: 0, questionIds: [2, 4, 6], answerIds: [answerId(2, 'C'), answerId(4, 'D'), 61], keyIds: [21, 41, 61] }, indexed);
    const terms = directionTerms(partial, sheetOf(9), indexed);
    expect(terms.common).toBe(2);
    expect(terms.identicalWrong).toBe(2);
    expect(terms.observed).toBe(4);
  });
});

describe("Tarone's count of the tests that can reach the threshold", () => {
  it('counts only the tests whose smallest p can reach α / K', () => {
    // Smallest p of four tests: 1e-12, 1e-9, 1e-3, 0.5; α = 0.01.
    // K = 1: 3 tests ≤ 0.01 (> 1); K = 2: 3 ≤ 0.005 (> 2); K = 3: 3 ≤ 0.00333 (≤ 3): K = 3.
    const values = [1e-12, 1e-9, 1e-3, 0.5];
    expect(taroneCount((t) => values.filter((v) => v <= t).length, 0.01)).toBe(3);
    // Every test able to reach it: plain Bonferroni.
    expect(taroneCount((t) => [1e-12, 1e-12, 1e-12].filter((v) => v <= t).length, 0.01)).toBe(3);
    // None: K = 1.
    expect(taroneCount(() => 0, 0.01)).toBe(1);
  });

  it('the histogram rounds each smallest p down to its bin (K never smaller)', () => {
    const histogram = new SmallestPHistogram();
    for (const v of [1e-12, 1e-9, 1e-3, 0.5, 0.0012]) histogram.add(v);
    expect(histogram.total).toBe(5);
    // 0.0012 sits in [10^-3, 10^-2.9): counted at 0.001 and below ... and never missed at a larger threshold.
    expect(histogram.countAtMost(0.001)).toBe(4);
    expect(histogram.countAtMost(0.01)).toBe(4);
    expect(histogram.countAtMost(1e-9)).toBe(2);
    expect(histogram.countAtMost(1)).toBe(5);
  });
});

describe('time signals', () => {
  it('an exam answered faster than any reader, and one that was not', () => {
    // 16 answers, the last first answered 40 s after the start: 2.5 s a question (< 4), 12 right.
    const fast = Array.from({ length: 16 }, (_, i) => 1000 + 2.5 * (i + 1));
    expect(speedFinding({ startSeconds: 1000, firstSeconds: fast, right: 12 })).toEqual({ answered: 16, right: 12, seconds: 40, secondsPerQuestion: 2.5 });
    // The same pace, 5 right of 16: guessing, not flagged.
    expect(speedFinding({ startSeconds: 1000, firstSeconds: fast, right: 5 })).toBeNull();
    // 16 answers in 64 s: 4 s a question, readable.
    expect(speedFinding({ startSeconds: 1000, firstSeconds: fast.map((t) => 1000 + (t - 1000) * 1.6), right: 16 })).toBeNull();
  });

  it('turns between two exams on one device', () => {
    // Side by side: A at 0, 10, 20, … B at 5, 15, 25, …: every save a turn.
    const a = [0, 10, 20, 30, 40];
    const b = [5, 15, 25, 35, 45];
    expect(alternations(a, b)).toBe(9);
    // One after the other: one turn.
    expect(alternations(a, b.map((t) => t + 50))).toBe(1);
    // Turns more than 20 s apart do not count.
    expect(alternations([0, 60], [30, 90])).toBe(0);
  });

  it('reads answer_times: first answers, the stored answer, the session', () => {
    const timeline = timelineOf({ '1:11': 100, '1:12': 130, '2:21': 110, s: 7 }, { '1': 12, '2': 21 });
    expect(timeline.session).toBe(7);
    expect(timeline.questions.get(1)).toEqual({ first: 100, last: 130 });
    expect(timeline.questions.get(2)).toEqual({ first: 110, last: 110 });
    expect(saveInstants(timeline).sort((x, y) => x - y)).toEqual([100, 110, 130]);
  });
});

describe('the family-wise rate split across the contact tiers', () => {
  it('puts pairs sharing an account or a login in the close tier, classmates in the class tier, and tests no other pair', () => {
    // (same account, same login, same class)
    expect(contactTier(true, false, true)).toBe('close');
    expect(contactTier(false, true, false)).toBe('close');
    expect(contactTier(true, false, false)).toBe('close');
    expect(contactTier(false, false, true)).toBe('class');
    expect(contactTier(false, false, false)).toBeNull();
    expect(CONTACT_TIERS.close + CONTACT_TIERS.class).toBe(1);
  });

  it('gives each tier half the rate and its own Tarone count (worked by hand)', () => {
    // α = 1 %, so each tier has 0.5 %. Close tier: smallest p 1e-6, 1e-3, 0.5. K = 1: 0.005 / 1
    // admits 1e-6 and 1e-3 (2 > 1); K = 2: 0.0025 still admits both (2 ≤ 2), so K = 2 and the
    // threshold is 0.0025. Class tier: 3 tests at 1e-9 and 100 at 3e-4. For K ≤ 16, 0.005 / K ≥
    // 3.125e-4 admits all 103 (> K); K = 17: 0.005 / 17 = 2.94e-4 admits only the 3, so K = 17.
    const close = [1e-6, 1e-3, 0.5];
    const classmates = [...Array<number>(3).fill(1e-9), ...Array<number>(100).fill(3e-4)];
    const count = (values: number[]) => (t: number) => values.filter((v) => v <= t).length;
    const tiers = tierThresholds({ close: count(close), class: count(classmates) }, 0.01);
    expect(tiers.close).toEqual({ tests: 2, threshold: 0.0025 });
    expect(tiers.class.tests).toBe(17);
    expect(tiers.class.threshold).toBeCloseTo(0.005 / 17, 12);
    // One family of all 106 tests at 1 %: K = 34 (0.01 / 34 = 2.94e-4 < 3e-4), the same threshold for
    // the classmates, but a close pair at p = 1e-3 would need 2.94e-4 instead of 0.0025.
    expect(taroneCount(count([...close, ...classmates]), 0.01)).toBe(34);
  });
});
