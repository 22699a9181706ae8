// SQL of the ranking: finished attempts in, stored results out.
import type { Db } from '../../db/client';
import type { Attempt } from './ranking';
import type { TieDecisionTable } from '../../db/schema';
import { contestantClassKey } from '../../db/class-key';

export interface AttemptRow extends Attempt {
  schoolId: number;
  className: string;
  bookId: number;
}

/** The query of loadFinishedAttempts (also explained by scripts/bench-report.ts). */
export function finishedAttemptsQuery(db: Db, contestId: number, filter: { schoolId?: number; contestantIds?: number[] } = {}) {
  let query = db
    .selectFrom('exams')
    .innerJoin('contestants', 'contestants.id', 'exams.contestant_id')
    .leftJoin('class_rooms', 'class_rooms.id', 'contestants.class_room_id')
    .select([
      'exams.id as examId',
      'exams.contestant_id as contestantId',
      'exams.points',
      'exams.duration_seconds',
      'exams.submitted_at',
      'exams.prediction',
      'exams.book_id as bookId',
      'contestants.school_id as schoolId',
      contestantClassKey.as('className'),
    ])
    .where('exams.contest_id', '=', contestId)
    .where('exams.status', '=', 1);
  if (filter.schoolId !== undefined) query = query.where('contestants.school_id', '=', filter.schoolId);
  if (filter.contestantIds !== undefined) query = query.where('exams.contestant_id', 'in', filter.contestantIds);
  return query;
}

/** Finished exams of a contest (optionally of one school's contestants), with the pupil's school and class. */
export async function loadFinishedAttempts(db: Db, contestId: number, filter: { schoolId?: number; contestantIds?: number[] } = {}): Promise<AttemptRow[]> {
  if (filter.contestantIds !== undefined && filter.contestantIds.length === 0) return [];
  const query = finishedAttemptsQuery(db, contestId, filter);
  const rows = await query.execute();
  return rows.map((row) => ({
    examId: row.examId,
    contestantId: row.contestantId,
    // Finished exams always have these (database CHECK on exams).
    points: row.points ?? 0,
    durationSeconds: row.duration_seconds ?? 0,
    submittedAt: new Date(row.submitted_at ?? 0),
    prediction: row.prediction,
    bookId: row.bookId,
    schoolId: row.schoolId,
    className: row.className,
  }));
}

/** The real number of exam papers: finished exams of the contest. */
export async function countExamPapers(db: Db, contestId: number): Promise<number> {
  const row = await db
    .selectFrom('exams')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('contest_id', '=', contestId)
    .where('status', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function countExamsInProgress(db: Db, contestId: number): Promise<number> {
  const row = await db
    .selectFrom('exams')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('contest_id', '=', contestId)
    .where('status', '=', 2)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function getResultRun(db: Db, contestId: number) {
  return db.selectFrom('result_runs').selectAll().where('contest_id', '=', contestId).executeTakeFirst();
}

/** Inserts rows in slices: PostgreSQL takes at most 65,535 parameters per statement. */
export async function insertInSlices<R>(rows: readonly R[], size: number, insert: (slice: R[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** A decision as rankContest takes it (standings.ts TieDecision; not imported: standings imports this file). */
export interface LoadedTieDecision {
  scope: TieDecisionTable['scope'];
  school_id: number | null;
  ids: (number | string)[];
  decision: TieDecisionTable['decision'];
  order: (number | string)[] | null;
}

/** The organiser's decisions on ties of a contest, as the ranking applies them. */
export async function loadTieDecisions(db: Db, contestId: number): Promise<LoadedTieDecision[]> {
  const rows = await db.selectFrom('tie_decisions').selectAll().where('contest_id', '=', contestId).execute();
  return rows.map((row) => ({ scope: row.scope, school_id: row.school_id, ids: row.member_ids, decision: row.decision, order: row.ordered_ids }));
}
