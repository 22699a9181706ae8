// The remaining-attempts note of the parent report (spec sections 2 and 4): 3 minus the number of
// exams the contestant has (finished or in progress).
import { messages } from '../../../shared/messages';
import { MAX_ATTEMPTS_PER_CONTESTANT } from '../../../shared/rules';

export function attemptsNote(examCount: number): string {
  if (examCount <= 0) return messages.noExamsYet;
  const left = MAX_ATTEMPTS_PER_CONTESTANT - examCount;
  return left > 0 ? messages.attemptsLeft(left) : messages.noAttemptsLeft;
}
