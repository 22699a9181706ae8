// Results (0004_results.sql): prize tiers and settings, the computed results, their tasks and tie
// decisions (0015_results_review.sql), withdrawn prizes (0024) and certificates.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './columns';

export type PrizeTierKind = 'individual' | 'school' | 'school_pupils' | 'teacher';
export interface PrizeTierTable {
  id: Generated<number>;
  contest_id: number;
  kind: PrizeTierKind;
  code: string;
  name: string;
  position: number;
  winners: number;
  amount: number;
}
export interface ResultSettingsTable {
  contest_id: number;
  class_min_participants: Generated<number>;
  school_pupils_prized_schools_only: Generated<boolean>;
}
export interface ResultRunTable {
  contest_id: number;
  computed_at: Timestamp;
  exam_papers: number;
  participants: number;
  forced: Generated<boolean>;
  ties: ColumnType<unknown, string | undefined, string>;
  // 0011_results_publish.sql
  published_at: NullableTimestamp;
  published_by: number | null;
  // 0016_certificate_rendering.sql
  certificates_sync_of: NullableTimestamp;
  certificates_sync_cursor: Generated<number>;
  certificates_synced_at: NullableTimestamp;
  // 0043_result_changes.sql: the contest's result_changes when the computation began reading.
  result_changes_seen: Generated<number>;
}
/** 0043_result_changes.sql: the audit entry of each change that can move a prize, numbered per contest. */
export interface ResultChangeTable {
  contest_id: number;
  seq: number;
  audit_id: string;
}
export interface IndividualResultTable {
  contest_id: number;
  contestant_id: number;
  exam_id: number;
  school_id: number;
  class_name: string;
  points: number;
  duration_seconds: number;
  submitted_at: Timestamp;
  prediction: number | null;
  prediction_distance: number | null;
  rank: number;
  tied: boolean;
  school_rank: number;
  school_tied: boolean;
  prize_code: string | null;
  prize_name: string | null;
  prize_amount: number | null;
  school_top: Generated<boolean>;
  school_top_amount: number | null;
  /** 0041_integrity_flags.sql: the prize is withheld after a review (prize_holds): ranked last, a neutral message for the family. */
  held: Generated<boolean>;
}
export interface SchoolResultTable {
  contest_id: number;
  school_id: number;
  participants: number;
  pupil_count: number;
  score: number;
  rank: number;
  tied: boolean;
  prize_code: string | null;
  prize_name: string | null;
  prize_amount: number | null;
}
export interface ClassResultTable {
  contest_id: number;
  school_id: number;
  class_name: string;
  participants: number;
  avg_points: number;
  avg_duration_seconds: number;
  rank: number | null;
  tied: Generated<boolean>;
  prize_code: string | null;
  prize_name: string | null;
  prize_amount: number | null;
  /** 0033_seasons.sql: the prized class's teacher, written when its season stops being current. */
  teacher_name: ColumnType<string | null, string | null | undefined, string | null>;
}
export type ResultTaskStatus = 'running' | 'done' | 'failed';
export type ResultTaskStage = 'starting' | 'finalising' | 'loading' | 'ranking' | 'storing' | 'done';
export interface ResultTaskTable {
  id: Generated<number>;
  contest_id: number;
  kind: 'compute';
  status: ColumnType<ResultTaskStatus, ResultTaskStatus | undefined, ResultTaskStatus>;
  forced: Generated<boolean>;
  stage: ColumnType<ResultTaskStage, ResultTaskStage | undefined, ResultTaskStage>;
  done: Generated<number>;
  total: Generated<number>;
  summary: ColumnType<unknown | null, string | null | undefined, string | null>;
  error: ColumnType<string | null, string | null | undefined, string | null>;
  started_by: number | null;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  heartbeat_at: Timestamp;
}
export interface TieDecisionTable {
  id: Generated<number>;
  contest_id: number;
  scope: 'individual' | 'school_pupils' | 'schools' | 'classes';
  school_id: number | null;
  group_key: string;
  member_ids: Json<(number | string)[]>;
  decision: 'share' | 'order';
  ordered_ids: ColumnType<(number | string)[] | null, string | null, string | null>;
  reason: string;
  decided_by: number | null;
  decided_at: Timestamp;
}
export interface PrizeWithdrawalTable {
  contest_id: number;
  contestant_id: number;
  kind: 'individual' | 'school_pupils';
  prize_name: string;
  amount: number;
  reason: string;
  withdrawn_by: number | null;
  withdrawn_at: Timestamp;
}
export type CertificateKind = 'participation' | 'prize' | 'top30' | 'school';
export interface CertificateTable {
  id: Generated<number>;
  code: string;
  contest_id: number;
  kind: CertificateKind;
  contestant_id: number | null;
  school_id: number | null;
  content: Json<unknown>;
  content_hash: string;
  /** Buffer from pg, Uint8Array from PGlite. */
  pdf: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  png: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  files_hash: string | null;
  issued_at: Timestamp;
  updated_at: Timestamp;
  // 0016_certificate_rendering.sql
  png_hash: string | null;
  rendered_at: NullableTimestamp;
  render_failures: Generated<number>;
  render_error: string | null;
  render_after: NullableTimestamp;
  revoked_at: NullableTimestamp;
  revoked_by: number | null;
  revoked_reason: string | null;
}
/** 0023_erased_certificates.sql: a certificate's printed facts without its holder, after erasure. */
export interface ErasedCertificateTable {
  code: string;
  kind: CertificateKind;
  title: string;
  contest: string;
  date: string;
  revoked_at: NullableTimestamp;
  erased_at: Timestamp;
}
export type ResultRun = Selectable<ResultRunTable>;
export type ResultTask = Selectable<ResultTaskTable>;

/** 0048_certificate_printing.sql: the organiser's signature and seal printed on every certificate. */
export interface CertificateImageTable {
  kind: 'signature' | 'seal';
  sha256: string;
  width: number;
  height: number;
  file_name: string;
  uploaded_at: Timestamp;
  uploaded_by: number | null;
}

export type CertificateBundleStatus = 'queued' | 'building' | 'ready' | 'failed';
/** 0048_certificate_printing.sql: a school's (or a class's) certificates in one PDF, built in the background. */
export interface CertificateBundleTable {
  id: Generated<number>;
  contest_id: number;
  school_id: number;
  class_name: string | null;
  requested_by: number | null;
  status: ColumnType<CertificateBundleStatus, CertificateBundleStatus | undefined, CertificateBundleStatus>;
  total: Generated<number>;
  done: Generated<number>;
  attempts: Generated<number>;
  claim: string | null;
  heartbeat_at: NullableTimestamp;
  error: string | null;
  /** Buffer from pg, Uint8Array from PGlite. */
  pdf: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  byte_size: number | null;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}
