// When a family's result review shows the correct answers (issue 40): right after the submit
// (the specification's), or, when the season says 'after_exam_window', only once its exam window
// has closed, so that a sibling's or a classmate's finished review is not the answer key while
// others still sit the exam. One rule for every answer a family can read.
import type { Contest } from '../db/schema';

/** The moment the correct answers of an exam of `contest` show, while they are still held back; else null. */
export function correctAnswersHiddenUntil(contest: Pick<Contest, 'review_correct_answers' | 'exam_ends_at'>, now: Date): Date | null {
  return contest.review_correct_answers === 'after_exam_window' && now < contest.exam_ends_at ? contest.exam_ends_at : null;
}
