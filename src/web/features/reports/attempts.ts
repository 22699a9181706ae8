// The remaining-attempts note of the parent report (spec sections 2 and 4): the attempts the
// contest allows (3 in the spec) minus the number of exams the contestant has (finished or in progress).
import { messages } from '../../../shared/messages';
import { MAX_ATTEMPTS_PER_CONTESTANT } from '../../../shared/rules';

export function attemptsNote(examCount: number, allowed: number = MAX_ATTEMPTS_PER_CONTESTANT): string {
  // The spec's sentence says "03 lần"; a contest set to fewer attempts says its own number.
  if (examCount <= 0) return allowed === MAX_ATTEMPTS_PER_CONTESTANT ? messages.noExamsYet : messages.attemptsLeft(allowed);
  const left = allowed - examCount;
  return left > 0 ? messages.attemptsLeft(left) : messages.noAttemptsLeft;
}
