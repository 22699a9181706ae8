// SQL of the integrity screening (decision 027): the counts of the nominal response model, the
// finished exams streamed through a cursor in (book, school) order, the pairs in contact across
// schools, the exams that shared a login, and the flags.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../../db/client';
import type { IntegrityFlagTable } from '../../../db/schema';
import { contestantClassKey } from '../../../db/class-key';
import { BAND_WIDTH, BANDS, type ResponseCell } from './similarity';

const band = sql<number>`LEAST(${BANDS - 1}::integer, e.correct_count / ${BAND_WIDTH}::integer)`;

/** Counts by (question, ability band, answer) over the contest's finished exams (of one book): one aggregation. */
export async function responseCells(db: Db, contestId: number, bookId?: number): Promise<ResponseCell[]> {
  const { rows } = await sql<{ question_id: number; band: number; answer_id: number | null; count: number }>`
    SELECT k.key::integer AS question_id, ${band} AS band, (e.answers ->> k.key)::integer AS answer_id, count(*)::integer AS count
    FROM exams e
    CROSS JOIN LATERAL jsonb_object_keys(e.answer_key) AS k(key)
    WHERE e.contest_id = ${contestId} AND e.status = 1 AND e.correct_count IS NOT NULL
      ${bookId === undefined ? sql`` : sql`AND e.book_id = ${bookId}`}
    GROUP BY 1, 2, 3`.execute(db);
  return rows.map((row) => ({ questionId: row.question_id, band: row.band, answerId: row.answer_id, count: row.count }));
}

/**
 * The counts of every book, one statement per book sent at once through the pool: PostgreSQL does
 * not aggregate these pairs in parallel workers by itself (decision 021), so each book gets a
 * backend of its own. With PGlite the statements simply run in turn.
 */
export async function responseCellsOfBooks(db: Db, contestId: number): Promise<ResponseCell[]> {
  const books = await db.selectFrom('books').select('id').execute();
  return (await Promise.all(books.map((book) => responseCells(db, contestId, book.id)))).flat();
}

/** The bank's answers of these questions (an answer nobody chose is still an option). */
export async function bankAnswers(db: Db, questionIds: readonly number[]): Promise<Map<number, number[]>> {
  const answers = new Map<number, number[]>();
  if (!questionIds.length) return answers;
  const rows = await db.selectFrom('answers').select(['question_id', 'id']).where('question_id', 'in', questionIds).execute();
  for (const row of rows) answers.set(row.question_id, [...(answers.get(row.question_id) ?? []), row.id]);
  return answers;
}

/** A finished exam as the pass reads it: the rows as stored (the pass sorts and reads them: cheaper than per-row SQL). */
export interface ScreenExam {
  id: number;
  contestant_id: number;
  user_id: number;
  book_id: number;
  school_id: number;
  class_key: string;
  correct_count: number;
  start_s: number;
  submit_s: number;
  /** {"<question>": key answer} (the snapshot), {"<question>": answer given}, answer_times (0040). */
  answer_key: Record<string, number>;
  answers: Record<string, number>;
  answer_times: Record<string, number>;
}

/** A finished exam as streamed to the pass: its jsonb columns as text, parsed by the pass (in its worker thread, not on the app's). */
export type PassRow = Omit<ScreenExam, 'answer_key' | 'answers' | 'answer_times'> & { answer_key: string; answers: string; answer_times: string };

const finished = (contestId: number) => sql`e.contest_id = ${contestId} AND e.status = 1 AND e.correct_count IS NOT NULL`;

/**
 * Streams the contest's finished exams ordered by book and school (a cursor inside the caller's
 * transaction, `page` rows at a time): `each` gets every page. The jsonb columns come as text: the
 * pass parses them in its worker thread (screen-pass.ts), not on the app's.
 */
export async function streamExams(trx: Db, contestId: number, page: number, each: (rows: PassRow[]) => void | Promise<void>): Promise<void> {
  await sql`
    DECLARE integrity_exams NO SCROLL CURSOR FOR
    SELECT e.id, e.contestant_id, contestants.user_id, e.book_id, contestants.school_id, ${contestantClassKey} AS class_key, e.correct_count,
           extract(epoch FROM e.start_time)::double precision AS start_s,
           extract(epoch FROM COALESCE(e.submitted_at, e.end_time))::double precision AS submit_s,
           e.answer_key::text AS answer_key, e.answers::text AS answers, e.answer_times::text AS answer_times
    FROM exams e
    JOIN contestants ON contestants.id = e.contestant_id
    LEFT JOIN class_rooms ON class_rooms.id = contestants.class_room_id
    WHERE ${finished(contestId)}
    ORDER BY e.book_id, contestants.school_id, e.id`.execute(trx);
  for (;;) {
    const { rows } = await sql<PassRow>`FETCH ${sql.raw(String(page))} FROM integrity_exams`.execute(trx);
    if (!rows.length) break;
    await each(rows);
    if (rows.length < page) break;
  }
  await sql`CLOSE integrity_exams`.execute(trx);
}

