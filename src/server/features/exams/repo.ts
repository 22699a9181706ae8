// SQL of the exam feature. The two hot paths (saving answers, re-syncing the time) are single
// statements that also check the caller's session, so a save costs one round trip; they are
// named prepared statements (HotStatement, see db/client.ts), planned once per connection.
import { sql, type RawBuilder } from 'kysely';
import { hotQuery, type Db, type HotStatement } from '../../db/client';
import type { AnswerMap, ExamQuestion, Role } from '../../db/schema';
import { finaliseSet, openStatement, PAPER_COLUMNS, type OpenedRow } from '../../core/paper/repo';
import type { DrawnQuestion } from '../../core/paper/rules';
import type { PaperKey } from '../../core/paper/session';
import { MAX_POINTS, POINTS_PER_CORRECT_ANSWER } from '../../../shared/rules';
import { INT4_MAX } from '../../../shared/schemas/common';

/** Attempts used so far and the exam in progress (if any) of one contestant. */
export async function examsOfContestant(db: Db, contestantId: number) {
  return db
    .selectFrom('exams')
    .select(['id', 'slug', 'status', 'attempt', 'book_id', 'end_time'])
    .where('contestant_id', '=', contestantId)
    .orderBy('attempt')
    .execute();
}

/** What a start needs to know, read in one statement (see START_CONTEXT); undefined without a valid session. */
export interface StartContext {
  user_id: number;
  role: Role;
  /** Null when the contestant is not the caller's. */
  contestant_id: number | null;
  /** Null when the book is not of the contestant's class group. */
  book_id: number | null;
  /** The current contest (null when there is none). */
  contest_id: number | null;
  /** The contestant's season (0033_seasons.sql): only the current season's contestants take exams. */
  contestant_season_id: number | null;
  /** Carried over into this season, class not answered yet. */
  class_pending: boolean | null;
  exam_starts_at: Date | null;
  exam_ends_at: Date | null;
  exam_duration_seconds: number | null;
  attempts_per_contestant: number | null;
  questions_per_exam: number | null;
  /** The contestant's exams in attempt order. */
  exams: { slug: string; status: 1 | 2; book_id: number }[] | null;
  extra_attempt: boolean | null;
  /** The version of the question banks (0022_question_bank_version.sql), for bank.ts. */
  bank_version: number;
}

// The start of an exam (POST /api/start-exam) reads everything it checks in this one statement, a
// named prepared statement (db/client.ts), then inserts the exam with INSERT_EXAM: two round trips
// instead of ten (a session query, BEGIN, six reads, the insert, COMMIT); the questions come from
// the process's copy of the bank (bank.ts). The session is checked here, as in the hot paths below
// (users.locked_at too, as auth/guard.ts findUserByToken does); the current contest is the one
// flagged current (core/contest.ts getCurrentContest). No row is locked: two starts of one contestant at
// once both pass these reads, and the unique indexes of exams (one exam in progress, one row per
// attempt) let only one insert through (service.ts startExam).
const START_CONTEXT: HotStatement = {
  name: 'exam_start_context',
  text: `
  SELECT u.id AS user_id, u.role, c.id AS contestant_id, c.contest_id AS contestant_season_id, c.class_pending, b.id AS book_id,
         k.id AS contest_id, k.exam_starts_at, k.exam_ends_at, k.exam_duration_seconds, k.attempts_per_contestant, k.questions_per_exam,
         (SELECT json_agg(json_build_object('slug', e.slug, 'status', e.status, 'book_id', e.book_id) ORDER BY e.attempt)
          FROM exams e WHERE e.contestant_id = c.id) AS exams,
         EXISTS (SELECT 1 FROM extra_attempts x WHERE x.contestant_id = c.id) AS extra_attempt,
         (SELECT version FROM question_bank_version) AS bank_version
  FROM sessions s
  JOIN users u ON u.id = s.user_id AND u.locked_at IS NULL
  LEFT JOIN contests k ON k.is_current
  LEFT JOIN contestants c ON c.id = $2::integer AND c.user_id = u.id
  LEFT JOIN books b ON b.id = $3::integer AND b.class_group_id = c.class_group_id AND b.contest_id = k.id
  WHERE s.token_hash = $1::text AND s.revoked_at IS NULL AND s.expires_at > $4::timestamptz`,
};

