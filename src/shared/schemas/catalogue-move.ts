// The catalogue's move to a new map (decision 038): what its preview and commit answer beside the
// import's counts (POST /api/admin/catalog/move).
import { z } from 'zod';
import { intFields } from './common';

const row = z.number().int();
export const catalogueMoveAnswerShape = {
  ...intFields('units_created', 'moved', 'renamed', 'merged', 'closed'),
  /** Schools matched by a name written otherwise: each row must be confirmed (`confirm_rows`) for the commit. */
  to_confirm: z.number().int(),
  moves: z.array(z.object({ row, school: z.string(), from: z.string(), to: z.string() })),
  renames: z.array(z.object({ row, from: z.string(), to: z.string(), unit: z.string() })),
  merges: z.array(z.object({ row, from: z.string(), from_unit: z.string(), into: z.string(), unit: z.string(), contestants: z.number().int() })),
  closures: z.array(z.object({ school: z.string(), unit: z.string(), contestants: z.number().int() })),
  confirmations: z.array(z.object({ row, typed: z.string(), school: z.string(), unit: z.string() })),
  former_provinces: z.array(z.object({ unit: z.string(), before: z.string(), after: z.string() })),
};
export type CatalogueMoveAnswer = z.infer<z.ZodObject<typeof catalogueMoveAnswerShape>>;
