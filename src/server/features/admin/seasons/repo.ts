// SQL of the season switch (issue 26, decision 025).
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../../db/client';
import type { ContestantTable } from '../../../db/schema';
import type { UnitLevel } from '../../../../shared/unit-level';
import { placedContestants } from '../../../db/contestants';
import type { TierRow } from '../../../core/contest';

export const classGroups = (db: Db) => db.selectFrom('class_groups').select(['id', 'name', 'grades']).orderBy('position').execute();

/** The season's children who can come back: not anonymised, on an account that is not deleted. */
export const contestantsToCarry = (db: Db, contestId: number) =>
  db
    .selectFrom(placedContestants(db).as('c'))
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.id', 'c.user_id', 'c.position', 'c.fullname', 'c.district_id', 'c.school_id', 'c.consent_version', 'c.consented_at', 'c.name_consent_version', 'c.name_consented_at', 'c.grades', 'c.class as class_name'])
    .where('c.contest_id', '=', contestId)
    .where('c.anonymised_at', 'is', null)
    .where('u.deleted_at', 'is', null)
    .orderBy('c.id')
    .execute();

/** A child carried into the new season: what its new row keeps of last season's (carried_from_id). */
export type CarriedContestant = Pick<
  Selectable<ContestantTable>,
  'user_id' | 'position' | 'fullname' | 'district_id' | 'school_id' | 'class_group_id' | 'consent_version' | 'consented_at' | 'name_consent_version' | 'name_consented_at'
> & { carried_from_id: number };

export async function insertCarriedContestants(db: Db, contestId: number, rows: CarriedContestant[], now: Date) {
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('contestants')
      .values(rows.slice(i, i + 500).map((row) => ({ ...row, contest_id: contestId, class_room_id: null, class_room_other: null, class_pending: true, created_at: now })))
      .execute();
  }
}

export const booksOfSeason = (db: Db, contestId: number) =>
  db
    .selectFrom('books')
    .select(['id', 'name', 'image', sql<number>`(SELECT count(*) FROM questions q WHERE q.book_id = books.id)::integer`.as('questions')])
    .where('contest_id', '=', contestId)
    .execute();

export async function insertSeasonBook(db: Db, book: { contest_id: number; class_group_id: number; name: string; author: string; image: string; position: number }) {
  return (await db.insertInto('books').values(book).returning('id').executeTakeFirstOrThrow()).id;
}

/** Copies a question bank (practice questions, audio and answers included) into another book. */
export async function copyQuestions(db: Db, fromBookId: number, toBookId: number) {
  const questions = await db.selectFrom('questions').select(['id', 'value', 'audio', 'is_practice']).where('book_id', '=', fromBookId).orderBy('id').execute();
  if (questions.length === 0) return;
  const inserted = await db
    .insertInto('questions')
    .values(questions.map((q) => ({ book_id: toBookId, value: q.value, audio: q.audio, is_practice: q.is_practice })))
    .returning('id')
    .execute();
  const newId = new Map(questions.map((q, i) => [q.id, inserted[i]!.id]));
  const answers = await db
    .selectFrom('answers')
    .select(['question_id', 'value', 'is_correct', 'audio'])
    .where('question_id', 'in', questions.map((q) => q.id))
    .orderBy('id')
    .execute();
  for (let i = 0; i < answers.length; i += 1000) {
    await db
      .insertInto('answers')
      .values(answers.slice(i, i + 1000).map((a) => ({ question_id: newId.get(a.question_id)!, value: a.value, is_correct: a.is_correct, audio: a.audio })))
      .execute();
  }
}

export async function insertSeason(
  db: Db,
  season: {
    name: string;
    reading_starts_at: Date;
    reading_ends_at: Date;
    exam_starts_at: Date;
    exam_ends_at: Date;
    results_at: Date;
    ceremony_starts_at: Date;
    ceremony_ends_at: Date;
    exam_duration_seconds: number;
    questions_per_exam: number;
    attempts_per_contestant: number;
    retention_months: number;
    review_correct_answers: 'after_submit' | 'after_exam_window';
    unit_level: UnitLevel;
  },
) {
  return (await db.insertInto('contests').values({ ...season, is_current: false }).returning('id').executeTakeFirstOrThrow()).id;
}

/** One current season: the old one's flag goes first (the partial unique index). */
export async function makeCurrent(db: Db, fromId: number, toId: number) {
  await db.updateTable('contests').set({ is_current: false }).where('id', '=', fromId).execute();
  await db.updateTable('contests').set({ is_current: true }).where('id', '=', toId).execute();
}

export async function insertTiers(db: Db, contestId: number, tiers: TierRow[], classMinParticipants: number, prizedSchoolsOnly: boolean) {
  if (tiers.length) await db.insertInto('prize_tiers').values(tiers.map((tier) => ({ ...tier, contest_id: contestId }))).execute();
  await db
    .insertInto('result_settings')
    .values({ contest_id: contestId, class_min_participants: classMinParticipants, school_pupils_prized_schools_only: prizedSchoolsOnly })
    .execute();
}

export const resultSettingsOf = (db: Db, contestId: number) =>
  db.selectFrom('result_settings').select(['class_min_participants', 'school_pupils_prized_schools_only']).where('contest_id', '=', contestId).executeTakeFirst();

/** The season's prized classes keep the teacher they had (0033_seasons.sql). */
export async function keepClassTeachers(db: Db, contestId: number) {
  await sql`
    UPDATE class_results r SET teacher_name = t.teacher_name
    FROM class_teachers t
    WHERE r.contest_id = ${contestId} AND r.teacher_name IS NULL AND t.school_id = r.school_id AND t.class_name = r.class_name`.execute(db);
}

export const countClassTeachers = async (db: Db) => Number((await db.selectFrom('class_teachers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
export const clearClassTeachers = (db: Db) => db.deleteFrom('class_teachers').execute();

const activeSchoolAdmins = (db: Db) => db.selectFrom('users').where('role', '=', 'school_admin').where('locked_at', 'is', null).where('deleted_at', 'is', null);
export const countSchoolAdmins = async (db: Db) => Number((await activeSchoolAdmins(db).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
export const lockSchoolAdmins = (db: Db, now: Date) =>
  db.updateTable('users').set({ locked_at: now }).where('role', '=', 'school_admin').where('locked_at', 'is', null).where('deleted_at', 'is', null).execute();

/** The footer goes back to the server's defaults (features/site: no row, the configuration's texts). */
export const resetFooter = (db: Db) => db.deleteFrom('site_settings').execute();
