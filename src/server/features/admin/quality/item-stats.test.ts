import { describe, expect, it } from 'vitest';
import { compareItems, groupWeights, itemStats, pointBiserial, type BankAnswer, type Cell } from './item-stats';

// The hand-worked example: 10 exams, 5 questions, answers A..D (ids 1..4), the key A everywhere.
//
//   exam  Q1 Q2 Q3 Q4 Q5   total (A's)
//   E1    A  A  A  A  B    4
//   E2    A  A  A  C  B    3
//   E3    A  A  A  C  B    3
//   E4    A  A  A  D  A    4
//   E5    A  A  B  C  A    3
//   E6    A  A  B  B  A    3
//   E7    A  B  D  C  A    2
//   E8    A  C  B  D  C    1
//   E9    A  D  C  B  A    2
//   E10   A  B  D  C  D    1
//
// Rest score = total minus the question's own point. Groups: 27 % of 10 = 2.7 exams each, whole rest
// levels from the top (bottom) while they fit, the boundary level in part. An answer "draws the upper
// group" when >= 30 % of it chose the answer and more of the upper than of the lower group did.
//
// Q5 (the planted wrong key: the best pupils chose B):
//   x (right)  = 0 0 0 1 1 1 1 0 1 0        rest y = 4 3 3 3 2 2 1 1 1 1
//   n = 10, Σx = 5, Σy = 21, Σxy = 3+2+2+1+1 = 9, Σy² = 16+9+9+9+4+4+1+1+1+1 = 55
//   r = (nΣxy − ΣxΣy) / √((nΣx − (Σx)²)(nΣy² − (Σy)²)) = (90 − 105) / √(25 · 109) = −15 / 52.2015 = −0.28735
//   upper: E1 (rest 4) whole = 1; rest 3 holds E2, E3, E4 for the 1.7 left: 1.7/3 = 0.5667 each.
//     B: E1 + E2 + E3 = 1 + 2·0.5667 = 2.1333 → 2.1333/2.7 = 0.7901; A: E4 = 0.5667/2.7 = 0.2099
//   lower: rest 1 holds E7..E10 for 2.7: 0.675 each. A: E7, E9 = 1.35/2.7 = 0.5; C: E8 = 0.25; D: E10 = 0.25
//   upper − lower (right) = 0.2099 − 0.5 = −0.2901
//   overall: A 5/10, B 3/10, C 1/10, D 1/10.
//   Flags: likely wrong key (B draws the upper group: 79 % > 0 % in the lower, and 79 % > A's 21 %),
//   suspected answer B. Not ambiguous (only B reaches 30 % of the upper group); facility 0.5.
//
// Q2 (a good question): x = 1 1 1 1 1 1 0 0 0 0, y = 3 2 2 3 2 2 2 1 2 1
//   Σx = 6, Σy = 20, Σxy = 3+2+2+3+2+2 = 14, Σy² = 9+4+4+9+4+4+4+1+4+1 = 44
//   r = (140 − 120) / √((60 − 36)(440 − 400)) = 20 / √960 = 0.6455; no flag.
//
// Q1: everyone right: facility 1 > 0.95, too easy; r undefined (x does not vary) → null.
//
// Q3: x = 1 1 1 1 0 0 0 0 0 0, y = 3 2 2 3 3 3 2 1 2 1; upper: rest 3 (E1, E4, E5, E6) for 2.7:
//   0.675 each: A = E1 + E4 = 1.35/2.7 = 0.5, B = E5 + E6 = 0.5. Lower: rest 1 (E8, E10) whole = 2,
//   rest 2 (E2, E3, E7, E9) for 0.7: 0.175 each: A = E2 + E3 = 0.35/2.7 = 0.1296, B = E8 = 1/2.7 =
//   0.3704, C = E9 = 0.0648, D = E7 + E10 = 1.175/2.7 = 0.4352. A and B both draw the upper group
//   (50 % each, more than in the lower): ambiguous. Not a wrong key (B 50 % is not more than A 50 %;
//   r = (100 − 88) / √(24 · 56) = 12 / 36.66 = 0.3273 > 0).
//
// Q4: only E1 right (facility 0.1 < 0.2: too hard); y = 3 3 3 4 3 3 2 1 2 1; upper: E4 (rest 4) whole,
//   rest 3 (E1, E2, E3, E5, E6) for 1.7: 0.34 each. C = E2 + E3 + E5 = 1.02/2.7 = 0.3778,
//   D = E4 = 1/2.7 = 0.3704, A = E1 = 0.34/2.7 = 0.1259, B = E6 = 0.1259. Lower: rest 1 (E8, E10)
//   whole, rest 2 (E7, E9) for 0.7: 0.35 each: C = E7 + E10 = 1.35/2.7 = 0.5, D = E8 = 0.3704,
//   B = E9 = 0.1296. No wrong answer is chosen more by the upper than by the lower group (C 38 % <
//   50 %, D equal, B 12.6 % < 13.0 %): the common wrong answers of a hard question, not a wrong key.
//   Only too hard.
const TABLE = ['AAAAB', 'AAACB', 'AAACB', 'AAADA', 'AABCA', 'AABBA', 'ABDCA', 'ACBDC', 'ADCBA', 'ABDCD'];
const bank: BankAnswer[] = [1, 2, 3, 4].map((id) => ({ id, isKey: id === 1 }));
const idOf = (letter: string) => letter.charCodeAt(0) - 64;