export async function startContext(db: Db, tokenHash: string, contestantId: number, bookId: number, now: Date): Promise<StartContext | undefined> {
  const { rows } = await hotQuery<StartContext>(db, START_CONTEXT, [tokenHash, contestantId, bookId, now.toISOString()]);
  return rows[0];
}

/** The questions an exam of the book can draw (practice ones excluded), with their answers, and the banks' version they are of (one snapshot). */
export async function readBank(db: Db, bookId: number): Promise<{ version: number; questions: DrawnQuestion[] }> {
  const { rows } = await sql<{ version: number; questions: DrawnQuestion[] | null }>`
    SELECT v.version,
           (SELECT json_agg(json_build_object('id', q.id, 'value', q.value, 'answers', q.answers) ORDER BY q.id)
            FROM (SELECT q.id, q.value,
                         (SELECT json_agg(json_build_object('id', a.id, 'value', a.value, 'is_correct', a.is_correct) ORDER BY a.id)
                          FROM answers a WHERE a.question_id = q.id) AS answers
                  FROM questions q WHERE q.book_id = ${bookId} AND NOT q.is_practice) q
            WHERE q.answers IS NOT NULL) AS questions
    FROM question_bank_version v`.execute(db);
  return { version: Number(rows[0]!.version), questions: rows[0]!.questions ?? [] };
}

export interface NewExam {
  slug: string;
  /** The contestant's owner (0005_exam_owner.sql). */
  user_id: number;
  contest_id: number;
  contestant_id: number;
  book_id: number;
  attempt: number;
  start_time: Date;
  end_time: Date;
  questions: ExamQuestion[];
  answer_key: AnswerMap;
  /** The contestant's id on a 4th attempt, which only an extra attempt allows (0013_exam_days.sql). */
  extra_attempt_of: number | null;
}

// answer_options (0003_exams.sql) is given with the row, from the same questions: the trigger that
// derives it runs on an insert only when it is not given (0021_exam_start.sql).
const INSERT_EXAM: HotStatement = {
  name: 'exam_insert',
  text: `
  INSERT INTO exams (slug, user_id, contest_id, contestant_id, book_id, attempt, extra_attempt_of, start_time, end_time, questions, answer_key, answer_options)
  VALUES ($1::text, $2::integer, $3::integer, $4::integer, $5::integer, $6::smallint, $7::integer, $8::timestamptz, $9::timestamptz, $10::jsonb, $11::jsonb, $12::bigint[])
  RETURNING id, slug, start_time, end_time`,
};

export async function insertExam(db: Db, exam: NewExam) {
  const options = exam.questions.flatMap((question) => question.answers.map((answer) => pairCode(question.id, answer.id)));
  const { rows } = await hotQuery<{ id: number; slug: string; start_time: Date; end_time: Date }>(db, INSERT_EXAM, [
    exam.slug,
    exam.user_id,
    exam.contest_id,
    exam.contestant_id,
    exam.book_id,
    exam.attempt,
    exam.extra_attempt_of,
    exam.start_time.toISOString(),
    exam.end_time.toISOString(),
    JSON.stringify(exam.questions),
    JSON.stringify(exam.answer_key),
    `{${options.join(',')}}`,
  ]);
  return rows[0]!;
}

/** An exam with its contestant's name and its book, for its owner only (core/paper: PaperKind.findOwned). */
/** The review setting and the exam window's close of the season an exam belongs to (core/review-keys.ts). */
export const reviewSettingsOfExam = (db: Db, examId: number) =>
  db
    .selectFrom('exams as e')
    .innerJoin('contests as c', 'c.id', 'e.contest_id')
    .select(['c.review_correct_answers', 'c.exam_ends_at'])
    .where('e.id', '=', examId)
    .executeTakeFirstOrThrow();

export const findOwnedExam = (db: Db, key: PaperKey, userId: number, lock = false) => {
  let query = db
    .selectFrom('exams as p')
    .innerJoin('contestants as c', 'c.id', 'p.contestant_id')
    .innerJoin('books as b', 'b.id', 'p.book_id')
    .select([...PAPER_COLUMNS, 'p.attempt', 'p.book_id', 'p.points', 'c.fullname', 'b.name as book_name'])
    // The owner rule of every exam query, the hot SQL's included (0008_contestant_owner.sql).
    .where('p.user_id', '=', userId)
    .where('p.slug', '=', key.slug);
  if (key.id !== undefined) query = query.where('p.id', '=', key.id);
  return (lock ? query.forUpdate('p') : query).executeTakeFirst();
};
export type OwnedExam = NonNullable<Awaited<ReturnType<typeof findOwnedExam>>>;

