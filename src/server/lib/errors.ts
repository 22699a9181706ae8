// One error type for expected failures. The error handler (core/error-answers.ts) turns it into the
// API's stable shape {success:false, code, message, errors?}. A throw names only the code: its HTTP
// status comes from the shared catalogue (shared/error-codes.ts), so a code cannot be answered with
// two statuses; the message is the user-facing Vietnamese text, from shared/messages.
import { statusOf, type ErrorCode } from '../../shared/error-codes';

export type FieldErrors = Record<string, string>;
/** A refused import's problems, one per row and column (shared/schemas/admin.ts). */
export type RowProblems = { row: number; column: string; message: string }[];

export class AppError extends Error {
  /** The code's one status (errorCatalogue). */
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldErrors | RowProblems,
    /** Extra top-level fields the spec's screens read (e.g. {doing:true, slug}). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = statusOf(code);
  }
}

/** The error of `code`, answered with the code's status: `throw appError('in_use', message)`. */
export const appError = (code: ErrorCode, message: string, errors?: FieldErrors | RowProblems, extra?: Record<string, unknown>) =>
  new AppError(code, message, errors, extra);

export const unauthorized = (message: string) => appError('unauthorized', message);
export const forbidden = (message: string) => appError('forbidden', message);
export const notFound = (message: string) => appError('not_found', message);
export const tooManyRequests = (message: string, errors?: FieldErrors) => appError('too_many_requests', message, errors);

// Older spellings, kept for the call sites that still use them: each now only passes its code on,
// and the catalogue test checks that the code's status is the one its name says (400, 409, 422).
export const badRequest = (message: string, errors?: FieldErrors, code: ErrorCode = 'bad_request') => appError(code, message, errors);
export const conflict = (message: string, code: ErrorCode, errors?: FieldErrors) => appError(code, message, errors);
export const unprocessable = (message: string, code: ErrorCode, errors: FieldErrors | RowProblems) => appError(code, message, errors);
