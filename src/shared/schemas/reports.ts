// GET /api/report-school (spec sections 3 and 7): the school report of a school administrator.
// Rows carry no internal ids; the spec's field names are kept.
import { z } from 'zod';
import { certificateViewSchema } from './certificates';
import { seasonQuerySchema } from './common';

export const quantityStudentsRowSchema = z.object({
  class: z.string(),
  /** Pupils of the class registered as contestants. */
  total_register: z.number().int(),
  /** Of those, pupils with at least one finished exam. */
  total_done: z.number().int(),
});

/** One pupil: the best finished attempt, in ranking order (spec section 9). */
export const scoreRowSchema = z.object({
  rank: z.number().int(),
  /** Equal to another pupil under all four ranking rules. */
  tied: z.boolean(),
  fullname: z.string(),
  class: z.string(),
  /** Finished exams of the pupil. */
  count_exam: z.number().int(),
  points: z.number().int(),
  /** "12 phút 05 giây" */
  duration: z.string(),
  duration_seconds: z.number().int(),
  book: z.string(),
  prediction: z.number().int().nullable(),
});

export const classRowSchema = z.object({
  class: z.string(),
  total_register: z.number().int(),
  /** Participants: pupils of the class with a finished exam. */
  total_done: z.number().int(),
  /** Average of the participants' best points, one decimal; null when nobody has finished. */
  avg_score: z.number().nullable(),
  /** '—' when nobody has finished. */
  avg_duration_format: z.string(),
  avg_duration_seconds: z.number().int().nullable(),
});

export const classPrizeSchema = z.object({
  teacher_name: z.string(),
  class_room: z.object({ name: z.string() }),
  prize_name: z.string(),
  desc: z.string(),
});

/** A season of a report's season selector (issue 26). */
export const seasonOptionSchema = z.object({ id: z.number().int(), name: z.string(), is_current: z.boolean(), selected: z.boolean() });

export const reportSchoolResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    school: z.object({ name: z.string(), address: z.string() }),
    contest: z.object({ name: z.string() }),
    total_register: z.number().int(),
    total_done: z.number().int(),
    quantity_students: z.array(quantityStudentsRowSchema),
    score: z.array(scoreRowSchema),
    class: z.array(classRowSchema),
  }),
  /** The school's prize certificate (from the results date): image URL (authenticated). */
  prize: z.object({
    image_cer: z.string().nullable(),
    pdf_cer: z.string().nullable(),
    prize_name: z.string().nullable(),
    desc: z.string().nullable(),
  }),
  prizes_class: z.array(classPrizeSchema),
  results_published: z.boolean(),
  results_at: z.string(),
  /** Every season, newest first, for the report's season selector (issue 26). */
  seasons: z.array(seasonOptionSchema).optional(),
});

/** GET /api/report-school?season=<id>: an earlier season's report; none: the current one. */
export const reportSchoolQuerySchema = seasonQuerySchema;

// GET /api/report-parent?season=<id> (issue 26, ours): a family's children of one season (the
// current one by default) with their finished exams, their result once published and their
// certificates, so that last year's stay reachable; GET /api/report-parent/seasons lists the
// family's seasons for the report's selector. The spec's /api/profile stays this season's.
export const reportParentQuerySchema = seasonQuerySchema;

export const seasonChildSchema = z.object({
  /** The child's row of that season: /giay-chung-nhan/{id} shows that season's certificates. */
  id: z.number().int(),
  fullname: z.string(),
  /** The class the child had in that season. */
  class: z.string(),
  school: z.object({ name: z.string() }),
  /** Finished exams, by attempt. */
  exams: z.array(z.object({ slug: z.string(), attempt: z.number().int(), points: z.number(), duration: z.string(), book: z.string() })),
  /** The ranked result, once the season's results are published (null before, or without a finished exam). */
  result: z
    .object({
      points: z.number(),
      duration: z.string(),
      rank: z.number().int(),
      /** The individual prize (null: none, or withdrawn). */
      prize_name: z.string().nullable(),
      /** In the school's TOP 30. */
      school_top: z.boolean(),
    })
    .nullable(),
  /** The result is under the organisers' review: a neutral message with the hotline (decision 027). */
  results_held: z.string().nullable(),
  certificates: z.array(certificateViewSchema),
});
export type SeasonChild = z.infer<typeof seasonChildSchema>;

export const reportParentResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    season: z.object({ id: z.number().int(), name: z.string(), is_current: z.boolean(), results_published: z.boolean(), results_date: z.string() }),
    childrens: z.array(seasonChildSchema),
  }),
});

/** GET /api/report-parent/seasons: the seasons with a child of the family, and the current one (selected); newest first. */
export const reportParentSeasonsResponseSchema = z.object({ success: z.literal(true), data: z.array(seasonOptionSchema) });
export type ReportParentResponse = z.infer<typeof reportParentResponseSchema>;
export type ReportParentSeasonsResponse = z.infer<typeof reportParentSeasonsResponseSchema>;

export type QuantityStudentsRow = z.infer<typeof quantityStudentsRowSchema>;
export type ScoreRow = z.infer<typeof scoreRowSchema>;
export type ClassRow = z.infer<typeof classRowSchema>;
export type ClassPrize = z.infer<typeof classPrizeSchema>;
export type ReportSchoolResponse = z.infer<typeof reportSchoolResponseSchema>;
