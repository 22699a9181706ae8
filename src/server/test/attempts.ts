// A finished attempt as the pure ranking takes it (core/ranking/repo.ts's AttemptRow), for unit
// tests that rank a contest in memory: book 1, submitted 01/03/2026 09:00 (Vietnam), prediction 10.
import type { AttemptRow } from '../core/ranking/repo';

export const attemptRow = (examId: number, contestantId: number, schoolId: number, className: string, points: number, durationSeconds: number): AttemptRow => ({
  examId,
  contestantId,
  schoolId,
  className,
  bookId: 1,
  points,
  durationSeconds,
  submittedAt: new Date('2026-03-01T02:00:00Z'),
  prediction: 10,
});