/**
 * GET /api/examing in one statement (core/paper/repo.ts openStatement): $6 the book, $7 the
 * contestant the screen names. The book is compared with IS NOT DISTINCT FROM (the same for a
 * book_id, never null) so that the plan never reads exams_book_idx, thousands of rows per book on
 * exam day, instead of the slug's index; by the contestant it would be at most four rows
 * (save-plan.api.test.ts).
 */
export const OPEN_EXAM = openStatement('exam_open', 'exams', {
  from: 'books b',
  where: 'p.book_id IS NOT DISTINCT FROM $6::integer AND b.id = p.book_id AND p.contestant_id = $7::integer',
  columns: 'p.attempt, p.book_id, b.name AS book_name',
});
export type OpenedExam = OpenedRow & { attempt: number; book_id: number; book_name: string };

export const findAnswerKey = async (db: Db, examId: number): Promise<AnswerMap> =>
  (await db.selectFrom('exams').select('answer_key').where('id', '=', examId).executeTakeFirstOrThrow()).answer_key;

export interface SaveAnswersInput {
  examId: number;
  slug: string;
  tokenHash: string;
  /** When the save arrived: its saved_at, and the moment the session must still be valid. */
  now: Date;
  /** Saves are accepted while end_time >= this (now minus the grace period). */
  endTimeAtLeast: Date;
  /** The answers as a JSON object {"<question_id>": answer_id}, merged over the stored answers. */
  answersJson: string;
  /** The same answers as a JSON array of question_id * 2^32 + answer_id (see answerPairs). */
  pairsJson: string;
  prediction: number | null;
  seq: number | null;
  /** The screen's writer handle (0018_exam_writer.sql): when given, the save applies only if it is the exam's current one. */
  writer?: string;
  /** {"<question_id>:<answer_id>": Unix time of this save (s)} for every answer sent (answerPairs): merged under the stored times (0040_answer_times.sql). */
  marksJson?: string;
}

// The autosave: one fixed statement that writes several saves (save-batcher.ts sends every save
// that arrives while earlier ones are being written together, so one commit): $1 is a JSON array
// of the saves, $2 their exam ids. A named prepared statement (db/client.ts), planned once per
// connection. For each save it reads the exam row by primary key and the session by its token
// hash, nothing else: exams.user_id (0005_exam_owner.sql) is the owner, kept equal to the
// contestant's by a foreign key. A save whose checks fail updates nothing and returns no row; the
// service then finds out why.
// Two choices keep the plan on those two indexes whatever the statistics say (on exam day the
// exams table grows by thousands of rows a minute, faster than ANALYZE follows):
// - "e.id = ANY($2)": the exams are found by primary key from the list of ids. Joined only to
//   jsonb_to_recordset, which the planner counts as 100 rows, scanning a few thousand sessions
//   looked cheaper than probing their index;
// - "status <> 1" (not finished) rather than "status = 2": the same rows (status is 1 or 2), but
//   it does not match the partial indexes "WHERE status = 2", which, with statistics taken before
//   the exams started, look empty and cheaper than the primary key, and then are read whole.
// save-plan.api.test.ts checks the plan in that situation.
// "w" is the screen's writer handle (0018_exam_writer.sql): a save that names one applies only if
// it is still the exam's (no screen loaded the exam since); a save without one applies as before.
// "m" are the answers' times (0040_answer_times.sql, decision 027): in "v.m || e.answer_times" the
// stored keys win, so each (question, answer) keeps the time it was first saved; "s" is the session.
// Two jsonb concatenations in the same UPDATE: no read, no subquery.
export const SAVE_ANSWERS_SQL = `
  UPDATE exams e
  SET answers = e.answers || v.a,
      prediction = COALESCE(v.r, e.prediction),
      save_seq = COALESCE(v.q, e.save_seq),
      saved_at = v.at,
      answer_times = (v.m || e.answer_times) || jsonb_build_object('s', s.id)
  FROM jsonb_to_recordset($1::jsonb) AS v(e integer, s text, t text, a jsonb, p bigint[], r integer, q bigint, at timestamptz, d timestamptz, w text, m jsonb),
       sessions s
  WHERE e.id = ANY($2::integer[])
    AND e.id = v.e
    AND e.slug = v.s
    AND e.status <> 1
    AND e.end_time >= v.d
    AND (v.q IS NULL OR e.save_seq <= v.q)
    AND e.answer_options @> v.p
    AND (v.w IS NULL OR e.writer = v.w)
    AND s.token_hash = v.t
    AND s.user_id = e.user_id
    AND s.revoked_at IS NULL
    AND s.expires_at > v.at
  RETURNING e.id, e.save_seq`;
