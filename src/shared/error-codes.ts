// Every `code` the API can answer with, in one place. The server's AppError takes only these, the
// API's error schema is typed by them and the web client switches on them, so a typo on either
// side fails the type check. The user-facing text is the answer's `message` (Vietnamese); the code
// is for programs and logs.
export const errorCodes = [
  // Generic: input, authentication, permissions, routing.
  'invalid_input',
  // 422: well formed, but it breaks a rule or names something that is not there (a school not in
  // the catalogue, an answer of another question). invalid_input is always a 400.
  'input_refused',
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  // The server: a bug (500), or a dependency away or the process saturated (503, try again).
  'server_error',
  'service_unavailable',
  'request_timeout',
  // Accounts and one-time codes.
  'invalid_credentials',
  'phone_taken',
  'phone_not_registered',
  'otp_invalid',
  'sms_failed',
  'reset_link_invalid',
  'phone_read_only',
  'profile_conflict',
  'invalid_contestant',
  'contestant_locked',
  'contestant_undeletable',
  // Exams.
  'no_contest',
  'window_not_open',
  'window_closed',
  'no_attempts_left',
  'book_not_in_group',
  'book_without_questions',
  'exam_in_progress',
  'start_conflict',
  'exam_submitted',
  'time_up',
  'save_conflict',
  'duplicate_question',
  'question_not_in_exam',
  'answer_not_of_question',
  'incomplete',
  'exam_not_submitted',
  // Another screen loaded the exam since (issue 20): this one may no longer write.
  'exam_open_elsewhere',
  // Results and certificates.
  'results_too_early',
  'exams_in_progress',
  'certificate_not_found',
  'results_not_computed',
  'results_not_final',
  // Back office (/api/admin).
  'import_invalid',
  'in_use',
  'name_taken',
  'account_locked',
  'invalid_settings',
  'cannot_lock_self',
  'merge_invalid',
  // A merge the rules refuse (results being computed, school certificates issued).
  'merge_refused',
  'bank_too_small',
  // Regrading (issue 13).
  'question_not_used',
  // Personal data (issue 15).
  'consent_required',
  'not_a_parent',
  'account_deleted',
  // Certificates in the back office (issue 13).
  'certificate_revoked',
  'certificate_already_revoked',
  // Practice round (issue 14).
  'practice_unavailable',
  // Exam days (issue 13).
  'extra_attempt_given',
  'exam_finished',
  'questions_frozen',
  // Results from the back office (issue 13).
  'results_computing',
  'tie_undecided',
  'tie_not_found',
  // Issue 23: a prize withdrawn (409 when there is none to withdraw); an extra attempt withdrawn
  // (409 once the child has used it).
  'no_prize_to_withdraw',
  'integrity_running',
  'flag_decided',
  'extra_attempt_used',
  // Seasons (issue 26): a write to an earlier season; a child to re-class or past grade 5.
  'season_read_only',
  'season_changed',
  'class_pending',
  'contestant_of_past_season',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** Answers a client should retry after a pause (the server or a dependency is briefly away). */
export const retryableStatuses: readonly number[] = [502, 503, 504];
