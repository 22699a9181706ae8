// SQL of the exam days: the dashboard's aggregates (run by one process at a time, at most every
// few seconds, see service.ts), its stored snapshot, the processes' autosave counters, and the
// incident desk (find a contestant, an extra attempt, an extended deadline).
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { placedContestants } from '../../../db/contestants';
import { foldSql } from '../../../db/fold';
import { selectAttempts } from '../kit/attempts-query';

/** pg_advisory_xact_lock's first key for the dashboard (the second is unused: 0). */
const DASHBOARD_LOCK = 7316454;

// Dashboard snapshot -----------------------------------------------------------------------------

export async function readSnapshot(db: Db) {
  return db.selectFrom('dashboard_snapshots').select(['computed_at', 'data']).executeTakeFirst();
}

export async function writeSnapshot(db: Db, computedAt: Date, data: unknown) {
  const json = JSON.stringify(data);
  await db
    .insertInto('dashboard_snapshots')
    .values({ computed_at: computedAt, data: json })
    .onConflict((oc) => oc.column('id').doUpdateSet({ computed_at: computedAt, data: json }))
    .execute();
}

/** Whether this transaction now holds the dashboard's lock (false: another process computes). */
export async function tryDashboardLock(db: Db): Promise<boolean> {
  const { rows } = await sql<{ got: boolean }>`SELECT pg_try_advisory_xact_lock(${DASHBOARD_LOCK}, 0) AS got`.execute(db);
  return rows[0]!.got;
}

// Dashboard aggregates: core/activity-counts.ts (the education offices' viewers count their scope with them).
export { activityRows, activityTotals, registrations, startedPerHour, type ActivityRow, type ActivityTotals, type Level, type Registrations } from '../../../core/activity-counts';

// Autosave counters of the app processes ---------------------------------------------------------

export interface AutosaveCounters {
  acknowledged: number;
  within_2s: number;
  rejected: number;
  shed: number;
}

export async function writeProcessCounters(
  db: Db,
  row: { processId: string; startedAt: Date; updatedAt: Date; counters: AutosaveCounters; baselineAt: Date; baseline: AutosaveCounters },
) {
  const values = {
    updated_at: row.updatedAt,
    counters: JSON.stringify(row.counters),
    baseline_at: row.baselineAt,
    baseline: JSON.stringify(row.baseline),
  };
  await db
    .insertInto('process_counters')
    .values({ process_id: row.processId, started_at: row.startedAt, ...values })
    .onConflict((oc) => oc.column('process_id').doUpdateSet(values))
    .execute();
}

/** The processes that reported since `since`. */
export async function liveProcessCounters(db: Db, since: Date) {
  const rows = await db
    .selectFrom('process_counters')
    .select(['process_id', 'updated_at', 'counters', 'baseline_at', 'baseline'])
    .where('updated_at', '>=', since)
    .execute();
  return rows.map((row) => ({ ...row, counters: row.counters as AutosaveCounters, baseline: row.baseline as AutosaveCounters }));
}

/** Rows of processes gone for a while (stopped, restarted under a new id). */
export async function deleteStaleProcessCounters(db: Db, before: Date) {
  await db.deleteFrom('process_counters').where('updated_at', '<', before).execute();
}

// Incidents ------------------------------------------------------------------------------------

const escapeLike = (text: string) => text.replace(/[%_\\]/g, '\\$&');

export interface ContestantFilter {
  phoneDigits?: string;
  foldedName?: string;
  schoolId?: number;
  contestantId?: number;
}

