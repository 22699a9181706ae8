import { describe, expect, it } from 'vitest';
import { correctAnswersHiddenUntil } from './review-keys';

const ends = new Date('2026-04-20T17:00:00+07:00');

describe('correctAnswersHiddenUntil', () => {
  it('shows the keys at once after the submit by default', () => {
    expect(correctAnswersHiddenUntil({ review_correct_answers: 'after_submit', exam_ends_at: ends }, new Date('2026-04-10T08:00:00+07:00'))).toBeNull();
  });

  it('holds them back until the exam window closes, then shows them', () => {
    const contest = { review_correct_answers: 'after_exam_window' as const, exam_ends_at: ends };
    expect(correctAnswersHiddenUntil(contest, new Date(ends.getTime() - 1))).toEqual(ends);
    expect(correctAnswersHiddenUntil(contest, ends)).toBeNull();
    expect(correctAnswersHiddenUntil(contest, new Date(ends.getTime() + 1))).toBeNull();
  });
});
