// One error type for expected failures. The error handler (app.ts) turns it into the API's
// stable shape {success:false, code, message, errors?}; codes come from the shared catalogue.
import type { ErrorCode } from '../../shared/error-codes';

export type FieldErrors = Record<string, string>;
/** A refused import's problems, one per row and column (shared/schemas/admin.ts). */
export type RowProblems = { row: number; column: string; message: string }[];

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldErrors | RowProblems,
    /** Extra top-level fields the spec's screens read (e.g. {doing:true, slug}). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, errors?: FieldErrors, code: ErrorCode = 'bad_request') =>
  new AppError(400, code, message, errors);
export const unauthorized = (message: string) => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string) => new AppError(403, 'forbidden', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (message: string, code: ErrorCode, errors?: FieldErrors) =>
  new AppError(409, code, message, errors);
/** 422: the input is well formed but breaks a rule (an import with problems, settings that do not fit together). */
export const unprocessable = (message: string, code: ErrorCode, errors: FieldErrors | RowProblems) =>
  new AppError(422, code, message, errors);
export const tooManyRequests = (message: string, errors?: FieldErrors) =>
  new AppError(429, 'too_many_requests', message, errors);
