import { describe, expect, it } from 'vitest';
import { correctCount, countsRight, pointsFor, type RegradeRule } from './regrade-rules';

// An exam of three questions: 1 (key 11), 2 (key 21), 3 (key 31); answers 12, 21, none.
const key = { '1': 11, '2': 21, '3': 31 };
const answers = { '1': 12, '2': 21 };

describe('countsRight', () => {
  it('without a rule: the answer equal to the key, nothing for no answer', () => {
    expect(countsRight(11, 11)).toBe(true);
    expect(countsRight(12, 11)).toBe(false);
    expect(countsRight(undefined, 11)).toBe(false);
    expect(countsRight(undefined, undefined)).toBe(false);
  });

  it('new key: only the new answer counts, the old key no longer', () => {
    const rule: RegradeRule = { mode: 'new_key', acceptedAnswerIds: [12] };
    expect(countsRight(12, 11, rule)).toBe(true);
    expect(countsRight(11, 11, rule)).toBe(false);
    expect(countsRight(undefined, 11, rule)).toBe(false);
  });

  it('accept both: the old key and the other answer count, a third does not', () => {
    const rule: RegradeRule = { mode: 'accept_both', acceptedAnswerIds: [11, 12] };
    expect(countsRight(11, 11, rule)).toBe(true);
    expect(countsRight(12, 11, rule)).toBe(true);
    expect(countsRight(13, 11, rule)).toBe(false);
    expect(countsRight(undefined, 11, rule)).toBe(false);
  });

  it('everyone: every exam that drew the question gets the point, answered or not', () => {
    const rule: RegradeRule = { mode: 'everyone', acceptedAnswerIds: [] };
    expect(countsRight(13, 11, rule)).toBe(true);
    expect(countsRight(undefined, 11, rule)).toBe(true);
  });
});

describe('correctCount', () => {
  it('counts the questions of the key, each by its rule or its key', () => {
    expect(correctCount(key, answers, new Map())).toBe(1);
    expect(correctCount(key, answers, new Map([[1, { mode: 'accept_both', acceptedAnswerIds: [11, 12] }]]))).toBe(2);
    expect(correctCount(key, answers, new Map([[2, { mode: 'new_key', acceptedAnswerIds: [22] }]]))).toBe(0);
    const both = new Map<number, RegradeRule>([
      [1, { mode: 'new_key', acceptedAnswerIds: [12] }],
      [3, { mode: 'everyone', acceptedAnswerIds: [] }],
    ]);
    expect(correctCount(key, answers, both)).toBe(3);
  });

  it('ignores a rule of a question the exam did not draw', () => {
    expect(correctCount(key, answers, new Map([[9, { mode: 'everyone', acceptedAnswerIds: [] }]]))).toBe(1);
  });
});

describe('pointsFor', () => {
  it('gives 5 points a question, at most 100', () => {
    expect(pointsFor(0)).toBe(0);
    expect(pointsFor(19)).toBe(95);
    expect(pointsFor(20)).toBe(100);
    expect(pointsFor(25)).toBe(100);
  });
});
