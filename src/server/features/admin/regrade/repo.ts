// SQL of regrading: the question and its rule in force, the exams that drew it scored under a
// proposed rule (the dry run) or under the rules in force (the commit), and the history.
import { sql, type Insertable } from 'kysely';
import type { Db } from '../../../db/client';
import type { QuestionRegradeTable, RegradeMode } from '../../../db/schema';
import { correctCountSql, pointsSql } from '../../exams';

export async function findQuestion(db: Db, questionId: number) {
  const question = await db
    .selectFrom('questions')
    .innerJoin('books', 'books.id', 'questions.book_id')
    .select(['questions.id', 'questions.value', 'questions.book_id', 'books.name as book_name', 'books.contest_id as season_id'])
    .where('questions.id', '=', questionId)
    .executeTakeFirst();
  if (!question) return undefined;
  const answers = await db
    .selectFrom('answers')
    .select(['id', 'value', 'is_correct'])
    .where('question_id', '=', questionId)
    .orderBy('id')
    .execute();
  return { ...question, answers };
}
export type RegradeQuestion = NonNullable<Awaited<ReturnType<typeof findQuestion>>>;

export const ruleInForce = (db: Db, contestId: number, questionId: number) =>
  db
    .selectFrom('question_regrades')
    .select(['id', 'mode', 'accepted_answer_ids', 'previous_key_answer_id'])
    .where('contest_id', '=', contestId)
    .where('question_id', '=', questionId)
    .where('active', '=', true)
    .executeTakeFirst();

export interface ProposedRule {
  contestId: number;
  questionId: number;
  bookId: number;
  mode: RegradeMode;
  acceptedAnswerIds: number[];
}

/** Exams of the contest that drew the question (its key snapshot has it), through exams_book_idx. */
const drewQuestion = (rule: Pick<ProposedRule, 'contestId' | 'bookId' | 'questionId'>) =>
  sql`exams.contest_id = ${rule.contestId} AND exams.book_id = ${rule.bookId} AND exams.answer_key ? ${String(rule.questionId)}`;

export interface ScoredExam {
  id: number;
  contestant_id: number;
  attempt: number;
  /** The contestant's answer to the question (null: none). */
  answer_id: number | null;
  points_before: number;
  points_after: number;
}

/**
 * The dry run: every finished exam that drew the question, with its stored points and the points
 * it would have with `rule` in place of the question's rule in force (the other regraded
 * questions keep theirs). One statement, nothing written.
 */
export async function scoreUnderRule(db: Db, rule: ProposedRule): Promise<ScoredExam[]> {
  const rules = sql`(
    SELECT contest_id, question_id, mode, accepted_answer_ids FROM question_regrades
    WHERE active AND NOT (contest_id = ${rule.contestId} AND question_id = ${rule.questionId})
    UNION ALL
    SELECT ${rule.contestId}::integer, ${rule.questionId}::integer, ${rule.mode}::text, ${rule.acceptedAnswerIds}::integer[])`;
  const result = await sql<ScoredExam>`
    SELECT exams.id, exams.contestant_id, exams.attempt,
           (exams.answers ->> ${String(rule.questionId)})::integer AS answer_id,
           exams.points AS points_before,
           ${pointsSql(correctCountSql(rules))} AS points_after
    FROM exams
    WHERE ${drewQuestion(rule)} AND exams.status = 1`.execute(db);
  return result.rows;
}

