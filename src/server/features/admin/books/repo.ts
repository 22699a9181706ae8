// SQL of the back office's books and question banks.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';

const escapeLike = (text: string) => text.replace(/[%_\\]/g, '\\$&');

const bookColumns = (db: Db) =>
  db
    .selectFrom('books')
    .innerJoin('class_groups', 'class_groups.id', 'books.class_group_id')
    .select([
      'books.id',
      'books.name',
      'books.author',
      'books.image',
      'books.position',
      'books.class_group_id',
      'class_groups.name as class_group_name',
      // What a real exam can draw: practice questions (0017_practice.sql) are counted apart.
      sql<number>`(SELECT count(*) FROM questions WHERE questions.book_id = books.id AND NOT questions.is_practice)::integer`.as('question_count'),
      sql<number>`(SELECT count(*) FROM questions WHERE questions.book_id = books.id AND questions.is_practice)::integer`.as('practice_count'),
      sql<number>`(SELECT count(*) FROM exams WHERE exams.book_id = books.id)::integer`.as('exam_count'),
    ]);

const CURRENT_SEASON = sql<number>`(SELECT id FROM contests WHERE is_current)`;

/** The books of a season (0033_seasons.sql), the current one when none is named. */
export function listBooks(db: Db, q?: string, seasonId?: number) {
  let query = bookColumns(db).where('books.contest_id', '=', seasonId ?? CURRENT_SEASON);
  if (q) query = query.where((eb) => eb.or([eb('books.name', 'ilike', `%${escapeLike(q)}%`), eb('books.author', 'ilike', `%${escapeLike(q)}%`)]));
  return query.orderBy('class_groups.position').orderBy('books.position').execute();
}

/** A book with its season (0033_seasons.sql). */
export const findBook = (db: Db, id: number) => bookColumns(db).select('books.contest_id').where('books.id', '=', id).executeTakeFirst();

/** Locks the book's row: imports and deletes of one bank wait for each other. */
export const lockBook = (db: Db, id: number) =>
  db.selectFrom('books').select(['id', 'name']).where('id', '=', id).forUpdate().executeTakeFirst();

