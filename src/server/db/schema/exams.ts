// Seasons and exam papers: the contest, the exams (0003_exams.sql), practice rounds
// (0017_practice.sql) and extra attempts (0013_exam_days.sql).
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { DefaultTimestamp, Json, NullableTimestamp, Timestamp } from './columns';
import type { UnitLevel } from '../../../shared/unit-level';

export interface ContestTable {
  id: Generated<number>;
  name: string;
  exam_starts_at: Timestamp;
  exam_ends_at: Timestamp;
  results_at: Timestamp;
  // 0006_contest_dates.sql: the reading period before the exam and the prize ceremony.
  // Left out on insert: derived from the exam window by the trigger.
  reading_starts_at: DefaultTimestamp;
  reading_ends_at: DefaultTimestamp;
  ceremony_starts_at: DefaultTimestamp;
  ceremony_ends_at: DefaultTimestamp;
  exam_duration_seconds: Generated<number>;
  questions_per_exam: Generated<number>;
  attempts_per_contestant: Generated<number>;
  created_at: DefaultTimestamp;
  /** 0012_retention.sql: months after results_at before personal data is removed. */
  retention_months: Generated<number>;
  /** 0033_seasons.sql: the one season the site runs (partial unique index). */
  is_current: Generated<boolean>;
  /** 0043_result_changes.sql: how many changes that can move a prize were made (core/ranking/changes.ts). */
  result_changes: Generated<number>;
  /** 0044_review_correct_answers.sql: when the result review shows the correct answers. */
  review_correct_answers: Generated<'after_submit' | 'after_exam_window'>;
  /** 0045_unit_level.sql: the level under the province this season names (shared/unit-level.ts). */
  unit_level: Generated<UnitLevel>;
}
/** A question as drawn into one exam: answers in this exam's order, no correct flags. */
export interface ExamQuestion { id: number; value: string; answers: { id: number; value: string }[] }
/** question id (as a string key) -> answer id */
export type AnswerMap = Record<string, number>;
/**
 * The columns an exam paper has, a real one (exams) or a practice round's (practice_exams): the
 * questions drawn, their key, the answers saved and the paper's times.
 */
interface PaperColumns {
  id: Generated<number>;
  slug: string;
  contestant_id: number;
  status: Generated<1 | 2>;
  start_time: Timestamp;
  end_time: Timestamp;
  questions: Json<ExamQuestion[]>;
  answer_key: Json<AnswerMap>;
  answers: ColumnType<AnswerMap, string | undefined, string>;
  prediction: number | null;
  save_seq: ColumnType<number, number | undefined, number>;
  saved_at: NullableTimestamp;
  submitted_at: NullableTimestamp;
  correct_count: number | null;
  duration_seconds: number | null;
  created_at: DefaultTimestamp;
  /** 0018_exam_writer.sql: the handle of the screen that loaded the exam last (the only one that writes); null before the first load. */
  writer: ColumnType<string | null, never, string>;
}

export interface ExamTable extends PaperColumns {
  contest_id: number;
  book_id: number;
  attempt: number;
  points: number | null;
  /** 0003_exams.sql: (question, answer) pairs as question_id * 2^32 + answer_id, set by a trigger; SQL only. */
  answer_options: ColumnType<string[], never, never>;
  /** 0005_exam_owner.sql: the contestant's owner (the save checks the session against it); filled from contestants when left out. */
  user_id: ColumnType<number, number | undefined, never>;
  /** 0013_exam_days.sql: minutes the organiser added to end_time (0..20 in total). */
  extension_minutes: ColumnType<number, number | undefined, number>;
  /** 0013_exam_days.sql: the contestant's own id on a 4th attempt (its extra_attempts grant); null otherwise. */
  extra_attempt_of: ColumnType<number | null, number | null | undefined, never>;
  /** 0040_answer_times.sql: "<question>:<answer>" -> Unix time (s) of the first save with it, "s" -> session of the last save; written by the autosave only. */
  answer_times: ColumnType<Record<string, number>, never, never>;
}

/** practice round (0017_practice.sql): a paper of practice questions, counting for nothing. */
export interface PracticeExamTable extends PaperColumns {
  user_id: number;
}
export interface ExtraAttemptTable {
  contestant_id: number;
  contest_id: number;
  reason: string;
  granted_by: number | null;
  granted_at: DefaultTimestamp;
}
export type Contest = Selectable<ContestTable>;
export type Exam = Selectable<ExamTable>;