/** The cells of question q (0-based) as the SQL groups them: (rest, answer, right) -> count. */
function cellsOf(q: number): Cell[] {
  const cells = new Map<string, Cell>();
  for (const exam of TABLE) {
    const total = [...exam].filter((answer) => answer === 'A').length;
    const correct = exam[q] === 'A';
    const cell = { rest: total - (correct ? 1 : 0), answerId: idOf(exam[q]!), correct, count: 1 };
    const key = `${cell.rest}|${cell.answerId}|${cell.correct}`;
    const known = cells.get(key);
    if (known) known.count += 1;
    else cells.set(key, cell);
  }
  return [...cells.values()];
}

const stats = (q: number) => itemStats(cellsOf(q), bank, 10);

describe('item statistics of the hand-worked table', () => {
  it('Q5: negative discrimination, the upper group on B: likely wrong key, B suspected', () => {
    const s = stats(4);
    expect(s.exams).toBe(10);
    expect(s.facility).toBe(0.5);
    expect(s.discrimination).toBeCloseTo(-0.28735, 5);
    expect(s.upperLowerDifference).toBeCloseTo(0.2099 - 0.5, 4);
    expect(s.answers!.map((a) => a.overall)).toEqual([0.5, 0.3, 0.1, 0.1]);
    expect(s.answers!.map((a) => a.upper)).toEqual([0.2099, 0.7901, 0, 0].map((v) => expect.closeTo(v, 4)));
    expect(s.answers!.map((a) => a.lower)).toEqual([0.5, 0, 0.25, 0.25].map((v) => expect.closeTo(v, 4)));
    expect(s.flags.map((f) => f.kind)).toEqual(['wrong_key']);
    expect(s.flags[0]!.reason).toBe('Có thể sai đáp án: nhóm 27% điểm cao chọn B (79%) nhiều hơn đáp án đúng A (21%).');
    expect(s.suspectedAnswerId).toBe(2);
  });

  it('Q2: a good question, no flag', () => {
    const s = stats(1);
    expect(s.discrimination).toBeCloseTo(0.6455, 4);
    expect(s.flags).toEqual([]);
    expect(s.suspectedAnswerId).toBeNull();
  });

  it('Q1: everyone right: too easy, no discrimination', () => {
    const s = stats(0);
    expect(s.facility).toBe(1);
    expect(s.discrimination).toBeNull();
    expect(s.flags).toEqual([{ kind: 'too_easy', reason: 'Quá dễ: 100% bài làm đúng (trên 95%).' }]);
  });

  it('Q3: A and B both draw the upper group: ambiguous, not a wrong key', () => {
    const s = stats(2);
    expect(s.discrimination).toBeCloseTo(0.3273, 4);
    expect(s.answers!.map((a) => a.upper)).toEqual([0.5, 0.5, 0, 0].map((v) => expect.closeTo(v, 4)));
    expect(s.answers!.map((a) => a.lower)).toEqual([0.1296, 0.3704, 0.0648, 0.4352].map((v) => expect.closeTo(v, 4)));
    expect(s.flags).toEqual([
      { kind: 'ambiguous', reason: 'Có thể có hai đáp án đúng: trong nhóm 27% điểm cao, mỗi đáp án A (50%), B (50%) được từ 30% trở lên chọn, nhiều hơn trong nhóm điểm thấp.' },
    ]);
    expect(s.suspectedAnswerId).toBeNull();
  });

  it('Q4: too hard; its common wrong answers do not draw the upper group more than the lower: no wrong key', () => {
    const s = stats(3);
    expect(s.facility).toBe(0.1);
    expect(s.answers!.map((a) => a.upper)).toEqual([0.1259, 0.1259, 0.3778, 0.3704].map((v) => expect.closeTo(v, 4)));
    expect(s.answers!.map((a) => a.lower)).toEqual([0, 0.1296, 0.5, 0.3704].map((v) => expect.closeTo(v, 4)));
    expect(s.flags).toEqual([{ kind: 'too_hard', reason: 'Quá khó: chỉ 10% bài làm đúng (dưới 20%).' }]);
  });

  it('too few exams: the count, and no figure or flag computed from them', () => {
    const s = itemStats(cellsOf(4), bank);
    expect(s).toEqual({ exams: 10, facility: null, discrimination: null, upperLowerDifference: null, answers: null, blank: null, suspectedAnswerId: null, flags: [] });
    // The same exams judged once the minimum is theirs.
    expect(itemStats(cellsOf(4), bank, 10).facility).not.toBeNull();
    expect(itemStats([], bank, 0)).toMatchObject({ exams: 0, facility: null, answers: null, flags: [] });
  });

  it('orders flagged questions first, the most serious flag first, then the lowest discrimination', () => {
    const items = [0, 1, 2, 3, 4].map((q) => ({ ...stats(q), order: q }));
    expect(items.sort(compareItems).map((item) => item.order + 1)).toEqual([5, 3, 4, 1, 2]);
  });
});

describe('pieces', () => {
  it('point-biserial equals Pearson on 0/1 and is null without variance', () => {
    expect(pointBiserial([{ x: 1, y: 2, count: 1 }, { x: 0, y: 0, count: 1 }])).toBeCloseTo(1, 10);
    expect(pointBiserial([{ x: 1, y: 2, count: 3 }])).toBeNull();
  });

  it('group weights take exactly 27 % of the exams, ties in part', () => {
    const cells: Cell[] = [
      { rest: 5, answerId: 1, correct: true, count: 1 },
      { rest: 4, answerId: 1, correct: true, count: 4 },
      { rest: 0, answerId: 2, correct: false, count: 5 },
    ];
    const upper = groupWeights(cells, 0.27, 'top');
    expect([...upper.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(2.7, 10);
    expect(upper.get(1)).toBeCloseTo(1.7, 10);
    expect(groupWeights(cells, 0.27, 'bottom').get(2)).toBeCloseTo(2.7, 10);
  });
});
