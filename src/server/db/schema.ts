// Kysely table types for the migrations in ./migrations. Keep in step with the SQL.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string, string>;

export interface DistrictTable { id: Generated<number>; name: string }
export interface SchoolTable {
  id: Generated<number>;
  district_id: number;
  name: string;
  address: Generated<string>;
  pupil_count: Generated<number>;
}
export interface ClassGroupTable { id: Generated<number>; name: string; grades: string; position: number }
export interface ClassRoomTable { id: Generated<number>; class_group_id: number; name: string; position: Generated<number> }
export interface BookTable {
  id: Generated<number>;
  class_group_id: number;
  name: string;
  author: Generated<string>;
  image: string;
  position: number;
  /** 0033_seasons.sql: the season; left out on insert, the current one (trigger). */
  contest_id: ColumnType<number, number | undefined, number>;
}
export interface QuestionTable {
  id: Generated<number>;
  book_id: number;
  value: string;
  audio: ColumnType<string | null, string | null | undefined, string | null>;
  /** 0017_practice.sql: a practice question is never drawn into a real exam. */
  is_practice: ColumnType<boolean, boolean | undefined, boolean>;
}
export interface AnswerTable {
  id: Generated<number>;
  question_id: number;
  value: string;
  is_correct: Generated<boolean>;
  audio: ColumnType<string | null, string | null | undefined, string | null>;
}

export type Role = 'parent' | 'school_admin' | 'organiser';
export interface UserTable {
  id: Generated<number>;
  phone: string;
  name: Generated<string>;
  password_hash: string;
  role: Generated<Role>;
  school_id: number | null;
  created_at: DefaultTimestamp;
  /** 0009_back_office.sql: a locked account cannot log in. */
  locked_at: NullableTimestamp;
  /** 0010_privacy.sql: the privacy notice version agreed to, when, and the owner's deletion. */
  privacy_version: ColumnType<string | null, string | null | undefined, string | null>;
  privacy_consented_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  /** 0012_retention.sql: the last login (a new session). */
  last_login_at: NullableTimestamp;
}
export interface SessionTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  /** Until then the session may set the password once without the current one (a link or an SMS code proved the phone; 0020). */
  password_reset_until: NullableTimestamp;
  /** Wrong current passwords given in a password change; too many end the session (0020). */
  wrong_password_tries: Generated<number>;
  /** The browser that logged in (its User-Agent, shortened) and its address (0025). */
  user_agent: string | null;
  ip: string | null;
}
export interface ContestantTable {
  id: Generated<number>;
  user_id: number;
  position: number;
  fullname: string;
  district_id: number;
  school_id: number;
  class_group_id: number;
  class_room_id: number | null;
  class_room_other: string | null;
  created_at: DefaultTimestamp;
  /** 0010_privacy.sql: the child's agreement confirmed by the parent; the removal of the name. */
  consent_version: ColumnType<string | null, string | null | undefined, string | null>;
  consented_at: NullableTimestamp;
  anonymised_at: NullableTimestamp;
  /** 0033_seasons.sql: the season (left out on insert: the current one), last season's row of the child, a class to ask again. */
  contest_id: ColumnType<number, number | undefined, number>;
  carried_from_id: ColumnType<number | null, number | null | undefined, number | null>;
  class_pending: Generated<boolean>;
}
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
}

/** A question as drawn into one exam: answers in this exam's order, no correct flags. */
export interface ExamQuestion { id: number; value: string; answers: { id: number; value: string }[] }
/** question id (as a string key) -> answer id */
export type AnswerMap = Record<string, number>;

export interface ExamTable {
  id: Generated<number>;
  slug: string;
  contest_id: number;
  contestant_id: number;
  book_id: number;
  attempt: number;
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
  points: number | null;
  duration_seconds: number | null;
  created_at: DefaultTimestamp;
  /** 0003_exams.sql: (question, answer) pairs as question_id * 2^32 + answer_id, set by a trigger; SQL only. */
  answer_options: ColumnType<string[], never, never>;
  /** 0005_exam_owner.sql: the contestant's owner (the save checks the session against it); filled from contestants when left out. */
  user_id: ColumnType<number, number | undefined, never>;
  /** 0013_exam_days.sql: minutes the organiser added to end_time (0..20 in total). */
  extension_minutes: ColumnType<number, number | undefined, number>;
  /** 0013_exam_days.sql: the contestant's own id on a 4th attempt (its extra_attempts grant); null otherwise. */
  extra_attempt_of: ColumnType<number | null, number | null | undefined, never>;
  /** 0018_exam_writer.sql: the handle of the screen that loaded the exam last (the only one that writes); null before the first load. */
  writer: ColumnType<string | null, never, string>;
  /** 0040_answer_times.sql: "<question>:<answer>" -> Unix time (s) of the first save with it, "s" -> session of the last save; written by the autosave only. */
  answer_times: ColumnType<Record<string, number>, never, never>;
}
export interface NewsPostTable {
  id: Generated<number>;
  slug: string;
  name: string;
  image: string;
  body_html: string;
  published: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

// Back office (0009_back_office.sql) ---------------------------------------------------------
export interface AuditLogTable {
  id: Generated<string>;
  at: DefaultTimestamp;
  actor_id: number | null;
  actor_phone: string;
  kind: string;
  summary: string;
  details: ColumnType<unknown, string | undefined, never>;
}
export interface MediaTable {
  sha256: string;
  content_type: string;
  ext: string;
  byte_size: number;
  bytes: Buffer;
  created_at: DefaultTimestamp;
}
export interface SiteSettingsTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  data: ColumnType<unknown, string, string>;
  updated_at: DefaultTimestamp;
}