const SAVE_ANSWERS: HotStatement = { name: 'exam_save_answers', text: SAVE_ANSWERS_SQL };

/** The times of many exams, each for the owner of its session only (the re-syncs of read-batcher.ts). */
const EXAM_TIMES: HotStatement = {
  name: 'exam_times_batch',
  text: `
  SELECT v.k::integer AS k, e.start_time, e.end_time, e.status
  FROM unnest($1::integer[], $2::text[]) WITH ORDINALITY AS v(exam_id, token_hash, k)
  JOIN exams e ON e.id = v.exam_id
  JOIN sessions s ON s.user_id = e.user_id AND s.token_hash = v.token_hash
  WHERE s.revoked_at IS NULL
    AND s.expires_at > $3::timestamptz`,
};

const BILLION = 1_000_000_000;

/**
 * question_id * 2^32 + answer_id in decimal, for ids up to int4. The value needs up to 63 bits, more
 * than a double holds exactly, so it is written from two exact parts below 10^9 * 2^31:
 * 2^32 = 4 * 10^9 + 294967296, hence the value = (4q + carry) * 10^9 + rest.
 */
function pairCode(questionId: number, answerId: number): string {
  const low = questionId * 294_967_296 + answerId; // < 2^31 * 2^29 + 2^31 < 2^61: not exact beyond 2^53
  if (low < Number.MAX_SAFE_INTEGER) {
    const rest = low % BILLION;
    const high = questionId * 4 + (low - rest) / BILLION;
    return high === 0 ? String(rest) : String(high) + String(rest).padStart(9, '0');
  }
  return String(BigInt(questionId) * 4294967296n + BigInt(answerId));
}

/**
 * The answers of a save in the two forms its statement takes, built in one pass: the jsonb object
 * {"<question_id>": answer_id} to merge, and the JSON array of the pairs in the encoding of
 * exams.answer_options (0003_exams.sql), question_id * 2^32 + answer_id. `duplicate` when a
 * question appears twice; `foreign` when an id is beyond int4 (the type of every id in the
 * database), so that the pair belongs to no exam. Given the save's time, also the answers' marks
 * {"<question_id>:<answer_id>": atSeconds} (0040_answer_times.sql).
 */
export function answerPairs(answers: readonly { question_id: number; answer_id: number }[], atSeconds?: number) {
  let json = '{';
  let pairs = '[';
  let marks = '{';
  const seen = new Set<number>();
  for (const { question_id: questionId, answer_id: answerId } of answers) {
    if (seen.has(questionId)) return { problem: 'duplicate' as const };
    seen.add(questionId);
    if (questionId > INT4_MAX || answerId > INT4_MAX) return { problem: 'foreign' as const };
    const separator = seen.size === 1 ? '' : ',';
    json += `${separator}"${questionId}":${answerId}`;
    pairs += separator + pairCode(questionId, answerId);
    if (atSeconds !== undefined) marks += `${separator}"${questionId}:${answerId}":${atSeconds}`;
  }
  return { json: json + '}', pairs: pairs + ']', marks: atSeconds === undefined ? undefined : marks + '}' };
}

/**
 * Writes saves of different exams in one statement (at most one save per exam: several rows for
 * one exam would update it once, with any of them). Each save checks the session, the owner, the
 * status, the deadline, the sequence number and the question/answer ids, and merges its answers.
 * Returns the new save_seq of each exam whose save applied; a save that is absent failed a check.
 */
