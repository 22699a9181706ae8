// The scoring rule of a question once it has been regraded (issue 13), for the result review and
// the tests. The database applies the same rule when it scores (correctCountSql in
// server/features/exams/repo.ts); regrade.api.test.ts checks that both agree.
import { MAX_POINTS, POINTS_PER_CORRECT_ANSWER } from './rules';

export const regradeModes = ['new_key', 'accept_both', 'everyone'] as const;
export type RegradeMode = (typeof regradeModes)[number];

export interface RegradeRule {
  mode: RegradeMode;
  /** The answers counted right; empty for 'everyone' (every exam that drew the question gets the point). */
  acceptedAnswerIds: readonly number[];
}

/**
 * Whether the answer given (undefined: none) counts right for a question whose key in the exam's
 * snapshot is `key`: by the question's regrade rule when there is one, else by the key.
 */
export function countsRight(given: number | undefined, key: number | undefined, rule?: RegradeRule): boolean {
  if (!rule) return given !== undefined && given === key;
  if (rule.mode === 'everyone') return true;
  return given !== undefined && rule.acceptedAnswerIds.includes(given);
}

/** Correct answers of an exam: each question of its key counted by countsRight. */
export function correctCount(answerKey: Readonly<Record<string, number>>, answers: Readonly<Record<string, number>>, rules: ReadonlyMap<number, RegradeRule>): number {
  let count = 0;
  for (const [questionId, key] of Object.entries(answerKey)) {
    if (countsRight(answers[questionId], key, rules.get(Number(questionId)))) count += 1;
  }
  return count;
}

/** Points of an exam from its correct answers (spec: 5 a question, at most 100). */
export const pointsFor = (correct: number) => Math.min(MAX_POINTS, POINTS_PER_CORRECT_ANSWER * correct);