// Accounts (0002_accounts.sql) ------------------------------------------------------------
export type OtpPurpose = 'register' | 'forgot_password' | 'delete_account';
export interface OtpCodeTable {
  id: Generated<number>;
  phone: string;
  purpose: OtpPurpose;
  code_hash: string;
  ip: string;
  status: ColumnType<'sending' | 'sent', 'sending' | 'sent' | undefined, 'sending' | 'sent'>;
  attempts: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  superseded_at: NullableTimestamp;
}
/** A failed login, or a try whose password is being checked (pending): 0019_login_tries.sql. */
export interface LoginFailureTable {
  id: Generated<number>;
  phone: string;
  ip: string;
  created_at: Timestamp;
  pending: ColumnType<boolean, boolean | undefined, boolean>;
  /** The device cookie's nonce when the try came from a known device; null otherwise. */
  device: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface PasswordResetTokenTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface Database {
  districts: DistrictTable;
  schools: SchoolTable;
  class_groups: ClassGroupTable;
  class_rooms: ClassRoomTable;
  books: BookTable;
  questions: QuestionTable;
  answers: AnswerTable;
  users: UserTable;
  sessions: SessionTable;
  contestants: ContestantTable;
  contests: ContestTable;
  exams: ExamTable;
  news_posts: NewsPostTable;
  // accounts (0002_accounts.sql)
  otp_codes: OtpCodeTable;
  login_failures: LoginFailureTable;
  password_reset_tokens: PasswordResetTokenTable;
  // results (0004_results.sql)
  prize_tiers: PrizeTierTable;
  result_settings: ResultSettingsTable;
  class_teachers: ClassTeacherTable;
  result_runs: ResultRunTable;
  individual_results: IndividualResultTable;
  school_results: SchoolResultTable;
  class_results: ClassResultTable;
  certificates: CertificateTable;
  // the question banks' version (0022_question_bank_version.sql), read by exam starts
  question_bank_version: QuestionBankVersionTable;
  // erased families' certificates (0023_erased_certificates.sql)
  erased_certificates: ErasedCertificateTable;
  // back office (0009_back_office.sql)
  audit_log: AuditLogTable;
  result_changes: ResultChangeTable;
  media: MediaTable;
  site_settings: SiteSettingsTable;
  // retention of personal data (0012_retention.sql)
  prize_records: PrizeRecordTable;
  retention_runs: RetentionRunTable;
  // regrading (0014_regrade.sql)
  question_regrades: QuestionRegradeTable;
  // practice round (0017_practice.sql)
  practice_exams: PracticeExamTable;
  // exam days (0013_exam_days.sql)
  extra_attempts: ExtraAttemptTable;
  dashboard_snapshots: DashboardSnapshotTable;
  process_counters: ProcessCounterTable;
  // results from the back office (0015_results_review.sql)
  result_tasks: ResultTaskTable;
  tie_decisions: TieDecisionTable;
  // withdrawn prizes (0024_prize_withdrawals.sql)
  prize_withdrawals: PrizeWithdrawalTable;
  // integrity screening (0041_integrity_flags.sql)
  integrity_runs: IntegrityRunTable;
  integrity_flags: IntegrityFlagTable;
  prize_holds: PrizeHoldTable;
  question_quality_counts: QuestionQualityCountsTable;
}

export interface QuestionQualityCountsTable {
  book_id: number;
  exams: number;
  computed_at: Timestamp;
  /** [[question_id, rest, answer_id | null, right, count], ...] (0042_question_quality_counts.sql). */
  cells: ColumnType<[number, number, number | null, boolean, number][], string, string>;
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

// Exam days (0013_exam_days.sql) -------------------------------------------------------------
export interface ExtraAttemptTable {
  contestant_id: number;
  contest_id: number;
  reason: string;
  granted_by: number | null;
  granted_at: DefaultTimestamp;
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

export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type Contest = Selectable<ContestTable>;
export type Exam = Selectable<ExamTable>;
export type ResultRun = Selectable<ResultRunTable>;

// Results (0004_results.sql) --------------------------------------------------------------
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
export interface ClassTeacherTable { school_id: number; class_name: string; teacher_name: string }
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

/** 0022_question_bank_version.sql: one row, moved on by every write of questions or answers. */
export interface QuestionBankVersionTable {
  only_row: Generated<boolean>;
  version: number;
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

// Retention of personal data (0012_retention.sql) ---------------------------------------------
export interface PrizeRecordTable {
  contest_id: number;
  contestant_id: number;
  fullname: string;
  school_name: string;
  class_name: string;
  prize_name: string;
  amount: number;
  recorded_at: Timestamp;
}
export interface RetentionRunTable {
  id: Generated<number>;
  ran_at: Timestamp;
  accounts_erased: number;
  contestants_anonymised: number;
  contestants_deleted: number;
  audit_entries_deleted: number;
  prize_records_deleted: number;
}

// Regrading (0014_regrade.sql) ------------------------------------------------------------
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

// practice round (0017_practice.sql) ---------------------------------------------------------------
export interface PracticeExamTable {
  id: Generated<number>;
  slug: string;
  contestant_id: number;
  user_id: number;
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
  /** 0018_exam_writer.sql: as exams.writer. */
  writer: ColumnType<string | null, never, string>;
}

// Results from the back office (0015_results_review.sql) ------------------------------------
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
export type ResultTask = Selectable<ResultTaskTable>;
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
