// SQL of the practice round. Practice rounds live in practice_exams, never in exams, so nothing
// that counts attempts or scores (ranking, reports, certificates, dashboards) can see one.
import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { AnswerMap, ExamQuestion } from '../../db/schema';
import { finalisePaper, openStatement, PAPER_COLUMNS, type OpenedRow } from '../../core/paper/repo';
import type { DrawnQuestion } from '../../core/paper/rules';
import type { PaperKey } from '../../core/paper/session';

/** Practice questions of every book of a class group, per contestant of the account. */
export async function practiceStatusOf(db: Db, userId: number, inProgressAfter: Date) {
  const result = await sql<{ child_id: number; fullname: string; question_count: number; in_progress_slug: string | null }>`
    SELECT c.id AS child_id, c.fullname,
           (SELECT count(*) FROM questions q JOIN books b ON b.id = q.book_id
            WHERE b.class_group_id = c.class_group_id AND b.contest_id = c.contest_id AND q.is_practice)::integer AS question_count,
           (SELECT p.slug FROM practice_exams p
            WHERE p.contestant_id = c.id AND p.status = 2 AND p.end_time >= ${inProgressAfter}) AS in_progress_slug
    FROM contestants c
    WHERE c.user_id = ${userId} AND c.contest_id = (SELECT id FROM contests WHERE is_current)
    ORDER BY c.position`.execute(db);
  return result.rows;
}

/** `count` distinct practice questions of the group's books at random, with their answers. */
export async function drawPracticeQuestions(db: Db, classGroupId: number, count: number): Promise<DrawnQuestion[]> {
  const result = await sql<DrawnQuestion>`
    WITH picked AS (
      SELECT q.id, q.value FROM questions q JOIN books b ON b.id = q.book_id
      WHERE b.class_group_id = ${classGroupId} AND b.contest_id = (SELECT id FROM contests WHERE is_current) AND q.is_practice
      ORDER BY random() LIMIT ${count}
    )
    SELECT p.id, p.value,
           json_agg(json_build_object('id', a.id, 'value', a.value, 'is_correct', a.is_correct) ORDER BY a.id) AS answers
    FROM picked p JOIN answers a ON a.question_id = p.id
    GROUP BY p.id, p.value`.execute(db);
  return result.rows;
}

/** Practice rounds the contestant started since `since` (the daily limit). */
export async function countStartsSince(db: Db, contestantId: number, since: Date) {
  const row = await db
    .selectFrom('practice_exams')
    .select(sql<number>`count(*)`.as('n'))
    .where('contestant_id', '=', contestantId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewPractice {
  slug: string;
  user_id: number;
  contestant_id: number;
  start_time: Date;
  end_time: Date;
  questions: ExamQuestion[];
  answer_key: AnswerMap;
}

export const insertPractice = (db: Db, practice: NewPractice) =>
  db
    .insertInto('practice_exams')
    .values({
      ...practice,
      questions: JSON.stringify(practice.questions),
      answer_key: JSON.stringify(practice.answer_key),
      // The injected clock's time: the daily limit and the purge read it.
      created_at: practice.start_time,
    })
    .returning(['id', 'slug', 'start_time', 'end_time'])
    .executeTakeFirstOrThrow();

/** A round with its contestant's name, its key and its class group, for its owner only (core/paper: PaperKind.findOwned). */
export const findOwnedPractice = (db: Db, key: PaperKey, userId: number, lock = false) => {
  let query = db
    .selectFrom('practice_exams as p')
    .innerJoin('contestants as c', 'c.id', 'p.contestant_id')
    .innerJoin('class_groups as g', 'g.id', 'c.class_group_id')
    .select([...PAPER_COLUMNS, 'p.answer_key', 'c.fullname', 'g.name as group_name', 'g.grades as group_grades'])
    .where('p.user_id', '=', userId)
    .where('p.slug', '=', key.slug);
  if (key.id !== undefined) query = query.where('p.id', '=', key.id);
  return (lock ? query.forUpdate('p') : query).executeTakeFirst();
};
export type OwnedPractice = NonNullable<Awaited<ReturnType<typeof findOwnedPractice>>>;

/** GET /api/practice/exams/:slug in one statement (core/paper/repo.ts openStatement), with the round's class group. */
export const OPEN_PRACTICE = openStatement('practice_open', 'practice_exams', {
  from: 'class_groups g',
  where: 'g.id = c.class_group_id',
  columns: 'g.name AS group_name, g.grades AS group_grades',
});
export type OpenedPractice = OpenedRow & { group_name: string; group_grades: string };

/** A round's score for core/paper's finaliseSet: the stored answers equal to the key (a practice round is never regraded). */
export const practiceScore = sql`correct_count = (SELECT count(*) FROM jsonb_each(answers) AS given(question_id, answer_id)
                                                 WHERE answer_key -> given.question_id = given.answer_id)`;

/** Ends the contestant's round in progress, if any (a new start replaces it). */
export async function finaliseInProgress(db: Db, contestantId: number, now: Date) {
  const row = await db
    .selectFrom('practice_exams')
    .select('id')
    .where('contestant_id', '=', contestantId)
    .where('status', '=', 2)
    .forUpdate()
    .executeTakeFirst();
  if (row) await finalisePaper(db, 'practice_exams', practiceScore, row.id, now);
}

/** Deletes up to `limit` rounds created before `before`; returns how many. */
export async function deleteCreatedBefore(db: Db, before: Date, limit: number): Promise<number> {
  const result = await sql`
    DELETE FROM practice_exams WHERE id IN (
      SELECT id FROM practice_exams WHERE created_at < ${before} ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
