// The back office (0009_back_office.sql and later): the audit log, exam-day monitoring
// (0013_exam_days.sql), regrades (0014_regrade.sql), integrity screening (0041) and question
// quality (0042).
import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp, NullableTimestamp, Timestamp } from './columns';

export interface AuditLogTable {
  id: Generated<string>;
  at: DefaultTimestamp;
  actor_id: number | null;
  actor_phone: string;
  kind: string;
  summary: string;
  details: ColumnType<unknown, string | undefined, never>;
}
export interface DashboardSnapshotTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  computed_at: Timestamp;
  data: ColumnType<unknown, string, string>;
}
export interface ProcessCounterTable {
  process_id: string;
  started_at: Timestamp;
  updated_at: Timestamp;
  counters: ColumnType<unknown, string, string>;
  baseline_at: Timestamp;
  baseline: ColumnType<unknown, string, string>;
}
export type RegradeMode = 'new_key' | 'accept_both' | 'everyone';
export interface QuestionRegradeTable {
  id: Generated<number>;
  contest_id: number;
  question_id: number;
  book_id: number;
  mode: RegradeMode;
  accepted_answer_ids: number[];
  previous_key_answer_id: number | null;
  reason: string;
  actor_id: number | null;
  actor_phone: string;
  created_at: Timestamp;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  exams_affected: number;
  exams_gained: number;
  exams_lost: number;
  exams_in_progress: number;
}
export interface IntegrityRunTable {
  contest_id: number;
  family_rate: number;
  exams: number;
  pairs: ColumnType<string, number, number>;
  tests: ColumnType<string, number, number>;
  threshold: number;
  seconds: number;
  ran_by: number | null;
  ran_at: Timestamp;
}
export interface IntegrityFlagTable {
  id: Generated<number>;
  contest_id: number;
  kind: 'similarity' | 'speed' | 'lockstep';
  exam_id: number;
  other_exam_id: number | null;
  contestant_id: number;
  other_contestant_id: number | null;
  strength: number;
  evidence: ColumnType<Record<string, unknown>, string, string>;
  contact: ColumnType<string[], string[] | undefined, string[]>;
  status: ColumnType<'open' | 'dismissed' | 'withheld', 'open' | 'dismissed' | 'withheld' | undefined, 'open' | 'dismissed' | 'withheld'>;
  reason: string | null;
  decided_by: number | null;
  decided_at: NullableTimestamp;
  found_at: Timestamp;
}
export interface PrizeHoldTable {
  contest_id: number;
  contestant_id: number;
  flag_id: number | null;
  reason: string;
  held_by: number | null;
  held_at: Timestamp;
}
export interface QuestionQualityCountsTable {
  book_id: number;
  exams: number;
  computed_at: Timestamp;
  /** [[question_id, rest, answer_id | null, right, count], ...] (0042_question_quality_counts.sql). */
  cells: ColumnType<[number, number, number | null, boolean, number][], string, string>;
}
