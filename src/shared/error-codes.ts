// Every `code` the API can answer with, in one table: code -> its one HTTP status (and, where the
// code always says the same thing, the key of its message in shared/messages). The server's
// AppError takes only a code and reads its status here, the API's error schema is typed by the
// codes and the web client switches on them, so a typo on either side fails the type check. The
// user-facing text is the answer's `message` (Vietnamese); the code is for programs and logs.
// src/server/error-catalogue.test.ts checks that every code the server raises is here with the
// status it is answered with, and that every code here is raised or answered by the error handler.
import type { messages } from './messages';

interface Entry {
  status: number;
  /** The one message of a code that always says the same thing (a key of `messages`). */
  message?: keyof typeof messages;
}

export const errorCatalogue = {
  // Generic: input, authentication, permissions, routing.
  invalid_input: { status: 400 },
  // 422: well formed, but it breaks a rule or names something that is not there (a school not in
  // the catalogue, an answer of another question). invalid_input is always a 400.
  input_refused: { status: 422 },
  bad_request: { status: 400 },
  unauthorized: { status: 401 },
  forbidden: { status: 403 },
  not_found: { status: 404 },
  payload_too_large: { status: 413 },
  /** Headers over the HTTP parser's 16 KB, refused before Fastify sees the request. */
  header_too_large: { status: 431, message: 'payloadTooLarge' },
  /** A Content-Type the route does not read (Fastify's own refusal). */
  unsupported_media_type: { status: 415, message: 'unsupportedMediaType' },
  /** An uploaded file whose content is not of a kind the route takes (an SVG named .png, a page named .mp3). */
  file_not_accepted: { status: 422 },
  too_many_requests: { status: 429 },
  /** A conditional request (If-Match, If-Unmodified-Since) whose condition the file no longer meets. */
  precondition_failed: { status: 412, message: 'preconditionFailed' },
  /** A Range outside the file. */
  range_not_satisfiable: { status: 416, message: 'rangeNotSatisfiable' },
  // The server: a bug (500), or a dependency away or the process saturated (503, try again).
  server_error: { status: 500, message: 'serverError' },
  service_unavailable: { status: 503 },
  /** The server did not answer in time (handler deadline, a file read too long): try again. */
  request_timeout: { status: 503, message: 'serviceUnavailable' },
  /** The client did not send its request in time (the HTTP parser's timeout). */
  request_too_slow: { status: 408, message: 'requestBodyTimeout' },
  /** The client's connection closed before its request was read: nobody reads the answer (nginx's 499). */
  client_closed_request: { status: 499 },
  // Accounts and one-time codes.
  invalid_credentials: { status: 401 },
  phone_taken: { status: 409 },
  phone_not_registered: { status: 400 },
  otp_invalid: { status: 400 },
  sms_failed: { status: 503 },
  reset_link_invalid: { status: 400 },
  phone_read_only: { status: 400 },
  profile_conflict: { status: 409 },
  invalid_contestant: { status: 400 },
  contestant_locked: { status: 400 },
  contestant_undeletable: { status: 400 },
  // Exams.
  no_contest: { status: 409 },
  window_not_open: { status: 409 },
  window_closed: { status: 409 },
  no_attempts_left: { status: 409 },
  book_not_in_group: { status: 400 },
  book_without_questions: { status: 409 },
  exam_in_progress: { status: 409 },
  start_conflict: { status: 409 },
  exam_submitted: { status: 409 },
  time_up: { status: 409 },
  save_conflict: { status: 409 },
  duplicate_question: { status: 400 },
  question_not_in_exam: { status: 400 },
  answer_not_of_question: { status: 400 },
  incomplete: { status: 400, message: 'answerAllQuestions' },
  exam_not_submitted: { status: 409 },
  // Another screen loaded the exam since (issue 20): this one may no longer write.
  exam_open_elsewhere: { status: 409 },
  // Results and certificates.
  results_too_early: { status: 409 },
  exams_in_progress: { status: 409 },
  certificate_not_found: { status: 404 },
  results_not_computed: { status: 409 },
  results_not_final: { status: 409 },
  // The organiser's PDF of the winners (issue 37.2): only once the results are public.
  results_not_published: { status: 409 },
  // Back office (/api/admin).
  import_invalid: { status: 422 },
  in_use: { status: 409 },
  // Messages to families (features/admin/messages): the rules a send is refused for.
  empty_audience: { status: 422 },
  message_too_long: { status: 422 },
  template_params_missing: { status: 422 },
  channel_unavailable: { status: 422 },
  send_conflict: { status: 409 },
  name_taken: { status: 409 },
  account_locked: { status: 403 },
  invalid_settings: { status: 422 },
  cannot_lock_self: { status: 409 },
  merge_invalid: { status: 422 },
  // A merge the rules refuse (results being computed, school certificates issued).
  merge_refused: { status: 409 },
  /** The catalogue's move (decision 038): schools matched by a name written otherwise, not yet confirmed. */
  names_unconfirmed: { status: 409 },
  bank_too_small: { status: 409 },
  // Regrading (issue 13).
  question_not_used: { status: 409 },
  // Personal data (issue 15).
  consent_required: { status: 403 },
  not_a_parent: { status: 409 },
  account_deleted: { status: 409 },
  // Certificates in the back office (issue 13).
  certificate_revoked: { status: 410 },
  // A school's certificates in one PDF (issue 37): nothing to print yet; a file asked before it is built.
  no_certificates: { status: 422 },
  bundle_not_ready: { status: 409 },
  certificate_already_revoked: { status: 409 },
  // Practice round (issue 14).
  practice_unavailable: { status: 409 },
  // Exam days (issue 13).
  extra_attempt_given: { status: 409 },
  exam_finished: { status: 409 },
  questions_frozen: { status: 409 },
  // Results from the back office (issue 13).
  results_computing: { status: 409 },
  tie_undecided: { status: 409 },
  results_out_of_date: { status: 409 },
  tie_not_found: { status: 404 },
  // Issue 23: a prize withdrawn (409 when there is none to withdraw); an extra attempt withdrawn
  // (409 once the child has used it).
  no_prize_to_withdraw: { status: 409 },
  integrity_running: { status: 409 },
  flag_decided: { status: 409 },
  extra_attempt_used: { status: 409 },
  // Seasons (issue 26): a write to an earlier season; a child to re-class or past grade 5.
  season_read_only: { status: 409 },
  class_pending: { status: 409 },
  contestant_of_past_season: { status: 409 },
} as const satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as [ErrorCode, ...ErrorCode[]];

/** The one HTTP status a code is answered with. */
export const statusOf = (code: ErrorCode): number => errorCatalogue[code].status;

/** Answers a client should retry after a pause (the server or a dependency is briefly away). */
export const retryableStatuses: readonly number[] = [502, 503, 504];
