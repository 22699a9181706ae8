import { z } from 'zod';
import { messages } from '../messages';

/** A positive integer id in a query string or body (accepts "12" as well as 12). */
export const idParam = (name: string) =>
  z.coerce
    .number({ error: messages.missingParameter(name) })
    .int({ error: messages.missingParameter(name) })
    .positive({ error: messages.missingParameter(name) })
    .max(2_147_483_647, { error: messages.missingParameter(name) });

/** The error shape of every failed API call. */
export const apiErrorSchema = z.object({
  success: z.literal(false),
  code: z.string().optional(),
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