export async function countInProgress(db: Db, rule: Pick<ProposedRule, 'contestId' | 'bookId' | 'questionId'>): Promise<number> {
  const result = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM exams WHERE ${drewQuestion(rule)} AND exams.status = 2`.execute(db);
  return result.rows[0]!.n;
}

/**
 * Scores again, with the rules in force, every finished exam that drew the question: one UPDATE
 * whatever their number, writing only the rows whose count changes. Returns how many changed.
 */
export async function rescoreExams(db: Db, rule: Pick<ProposedRule, 'contestId' | 'bookId' | 'questionId'>): Promise<number> {
  const result = await sql`
    UPDATE exams SET correct_count = scored.correct, points = ${pointsSql(sql<number>`scored.correct`)}
    FROM (SELECT exams.id, ${correctCountSql()} AS correct FROM exams WHERE ${drewQuestion(rule)} AND exams.status = 1) AS scored
    WHERE exams.id = scored.id AND exams.correct_count IS DISTINCT FROM scored.correct`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The bank's key moves to `answerId` (the unique index allows one correct answer at any moment). */
export async function moveBankKey(db: Db, questionId: number, answerId: number) {
  await db.updateTable('answers').set({ is_correct: false }).where('question_id', '=', questionId).where('is_correct', '=', true).execute();
  await db.updateTable('answers').set({ is_correct: true }).where('id', '=', answerId).where('question_id', '=', questionId).execute();
}

/** Names and schools of contestants, by id. */
export async function contestantsByIds(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, { fullname: string; school_name: string }>();
  const rows = await db
    .selectFrom('contestants')
    .innerJoin('schools', 'schools.id', 'contestants.school_id')
    .select(['contestants.id', 'contestants.fullname', 'schools.name as school_name'])
    .where('contestants.id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, { fullname: row.fullname, school_name: row.school_name }]));
}

export async function schoolNames(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db.selectFrom('schools').select(['id', 'name']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** A regrade as stored: the rule in force (active by default), with its dry run's counts. */
export type NewRegrade = Omit<Insertable<QuestionRegradeTable>, 'id' | 'active'>;

/** Stores the rule in force, the previous one (if any) kept as history. */
export async function insertRegrade(db: Db, regrade: NewRegrade): Promise<number> {
  await db
    .updateTable('question_regrades')
    .set({ active: false })
    .where('contest_id', '=', regrade.contest_id)
    .where('question_id', '=', regrade.question_id)
    .where('active', '=', true)
    .execute();
  const row = await db.insertInto('question_regrades').values(regrade).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The regrades of a contest, newest first (optionally of one book's questions), with the accepted answers' texts. */
export async function pageOfRegrades(db: Db, contestId: number, query: { page: number; per_page: number; book_id?: number; id?: number }) {
  let q = db
    .selectFrom('question_regrades as r')
    .innerJoin('questions', 'questions.id', 'r.question_id')
    .innerJoin('books', 'books.id', 'r.book_id')
    .leftJoin('users', 'users.id', 'r.actor_id')
    .where('r.contest_id', '=', contestId);
  if (query.book_id !== undefined) q = q.where('r.book_id', '=', query.book_id);
  if (query.id !== undefined) q = q.where('r.id', '=', query.id);
  const [rows, total] = await Promise.all([
    q
      .select([
        'r.id',
        'r.created_at',
        'r.question_id',
        'questions.value as question_value',
        'r.book_id',
        'books.name as book_name',
        'r.mode',
        'r.accepted_answer_ids',
        'r.reason',
        'r.actor_phone',
        sql<string>`coalesce(users.name, '')`.as('actor_name'),
        'r.active',
        'r.exams_affected',
        'r.exams_gained',
        'r.exams_lost',
        'r.exams_in_progress',
      ])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page)
      .execute(),
    q.select(sql<number>`count(*)::integer`.as('n')).executeTakeFirstOrThrow(),
  ]);
  const answerIds = [...new Set(rows.flatMap((row) => row.accepted_answer_ids))];
  const answers = answerIds.length ? await db.selectFrom('answers').select(['id', 'value']).where('id', 'in', answerIds).execute() : [];
  const answerText = new Map(answers.map((answer) => [answer.id, answer.value]));
  return {
    items: rows.map((row) => ({
      ...row,
      created_at: row.created_at.toISOString(),
      accepted_answers: row.accepted_answer_ids.map((id) => answerText.get(id) ?? `#${id}`),
    })),
    total: Number(total.n),
    page: query.page,
    per_page: query.per_page,
  };
}
