// SQL of the privacy feature: consent, the parent's copy of their data, deletion of an account.
import { sql } from 'kysely';
import type { Db } from '../../db/client';
import { placedContestants } from '../../db/contestants';

export const recordConsent = (db: Db, userId: number, version: string, now: Date) =>
  db.updateTable('users').set({ privacy_version: version, privacy_consented_at: now }).where('id', '=', userId).execute();

// The copy -------------------------------------------------------------------------------------

export const findAccount = (db: Db, userId: number) =>
  db
    .selectFrom('users')
    .select(['id', 'phone', 'name', 'role', 'created_at', 'privacy_version', 'privacy_consented_at'])
    .where('id', '=', userId)
    .executeTakeFirst();

export const listContestants = (db: Db, userId: number) =>
  db
    .selectFrom(placedContestants(db).as('c'))
    .select(['c.id', 'c.position', 'c.fullname', 'c.created_at', 'c.consent_version', 'c.consented_at', 'c.name_consent_version', 'c.name_consented_at', 'c.school', 'c.district', 'c.class_group', 'c.class'])
    .where('c.user_id', '=', userId)
    .orderBy('c.position')
    .execute();

/** Every exam of the account (exams.user_id is the owner), with the questions as shown and the answers given. */
/** The account's practice rounds (they count for nothing, but they are the family's data too). */
export const listPracticeRounds = (db: Db, userId: number) =>
  db
    .selectFrom('practice_exams')
    .select(['id', 'contestant_id', 'status', 'start_time', 'end_time', 'submitted_at', 'correct_count', 'duration_seconds', 'prediction', 'questions', 'answers'])
    .where('user_id', '=', userId)
    .orderBy('start_time')
    .orderBy('id')
    .execute();

export const listExams = (db: Db, userId: number) =>
  db
    .selectFrom('exams')
    .innerJoin('books', 'books.id', 'exams.book_id')
    .select([
      'exams.id',
      'exams.contestant_id',
      'books.name as book',
      'exams.attempt',
      'exams.status',
      'exams.start_time',
      'exams.end_time',
      'exams.submitted_at',
      'exams.points',
      'exams.correct_count',
      'exams.duration_seconds',
      'exams.prediction',
      'exams.questions',
      'exams.answers',
    ])
    .where('exams.user_id', '=', userId)
    .orderBy('exams.contestant_id')
    .orderBy('exams.attempt')
    .execute();

export const listResults = (db: Db, contestantIds: number[]) =>
  contestantIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('individual_results')
        .innerJoin('contests', 'contests.id', 'individual_results.contest_id')
        // A rank or prize is the family's to see once the results are published, not before.
        .innerJoin('result_runs', 'result_runs.contest_id', 'individual_results.contest_id')
        .where('result_runs.published_at', 'is not', null)
        .select([
          'individual_results.contestant_id',
          'contests.name as contest',
          'individual_results.points',
          'individual_results.rank',
          'individual_results.school_rank',
          'individual_results.prize_name',
        ])
        .where('individual_results.contestant_id', 'in', contestantIds)
        .execute();

export const listCertificates = (db: Db, contestantIds: number[]) =>
  contestantIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('certificates')
        .select(['contestant_id', 'code', 'kind', 'issued_at'])
        .where('contestant_id', 'in', contestantIds)
        .orderBy('issued_at')
        .execute();

/** Sessions started per day in Vietnam (the day as yyyy-mm-dd). */
export const loginsByDay = (db: Db, userId: number) =>
  db
    .selectFrom('sessions')
    .select([
      sql<string>`to_char(created_at AT TIME ZONE 'Asia/Ho_Chi_Minh', 'YYYY-MM-DD')`.as('day'),
      (eb) => eb.fn.countAll<number>().as('count'),
    ])
    .where('user_id', '=', userId)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();