/** Contestants matching every given filter, at most `limit`, by name. */
export async function findContestants(db: Db, filter: ContestantFilter, limit: number) {
  let query = db
    .selectFrom(placedContestants(db).as('c'))
    .innerJoin('users', 'users.id', 'c.user_id')
    .leftJoin('extra_attempts', 'extra_attempts.contestant_id', 'c.id')
    .leftJoin('users as granter', 'granter.id', 'extra_attempts.granted_by')
    .select([
      'c.id',
      'c.fullname',
      'users.phone as parent_phone',
      'users.name as parent_name',
      'c.school',
      'c.district',
      'c.class_group',
      'c.class',
      'extra_attempts.reason as extra_reason',
      'extra_attempts.granted_at as extra_granted_at',
      'granter.phone as extra_granted_by',
    ])
    // Incidents are of the current season: its contestants (0033_seasons.sql).
    .where('c.contest_id', '=', sql<number>`(SELECT id FROM contests WHERE is_current)`);
  if (filter.phoneDigits) query = query.where('users.phone', 'like', `%${escapeLike(filter.phoneDigits)}%`);
  if (filter.contestantId) query = query.where('c.id', '=', filter.contestantId);
  if (filter.schoolId) query = query.where('c.school_id', '=', filter.schoolId);
  if (filter.foldedName) {
    query = query.where(foldSql(sql.ref('c.fullname')), 'like', `%${escapeLike(filter.foldedName)}%`);
  }
  return query.orderBy('c.fullname').orderBy('c.id').limit(limit).execute();
}

/** The attempts of these contestants, oldest first, with what the incident desk shows. */
export async function attemptsOf(db: Db, contestantIds: number[]) {
  if (contestantIds.length === 0) return [];
  return selectAttempts(db)
    .select([
      'exams.end_time',
      'exams.saved_at',
      'exams.extension_minutes',
      'exams.extra_attempt_of',
      sql<number>`(SELECT count(*) FROM jsonb_object_keys(exams.answers))::integer`.as('answers_saved'),
      sql<number>`jsonb_array_length(exams.questions)`.as('questions'),
    ])
    .where('exams.contestant_id', 'in', contestantIds)
    .execute();
}

/** The contestant, locked: an exam start of theirs waits until the grant commits. */
export const lockContestant = (db: Db, contestantId: number) =>
  db.selectFrom('contestants').select(['id', 'fullname']).where('id', '=', contestantId).forUpdate().executeTakeFirst();

export const findExtraAttempt = (db: Db, contestantId: number) =>
  db.selectFrom('extra_attempts').select(['contestant_id', 'contest_id', 'reason', 'granted_at']).where('contestant_id', '=', contestantId).executeTakeFirst();

export const deleteExtraAttempt = (db: Db, contestantId: number) => db.deleteFrom('extra_attempts').where('contestant_id', '=', contestantId).execute();

/** Every attempt the contestant has started (attempts are numbered per contestant, whatever their state). */
export async function countAttempts(db: Db, contestantId: number): Promise<number> {
  const row = await db.selectFrom('exams').select((eb) => eb.fn.countAll<string>().as('n')).where('contestant_id', '=', contestantId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export const insertExtraAttempt = (db: Db, row: { contestantId: number; contestId: number; reason: string; grantedBy: number; at: Date }) =>
  db
    .insertInto('extra_attempts')
    .values({ contestant_id: row.contestantId, contest_id: row.contestId, reason: row.reason, granted_by: row.grantedBy, granted_at: row.at })
    .execute();

/** The exam with its contestant, locked against a save or a submit while its deadline moves. */
export const lockExam = (db: Db, examId: number) =>
  db
    .selectFrom('exams')
    .innerJoin('contestants', 'contestants.id', 'exams.contestant_id')
    .select(['exams.id', 'exams.contestant_id', 'exams.attempt', 'exams.status', 'exams.end_time', 'exams.extension_minutes', 'contestants.fullname'])
    .where('exams.id', '=', examId)
    .forUpdate('exams')
    .executeTakeFirst();

/** Moves the deadline of an exam in progress; the CHECK holds the 20-minute total. */
export const extendExam = (db: Db, examId: number, minutes: number) =>
  db
    .updateTable('exams')
    .set((eb) => ({
      end_time: sql`end_time + make_interval(mins => ${minutes})`,
      extension_minutes: eb('extension_minutes', '+', minutes),
    }))
    .where('id', '=', examId)
    .where('status', '=', 2)
    .returning(['end_time', 'extension_minutes'])
    .executeTakeFirst();