/** Pairs of exams of one book by two contestants of different schools sharing a parent account or a login. */
export async function crossSchoolPairs(db: Db, contestId: number): Promise<{ a: number; b: number }[]> {
  const { rows } = await sql<{ a: number; b: number }>`
    WITH x AS (
      SELECT e.id, e.book_id, e.contestant_id, c.user_id, c.school_id, (e.answer_times ->> 's')::integer AS session_id
      FROM exams e JOIN contestants c ON c.id = e.contestant_id
      WHERE ${finished(contestId)}
    )
    SELECT a.id AS a, b.id AS b FROM x a JOIN x b ON b.user_id = a.user_id AND b.book_id = a.book_id
    WHERE a.id < b.id AND a.contestant_id <> b.contestant_id AND a.school_id <> b.school_id
    UNION
    SELECT a.id, b.id FROM x a JOIN x b ON b.session_id = a.session_id AND b.book_id = a.book_id
    WHERE a.id < b.id AND a.contestant_id <> b.contestant_id AND a.school_id <> b.school_id`.execute(db);
  return rows;
}

/** Two exams of two contestants whose last saves came from one login, taken at overlapping times. */
export interface SharedLoginPair {
  a: number;
  b: number;
  contestant_a: number;
  contestant_b: number;
  times_a: Record<string, number>;
  times_b: Record<string, number>;
  answers_a: Record<string, number>;
  answers_b: Record<string, number>;
  same_account: boolean;
  same_school: boolean;
  same_class: boolean;
}

export async function sharedLoginPairs(db: Db, contestId: number): Promise<SharedLoginPair[]> {
  const { rows } = await sql<SharedLoginPair>`
    WITH x AS (
      SELECT e.id, e.contestant_id, contestants.user_id, contestants.school_id, ${contestantClassKey} AS class_key, e.start_time, COALESCE(e.submitted_at, e.end_time) AS end_time,
             (e.answer_times ->> 's')::integer AS session_id, e.answer_times, e.answers
      FROM exams e JOIN contestants ON contestants.id = e.contestant_id LEFT JOIN class_rooms ON class_rooms.id = contestants.class_room_id
      WHERE ${finished(contestId)} AND e.answer_times ? 's'
    )
    SELECT a.id AS a, b.id AS b, a.contestant_id AS contestant_a, b.contestant_id AS contestant_b,
           a.answer_times AS times_a, b.answer_times AS times_b, a.answers AS answers_a, b.answers AS answers_b,
           a.user_id = b.user_id AS same_account, a.school_id = b.school_id AS same_school,
           a.school_id = b.school_id AND a.class_key = b.class_key AS same_class
    FROM x a JOIN x b ON b.session_id = a.session_id
    WHERE a.id < b.id AND a.contestant_id <> b.contestant_id AND a.start_time < b.end_time AND b.start_time < a.end_time`.execute(db);
  return rows;
}

/** A flag as the screening finds it: the table's columns of the finding, before any decision. */
export type NewFlag = Pick<Selectable<IntegrityFlagTable>, 'kind' | 'exam_id' | 'other_exam_id' | 'contestant_id' | 'other_contestant_id' | 'strength' | 'evidence' | 'contact'>;

/**
 * Replaces the contest's open flags with `flags` and records the run, in the caller's
 * transaction. A flag already decided (dismissed, withheld) stays as decided.
 */
export async function storeRun(
  trx: Db,
  contestId: number,
  run: { family_rate: number; exams: number; pairs: number; tests: number; threshold: number; seconds: number; ran_by: number | null; ran_at: Date },
  flags: readonly NewFlag[],
): Promise<void> {
  await trx.deleteFrom('integrity_flags').where('contest_id', '=', contestId).where('status', '=', 'open').execute();
  for (let i = 0; i < flags.length; i += 1000) {
    await trx
      .insertInto('integrity_flags')
      .values(
        flags.slice(i, i + 1000).map((flag) => ({
          contest_id: contestId,
          kind: flag.kind,
          exam_id: flag.exam_id,
          other_exam_id: flag.other_exam_id,
          contestant_id: flag.contestant_id,
          other_contestant_id: flag.other_contestant_id,
          strength: flag.strength,
          evidence: JSON.stringify(flag.evidence),
          contact: flag.contact,
          found_at: run.ran_at,
        })),
      )
      .onConflict((oc) => oc.expression(sql`contest_id, kind, exam_id, COALESCE(other_exam_id, 0)`).doNothing())
      .execute();
  }
  await trx
    .insertInto('integrity_runs')
    .values({ contest_id: contestId, ...run })
    .onConflict((oc) => oc.column('contest_id').doUpdateSet({ ...run }))
    .execute();
}
