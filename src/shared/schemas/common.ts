import { z } from 'zod';
import { errorCodes } from '../error-codes';
import { messages } from '../messages';
import { fieldName } from './validation-errors';

/** The largest id of a row: every id in the database is an int4 (serial). */
export const INT4_MAX = 2_147_483_647;

/**
 * The id of a row, wherever a request names one (path, query string, body, form): a positive int4,
 * as a JSON integer or a string of decimal digits (paths, query strings and selects are text).
 * Nothing else: not true, [1], "0x10", "1e3", " 12", nor 2147483648 (past int4, which the
 * database would refuse with an error of its own). `error`: the message; by default one naming
 * the field.
 */
export const idSchema = (error: string | ((issue: { path?: PropertyKey[] }) => string) = (issue) => messages.missingParameter(fieldName(issue.path))) => {
  const id = z.number({ error }).int({ error }).positive({ error }).max(INT4_MAX, { error });
  return z.union([id, z.string({ error }).regex(/^[0-9]{1,10}$/, { error }).transform(Number).pipe(id)], { error });
};

/** Integer fields of a response (counts, ids) named at once: `z.object({ ...intFields('parents', 'contestants') })`. */
export const intFields = <const K extends string>(...names: K[]) =>
  Object.fromEntries(names.map((name) => [name, z.number().int()])) as { [P in K]: z.ZodNumber };

/** An id named in the message: "Thiếu hoặc sai tham số <name>." */
export const idParam = (name: string) => idSchema(messages.missingParameter(name));

/** `?season=<id>`: a season of the screens that show an earlier one (issue 26); none: the current one. */
export const seasonParam = idParam('season').optional();
export const seasonQuerySchema = z.object({ season: seasonParam });

/** The error shape of every failed API call. */
export const apiErrorSchema = z.object({
  success: z.literal(false),
  code: z.enum(errorCodes),
  message: z.string(),
  /** The request's id, also in the server's logs: lets support trace a complaint. */
  request_id: z.string().optional(),
  /** Field errors by field name; for a refused import (422), its problems by row and column. */
  errors: z
    .union([z.record(z.string(), z.string()), z.array(z.object({ row: z.number().int(), column: z.string(), message: z.string() }))])
    .optional(),
  /** A refused import lists its first 200 problems in `errors`; this is how many it has in all. */
  errors_total: z.number().int().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
