// SQL of a paper, parameterised by its table: exams (features/exams) or practice_exams
// (features/practice). Both tables have the paper's columns under the same names (0003_exams.sql,
// 0017_practice.sql); what differs (the score, the exam's book and attempt, the round's class
// group) is given by the feature. The exam's hot statements (the start, the autosave, the time
// re-sync) stay in features/exams/repo.ts as they are.
import { sql, type RawBuilder } from 'kysely';
import { hotQuery, type Db, type HotStatement } from '../../db/client';
import type { AnswerMap, ExamQuestion } from '../../db/schema';
import type { PaperState } from './rules';

export type PaperTable = 'exams' | 'practice_exams';

/** The contestant if it belongs to `userId`; `lock` serialises the practice round's starts of one contestant. */
export async function findOwnedContestant(db: Db, contestantId: number, userId: number, lock = false) {
  let query = db
    .selectFrom('contestants')
    .select(['id', 'fullname', 'class_group_id', 'contest_id', 'class_pending'])
    .where('id', '=', contestantId)
    .where('user_id', '=', userId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The columns of a paper every flow reads, under the alias p (Kysely: selectFrom('<table> as p')). */
export const PAPER_COLUMNS = [
  'p.id',
  'p.slug',
  'p.status',
  'p.contestant_id',
  'p.start_time',
  'p.end_time',
  'p.questions',
  'p.answers',
  'p.prediction',
  'p.save_seq',
  'p.writer',
  'p.submitted_at',
  'p.correct_count',
  'p.duration_seconds',
] as const;

/** A paper row as PAPER_COLUMNS reads it, with its contestant's name. */
export interface PaperRow extends PaperState {
  id: number;
  slug: string;
  status: 1 | 2;
  contestant_id: number;
  start_time: Date;
  submitted_at: Date | null;
  correct_count: number | null;
  duration_seconds: number | null;
  fullname: string;
}

/** Merges the answers of a save or a submit into a paper in progress (the row is locked by the caller); its new save_seq. */
export async function mergeAnswers(db: Db, table: PaperTable, id: number, answers: AnswerMap, prediction: number | null, seq: number | null, now: Date) {
  const result = await sql<{ save_seq: number }>`
    UPDATE ${sql.table(table)}
    SET answers = answers || ${JSON.stringify(answers)}::jsonb,
        prediction = COALESCE(${prediction}::integer, prediction),
        save_seq = GREATEST(save_seq, COALESCE(${seq}::bigint, 0)),
        saved_at = ${now}
    WHERE id = ${id} AND status = 2
    RETURNING save_seq`.execute(db);
  return result.rows[0]?.save_seq;
}

/**
 * The scoring of a finished paper, in SQL so that a submit, a read after the deadline and the
 * exams' background sweep all score alike: `score` sets correct_count (and the exam's points);
 * the completion time is (submission capped at end_time) - start_time in whole seconds.
 */
export const finaliseSet = (now: Date, score: RawBuilder<unknown>) => sql`
  status = 1,
  submitted_at = LEAST(${now}::timestamptz, end_time),
  ${score},
  duration_seconds = GREATEST(0, floor(extract(epoch FROM LEAST(${now}::timestamptz, end_time) - start_time)))::integer`;

/** Finalises one paper in progress; false when it was already finished. */
export async function finalisePaper(db: Db, table: PaperTable, score: RawBuilder<unknown>, id: number, now: Date): Promise<boolean> {
  const result = await sql`UPDATE ${sql.table(table)} SET ${finaliseSet(now, score)} WHERE id = ${id} AND status = 2`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** What opening a paper on the exam screen returns (openStatement), with the recorded clips of its questions and answers by id (null when none). */
export type OpenedRow = Pick<PaperRow, 'id' | 'slug' | 'contestant_id' | 'start_time' | 'end_time' | 'questions' | 'answers' | 'prediction' | 'save_seq' | 'fullname'> & {
  question_clips: Record<string, string> | null;
  answer_clips: Record<string, string> | null;
};

/**
 * Opening a paper on the exam screen, in one named statement: the caller's session (a parent's,
 * not locked, as auth/guard.ts and assertCanTakeExams check), the paper if it is the caller's, in
 * progress and within its time and grace, made the paper's with the new writer handle (the
 * previous one stops being valid here, decision 010), read back with its contestant's name and the
 * clips of its questions and answers (looked up now, so a clip added later is heard too). No row
 * when any of that fails; the caller then finds out why off this path.
 * $1 token hash, $2 now, $3 end_time at least (now minus the grace), $4 the writer, $5 the slug;
 * `extra` adds the feature's joins, conditions (from $6) and columns.
 * As in the autosave (decision 005), "status <> 1" rather than "status = 2" keeps the plan on the
 * slug's index whatever the statistics say of the partial indexes "WHERE status = 2"; the clips are
 * read by index from the list of the paper's question ids, made once (an uncorrelated sub-select).
 */
export function openStatement(name: string, table: PaperTable, extra: { from?: string; where?: string; columns: string }): HotStatement {
  return {
    name,
    text: `
  WITH opened AS (
    UPDATE ${table} p SET writer = $4::text
    FROM sessions s, users u, contestants c${extra.from ? `, ${extra.from}` : ''}
    WHERE p.slug = $5::text
      AND p.status <> 1
      AND p.end_time >= $3::timestamptz
      AND s.token_hash = $1::text
      AND s.revoked_at IS NULL
      AND s.expires_at > $2::timestamptz
      AND p.user_id = s.user_id
      AND u.id = s.user_id
      AND u.locked_at IS NULL
      AND u.role = 'parent'
      AND c.id = p.contestant_id${extra.where ? `
      AND ${extra.where}` : ''}
    RETURNING p.id, p.slug, p.contestant_id, p.start_time, p.end_time, p.questions, p.answers, p.prediction, p.save_seq, c.fullname, ${extra.columns}
  ), question_ids AS (
    SELECT (x->>'id')::integer AS id FROM opened, jsonb_array_elements(opened.questions) AS x
  )
  SELECT opened.*,
    (SELECT json_object_agg(q.id, q.audio) FROM questions q WHERE q.id = ANY (ARRAY(SELECT id FROM question_ids)) AND q.audio IS NOT NULL) AS question_clips,
    (SELECT json_object_agg(a.id, a.audio) FROM answers a WHERE a.question_id = ANY (ARRAY(SELECT id FROM question_ids)) AND a.audio IS NOT NULL) AS answer_clips
  FROM opened`,
  };
}

export async function openPaper<Row extends OpenedRow>(
  db: Db,
  statement: HotStatement,
  open: { tokenHash: string; now: Date; endTimeAtLeast: Date; writer: string; slug: string },
  extraValues: unknown[] = [],
): Promise<Row | undefined> {
  const values = [open.tokenHash, open.now.toISOString(), open.endTimeAtLeast.toISOString(), open.writer, open.slug, ...extraValues];
  return (await hotQuery<Row>(db, statement, values)).rows[0];
}

/** The questions with their recorded clips (read aloud instead of the device's voice), from openStatement's maps. */
export function withClips(questions: ExamQuestion[], questionClips: Record<string, string> | null, answerClips: Record<string, string> | null) {
  if (!questionClips && !answerClips) return questions;
  return questions.map((question) => ({
    ...question,
    ...(questionClips?.[question.id] ? { audio: questionClips[question.id] } : {}),
    answers: question.answers.map((answer) => (answerClips?.[answer.id] ? { ...answer, audio: answerClips[answer.id] } : answer)),
  }));
}