export async function saveAnswersBatch(db: Db, saves: readonly SaveAnswersInput[]): Promise<Map<number, number>> {
  let json = '[';
  for (const save of saves) {
    if (json.length > 1) json += ',';
    // Only the slug and the writer come as the client wrote them; the other values are numbers, hashes and JSON built by answerPairs.
    const writer = save.writer === undefined ? 'null' : JSON.stringify(save.writer);
    json += `{"e":${save.examId},"s":${JSON.stringify(save.slug)},"t":"${save.tokenHash}","a":${save.answersJson},"p":${save.pairsJson},"r":${save.prediction},"q":${save.seq},"at":"${save.now.toISOString()}","d":"${save.endTimeAtLeast.toISOString()}","w":${writer},"m":${save.marksJson ?? '{}'}}`;
  }
  const examIds = saves.map((save) => save.examId);
  const { rows } = await hotQuery<{ id: number; save_seq: number }>(db, SAVE_ANSWERS, [json + ']', examIds]);
  return new Map(rows.map((row) => [row.id, row.save_seq]));
}

export interface ExamTimes {
  start_time: Date;
  end_time: Date;
  status: 1 | 2;
}

/** The times of each exam of `keys` whose session is valid at `now` and owns it, by the key's index (one statement). */
export async function findExamTimesBatch(db: Db, keys: readonly { examId: number; tokenHash: string }[], now: Date) {
  const { rows } = await hotQuery<ExamTimes & { k: number }>(db, EXAM_TIMES, [keys.map((key) => key.examId), keys.map((key) => key.tokenHash), now.toISOString()]);
  return new Map(rows.map(({ k, ...times }) => [k - 1, times]));
}

/**
 * The rules in force of regraded questions (0014_regrade.sql), as a relation of (contest_id,
 * question_id, mode, accepted_answer_ids). The dry run of a regrade passes another one: these with
 * the proposed rule in place of the question's.
 */
export const regradeRulesInForce = sql`(SELECT contest_id, question_id, mode, accepted_answer_ids FROM question_regrades WHERE active)`;

/**
 * The correct answers of the exam row `exams`: each question of its key snapshot counts by the
 * question's regrade rule when there is one (shared/regrade-rules.ts, countsRight), else when the
 * stored answer equals the key. Without regrades this is the spec's count of answers equal to the key.
 */
export const correctCountSql = (rules = regradeRulesInForce) => sql<number>`(
  SELECT count(*)::integer
  FROM jsonb_each(exams.answer_key) AS k(question_id, key_id)
  LEFT JOIN ${rules} AS r ON r.contest_id = exams.contest_id AND r.question_id = k.question_id::integer
  WHERE CASE WHEN r.mode IS NULL THEN exams.answers -> k.question_id = k.key_id
             WHEN r.mode = 'everyone' THEN true
             ELSE (exams.answers ->> k.question_id)::integer = ANY (r.accepted_answer_ids) END)`;

/** Points from a correct count: 5 a question, at most 100 (shared/regrade-rules.ts, pointsFor). */
export const pointsSql = (correctCount: RawBuilder<number>) =>
  sql<number>`LEAST(${MAX_POINTS}::integer, ${POINTS_PER_CORRECT_ANSWER}::integer * ${correctCount})`;

/** The exam's score for core/paper's finaliseSet: correctCountSql (regrade rules included) and pointsSql. */
export const examScore = sql`correct_count = ${correctCountSql()}, points = ${pointsSql(correctCountSql())}`;

/** The regrade rules in force for the questions of one exam (its contest's), by question id. */
export async function regradeRulesOfExam(db: Db, examId: number) {
  const rows = await db
    .selectFrom('question_regrades as r')
    .innerJoin('exams as e', 'e.contest_id', 'r.contest_id')
    .select(['r.question_id', 'r.mode', 'r.accepted_answer_ids'])
    .where('e.id', '=', examId)
    .where('r.active', '=', true)
    .where(sql<boolean>`e.answer_key ? r.question_id::text`)
    .execute();
  return new Map(rows.map((row) => [row.question_id, { mode: row.mode, acceptedAnswerIds: row.accepted_answer_ids }]));
}

/**
 * Finalises up to `limit` exams in progress whose end_time is before `cutoff` (their completion
 * time is their deadline, since end_time < cutoff <= now). SKIP LOCKED: two
 * processes sweeping at once take different rows, and a row being saved is left for next time.
 */
export async function finaliseOverdue(db: Db, now: Date, cutoff: Date, limit: number): Promise<number> {
  const result = await sql`
    UPDATE exams SET ${finaliseSet(now, examScore)}
    WHERE id IN (
      SELECT id FROM exams WHERE status = 2 AND end_time < ${cutoff}
      ORDER BY end_time LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ) AND status = 2`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
