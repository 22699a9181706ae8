// SQL of the question quality report (decision 021): one aggregation over the finished exams of a
// contest (optionally of one book) into counts by (question, rest score, answer chosen, right),
// from which item-stats.ts computes everything else. Practice rounds live in their own table and
// never count; exams in progress (status 2) do not either.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import type { AdminQuestion } from '../../../../shared/schemas/admin-books';
import type { Cell } from './item-stats';

export interface QualityCell extends Cell {
  bookId: number;
  questionId: number;
}
/** A cell of one book. */
export type BookCell = Omit<QualityCell, 'bookId'>;

/**
 * Every (question, exam) pair of the finished exams, as counts. "Right" is the exam's own scoring
 * (exams/repo.ts correctCountSql): the question's regrade rule in force when there is one, else the
 * answer equal to the exam's key snapshot; so the rest score, correct_count minus this question's
 * point, is the exam's stored score without the question. The pairs are first counted by plain
 * integer keys (the answer and whether it is the snapshot's key), and the regrade rules applied to
 * those few counts afterwards: the per-pair work is one unnest and one look-up (decision 021).
 */
export async function qualityCells(db: Db, contestId: number, bookId?: number): Promise<QualityCell[]> {
  const result = await sql<{ book_id: number; question_id: number; rest: number; answer_id: number | null; correct: boolean; count: number }>`
    WITH counts AS (
      SELECT e.book_id, k.key::integer AS question_id, e.correct_count, (e.answers ->> k.key)::integer AS answer_id,
             (e.answers ->> k.key) = k.value AS on_key, count(*)::integer AS n
      FROM exams e
      CROSS JOIN LATERAL jsonb_each_text(e.answer_key) AS k
      WHERE e.contest_id = ${contestId} AND e.status = 1 AND e.correct_count IS NOT NULL
        ${bookId === undefined ? sql`` : sql`AND e.book_id = ${bookId}`}
      GROUP BY 1, 2, 3, 4, 5
    ), scored AS (
      SELECT c.book_id, c.question_id, c.answer_id, c.correct_count, c.n,
             COALESCE(CASE WHEN r.mode IS NULL THEN c.on_key
                           WHEN r.mode = 'everyone' THEN true
                           ELSE c.answer_id = ANY (r.accepted_answer_ids) END, false) AS correct
      FROM counts c
      LEFT JOIN question_regrades r ON r.active AND r.contest_id = ${contestId} AND r.question_id = c.question_id
    )
    SELECT book_id, question_id, correct_count - correct::integer AS rest, answer_id, correct, sum(n)::integer AS count
    FROM scored
    GROUP BY book_id, question_id, rest, answer_id, correct`.execute(db);
  return result.rows.map((row) => ({
    bookId: row.book_id,
    questionId: row.question_id,
    rest: row.rest,
    answerId: row.answer_id,
    correct: row.correct,
    count: row.count,
  }));
}

/**
 * The counts of several books, one statement per book sent at once: PostgreSQL does not aggregate
 * the pairs in parallel workers by itself (it expects as many groups as pairs), so each book gets
 * a backend of its own (measured in decision 021: about twice as fast as one statement on 2 cores).
 */
export async function qualityCellsOfBooks(db: Db, contestId: number, bookIds: readonly number[]): Promise<QualityCell[]> {
  return (await Promise.all(bookIds.map((bookId) => qualityCells(db, contestId, bookId)))).flat();
}

/** The book's exam questions (never the practice ones) with their answers in the bank's order. */
export async function bankOf(db: Db, bookId: number) {
  const rows = await db
    .selectFrom('questions')
    .innerJoin('answers', 'answers.question_id', 'questions.id')
    .select(['questions.id as question_id', 'questions.value as question', 'questions.audio as question_audio', 'answers.id', 'answers.value', 'answers.audio', 'answers.is_correct'])
    .where('questions.book_id', '=', bookId)
    .where('questions.is_practice', '=', false)
    .orderBy('questions.id')
    .orderBy('answers.id')
    .execute();
  const questions = new Map<number, AdminQuestion>();
  for (const row of rows) {
    const question = questions.get(row.question_id) ?? { id: row.question_id, value: row.question, audio: row.question_audio, is_practice: false, answers: [] };
    question.answers.push({ id: row.id, value: row.value, audio: row.audio, is_correct: row.is_correct });
    questions.set(row.question_id, question);
  }
  return [...questions.values()];
}

/** The book with its season (books are per season: its exams are that season's). */
export const findBook = (db: Db, bookId: number) =>
  db
    .selectFrom('books')
    .innerJoin('contests', 'contests.id', 'books.contest_id')
    .select(['books.id', 'books.name', 'books.contest_id', 'contests.name as season_name', 'contests.is_current as season_is_current'])
    .where('books.id', '=', bookId)
    .executeTakeFirst();

export async function finishedExams(db: Db, contestId: number, bookId: number): Promise<number> {
  const row = await db
    .selectFrom('exams')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('contest_id', '=', contestId)
    .where('book_id', '=', bookId)
    .where('status', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The book's counts as last computed (0042), or undefined. */
export async function storedCounts(db: Db, bookId: number): Promise<{ exams: number; computedAt: Date; cells: BookCell[] } | undefined> {
  const row = await db.selectFrom('question_quality_counts').select(['exams', 'computed_at', 'cells']).where('book_id', '=', bookId).executeTakeFirst();
  if (!row) return undefined;
  return {
    exams: row.exams,
    computedAt: row.computed_at,
    cells: row.cells.map(([questionId, rest, answerId, correct, count]) => ({ questionId, rest, answerId, correct, count })),
  };
}

/** Keeps the book's counts (replacing the ones before). */
export async function storeCounts(db: Db, bookId: number, counts: { exams: number; computedAt: Date; cells: readonly BookCell[] }): Promise<void> {
  const row = { exams: counts.exams, computed_at: counts.computedAt, cells: JSON.stringify(counts.cells.map((c) => [c.questionId, c.rest, c.answerId, c.correct, c.count])) };
  await db
    .insertInto('question_quality_counts')
    .values({ book_id: bookId, ...row })
    .onConflict((oc) => oc.column('book_id').doUpdateSet(row))
    .execute();
}

/** Forgets the book's counts (a regrade changed the scoring): the next view computes them. */
export async function forgetCounts(db: Db, bookId: number): Promise<void> {
  await db.deleteFrom('question_quality_counts').where('book_id', '=', bookId).execute();
}
