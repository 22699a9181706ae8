// When a contest's results may be computed for good (not a draft the organiser forces): once the
// exam window has closed, and with no exam still in progress (exams past their deadline are
// finalised first by the caller, so that only those truly under way count). One place for both
// the back office's start (features/admin/results/task.ts) and the computation itself
// (features/results/compute.ts).
import { formatDateTime } from '../../shared/format';
import { resultMessages } from '../../shared/messages';
import type { Db } from '../db/client';
import type { Contest } from '../db/schema';
import { appError } from '../lib/errors';
import { countExamsInProgress } from './ranking/repo';

/** 409 results_too_early before the exam window closes. */
export function assertExamWindowClosed(contest: Pick<Contest, 'exam_ends_at'>, now: Date): void {
  if (now < contest.exam_ends_at) throw appError('results_too_early', resultMessages.resultsTooEarly(formatDateTime(contest.exam_ends_at)));
}

/** 409 exams_in_progress while any exam of the contest is under way. */
export async function assertNoExamsInProgress(db: Db, contestId: number): Promise<void> {
  const inProgress = await countExamsInProgress(db, contestId);
  if (inProgress > 0) throw appError('exams_in_progress', resultMessages.examsStillInProgress(inProgress));
}