export const classGroupExists = async (db: Db, id: number) =>
  (await db.selectFrom('class_groups').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

export async function insertBook(db: Db, book: { name: string; author: string; class_group_id: number; image: string }) {
  // Books are ordered across the season by position (unique): a new one comes last.
  const { next } = await db
    .selectFrom('books')
    .select(sql<number>`coalesce(max(position), 0) + 1`.as('next'))
    .where('contest_id', '=', CURRENT_SEASON)
    .executeTakeFirstOrThrow();
  return db.insertInto('books').values({ ...book, position: next }).returning('id').executeTakeFirstOrThrow();
}

export const updateBook = (db: Db, id: number, values: { name?: string; author?: string; class_group_id?: number; image?: string }) =>
  db.updateTable('books').set(values).where('id', '=', id).execute();

/** Whether any exam (any contest) exists of the book. */
export const bookHasExams = async (db: Db, bookId: number) =>
  (await db.selectFrom('exams').select('id').where('book_id', '=', bookId).limit(1).executeTakeFirst()) !== undefined;

/** The questions a real exam can draw (practice questions excluded). */
export const countQuestions = async (db: Db, bookId: number) =>
  Number(
    (await db.selectFrom('questions').select(sql<number>`count(*)`.as('n')).where('book_id', '=', bookId).where('is_practice', '=', false).executeTakeFirstOrThrow()).n,
  );

// Questions -----------------------------------------------------------------------------------
export interface StoredQuestion {
  id: number;
  value: string;
  audio: string | null;
  is_practice: boolean;
  answers: { id: number; value: string; audio: string | null; is_correct: boolean }[];
}

async function withAnswers(db: Db, questions: { id: number; value: string; audio: string | null; is_practice: boolean }[]): Promise<StoredQuestion[]> {
  if (questions.length === 0) return [];
  const answers = await db
    .selectFrom('answers')
    .select(['id', 'question_id', 'value', 'audio', 'is_correct'])
    .where(
      'question_id',
      'in',
      questions.map((q) => q.id),
    )
    .orderBy('id')
    .execute();
  return questions.map((q) => ({
    ...q,
    answers: answers.filter((a) => a.question_id === q.id).map(({ id, value, audio, is_correct }) => ({ id, value, audio, is_correct })),
  }));
}

export async function pageOfQuestions(db: Db, bookId: number, { page, per_page, q }: { page: number; per_page: number; q?: string }) {
  let query = db.selectFrom('questions').where('book_id', '=', bookId);
  if (q) {
    const pattern = `%${escapeLike(q)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('value', 'ilike', pattern),
        eb.exists(eb.selectFrom('answers').select('answers.id').whereRef('answers.question_id', '=', 'questions.id').where('answers.value', 'ilike', pattern)),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    query
      .select(['id', 'value', 'audio', 'is_practice'])
      .orderBy('id')
      .limit(per_page)
      .offset((page - 1) * per_page)
      .execute(),
    query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: await withAnswers(db, rows), total: Number(total.n), page, per_page };
}

export async function findQuestion(db: Db, id: number) {
  const row = await db.selectFrom('questions').select(['id', 'book_id', 'value', 'audio', 'is_practice']).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const [question] = await withAnswers(db, [row]);
  return { ...question!, book_id: row.book_id };
}

/** Whether the question was drawn in an exam of its book (exams.questions holds its id). */
export async function isDrawn(db: Db, bookId: number, questionId: number) {
  const row = await db
    .selectFrom('exams')
    .select('id')
    .where('book_id', '=', bookId)
    .where(sql<boolean>`questions @> ${JSON.stringify([{ id: questionId }])}::jsonb`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The book's exam bank as {id, value, answers (in id order), correct}: what an import compares
 * with. Imports write exam questions only, so practice questions are neither compared nor replaced.
 */
export async function bankOf(db: Db, bookId: number) {
  const result = await sql<{ id: number; value: string; answers: { value: string; is_correct: boolean }[] }>`
    SELECT q.id, q.value,
           json_agg(json_build_object('value', a.value, 'is_correct', a.is_correct) ORDER BY a.id) AS answers
    FROM questions q JOIN answers a ON a.question_id = q.id
    WHERE q.book_id = ${bookId} AND NOT q.is_practice
    GROUP BY q.id, q.value`.execute(db);
  return result.rows.map((row) => ({
    id: row.id,
    value: row.value,
    answers: row.answers.map((a) => a.value),
    correct: row.answers.findIndex((a) => a.is_correct),
  }));
}

export interface NewQuestion {
  value: string;
  audio: string | null;
  /** Absent: an exam question (imports). */
  is_practice?: boolean;
  answers: { value: string; audio: string | null }[];
  correct: number;
}

/**
 * Inserts many questions with their answers in three statements whatever their number: the ids
 * are reserved first (so each answer knows its question without relying on the order of
 * RETURNING), then questions and answers go in as arrays (unnest). Returns the new ids in order.
 */
/** Questions per INSERT of an import. */
const INSERT_BATCH = 1000;

export async function insertQuestions(db: Db, bookId: number, questions: readonly NewQuestion[]): Promise<number[]> {
  if (questions.length === 0) return [];
  const reserved = await sql<{ id: number }>`
    SELECT nextval(pg_get_serial_sequence('questions', 'id'))::integer AS id FROM generate_series(1, ${questions.length})`.execute(db);
  const ids = reserved.rows.map((row) => row.id);
  // In batches: the driver writes each statement's arrays on the main thread, and 20,000
  // questions (80,000 answers) in one statement held the exam saves of the process behind it.
  for (let start = 0; start < questions.length; start += INSERT_BATCH) {
    const part = questions.slice(start, start + INSERT_BATCH);
    const partIds = ids.slice(start, start + INSERT_BATCH);
    await sql`
      INSERT INTO questions (id, book_id, value, audio, is_practice)
      SELECT id, ${bookId}, value, audio, is_practice
      FROM unnest(${partIds}::integer[], ${part.map((q) => q.value)}::text[], ${part.map((q) => q.audio)}::text[],
                  ${part.map((q) => q.is_practice ?? false)}::boolean[])
        AS t(id, value, audio, is_practice)`.execute(db);
    const answers = part.flatMap((q, qi) => q.answers.map((a, ai) => ({ question_id: partIds[qi]!, value: a.value, audio: a.audio, is_correct: ai === q.correct })));
    await sql`
      INSERT INTO answers (question_id, value, audio, is_correct)
      SELECT question_id, value, audio, is_correct
      FROM unnest(${answers.map((a) => a.question_id)}::integer[], ${answers.map((a) => a.value)}::text[],
                  ${answers.map((a) => a.audio)}::text[], ${answers.map((a) => a.is_correct)}::boolean[])
        WITH ORDINALITY AS t(question_id, value, audio, is_correct, n)
      ORDER BY n`.execute(db);
  }
  return ids;
}

export async function deleteQuestions(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return;
  await sql`DELETE FROM questions WHERE id = ANY(${ids as number[]}::integer[])`.execute(db);
}

/**
 * The question's new text and answers. Answers are updated in place by position (ids kept:
 * exams that drew the question keep pointing at the same answers), extra ones added or removed.
 * The correct flags are cleared first: the unique index allows one correct answer at any moment.
 */
export async function updateQuestion(db: Db, id: number, question: NewQuestion, existingAnswerIds: readonly number[]) {
  await db
    .updateTable('questions')
    .set({ value: question.value, audio: question.audio, is_practice: question.is_practice ?? false })
    .where('id', '=', id)
    .execute();
  await db.updateTable('answers').set({ is_correct: false }).where('question_id', '=', id).where('is_correct', '=', true).execute();
  const extra = existingAnswerIds.slice(question.answers.length);
  if (extra.length > 0) await db.deleteFrom('answers').where('id', 'in', extra).execute();
  for (const [i, answer] of question.answers.entries()) {
    const values = { value: answer.value, audio: answer.audio, is_correct: i === question.correct };
    const answerId = existingAnswerIds[i];
    if (answerId !== undefined) await db.updateTable('answers').set(values).where('id', '=', answerId).execute();
    else await db.insertInto('answers').values({ question_id: id, ...values }).execute();
  }
}

/** Which of the media paths exist (/api/media/<sha256>.<ext>). */
export async function existingMedia(db: Db, paths: readonly string[]): Promise<Set<string>> {
  const hashes = paths.map((path) => path.slice('/api/media/'.length).split('.')[0]!);
  if (hashes.length === 0) return new Set();
  const rows = await db.selectFrom('media').select(['sha256', 'ext']).where('sha256', 'in', hashes).execute();
  return new Set(rows.map((row) => `/api/media/${row.sha256}.${row.ext}`));
}
