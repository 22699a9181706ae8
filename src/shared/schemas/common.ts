import { z } from 'zod';
import { errorCodes } from '../error-codes';
import { messages } from '../messages';

/**
 * A positive int4 id in a query string or body: a JSON integer, or a string of decimal digits
 * (query strings are text). Nothing else: not true, [1], "0x10", "1e3" or " 12".
 */
export const idParam = (name: string) => {
  const error = messages.missingParameter(name);
  const id = z.number({ error }).int({ error }).positive({ error }).max(2_147_483_647, { error });
  return z.union([id, z.string({ error }).regex(/^[0-9]{1,10}$/, { error }).transform(Number).pipe(id)], { error });
};

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
