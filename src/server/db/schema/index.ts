// Kysely table types for the migrations in ../migrations, one module per domain. Keep in step with
// the SQL (schema.api.test.ts holds them to it). Importers take every type from here (db/schema).
import type { AnswerTable, BookTable, ClassGroupTable, ClassRoomTable, ClassTeacherTable, DistrictTable, QuestionBankVersionTable, QuestionTable, SchoolSnapshotTable, SchoolTable, SeasonSchoolView } from './catalog';
import type { ContestantTable, LoginFailureTable, OtpCodeTable, PasswordResetTokenTable, SessionTable, UserTable, ViewerUnitTable } from './accounts';
import type { ContestTable, ExamTable, ExtraAttemptTable, PracticeExamTable } from './exams';
import type { CertificateBundleTable, CertificateImageTable, CertificateTable, ClassResultTable, ErasedCertificateTable, IndividualResultTable, PrizeTierTable, PrizeWithdrawalTable, ResultChangeTable, ResultRunTable, ResultSettingsTable, ResultTaskTable, SchoolResultTable, TieDecisionTable } from './results';
import type { AuditLogTable, DashboardSnapshotTable, IntegrityFlagTable, IntegrityRunTable, PrizeHoldTable, ProcessCounterTable, QuestionQualityCountsTable, QuestionRegradeTable } from './admin';
import type { MediaTable, NewsPostTable, SiteSettingsTable } from './site';
import type { PrizeRecordTable, RetentionRunTable } from './privacy';
import type { MessageCampaignTable, MessageDailyCountTable, MessageOptOutTable, MessageRecipientTable, MessageSettingsTable } from './messages';

export type * from './catalog';
export type * from './accounts';
export type * from './exams';
export type * from './results';
export type * from './admin';
export type * from './site';
export type * from './privacy';
export type * from './messages';

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
  // 0051_viewers.sql: a unit viewer's units
  viewer_units: ViewerUnitTable;
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
  // the signature and seal, a school's certificates in one PDF (0048_certificate_printing.sql)
  certificate_images: CertificateImageTable;
  certificate_bundles: CertificateBundleTable;
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
  // the catalogue's moves between seasons (0046_catalogue_moves.sql, decision 038)
  school_snapshots: SchoolSnapshotTable;
  // messages to families (0050_messages.sql, decision 040)
  message_settings: MessageSettingsTable;
  message_campaigns: MessageCampaignTable;
  message_recipients: MessageRecipientTable;
  message_opt_outs: MessageOptOutTable;
  message_daily_counts: MessageDailyCountTable;
  /** A view, not a table (schema.api.test.ts checks its columns apart). */
  season_schools: SeasonSchoolView;
}
