// Regrading a question after a wrong answer key (/api/admin/regrades): the dry run, the commit and
// the history. The back office's form validates with the same schemas.
import { z } from 'zod';
import { idSchema, intFields } from './common';
import { regradeMessages } from '../messages';
import { regradeModes } from '../regrade-rules';
import { MAX_PER_PAGE, pageOfSchema, pageQuerySchema, pageResponseSchema } from './admin';

/** Exams listed per page of a dry run unless asked otherwise. */
export const REGRADE_PER_PAGE = 20;

// One idSchema() per field: the OpenAPI converter drops the digits-as-text choice of a schema used twice in one body.
const ruleFields = {
  question_id: idSchema(),
  mode: z.enum(regradeModes, { error: regradeMessages.modeRequired }),
  /** The other answer ('new_key', 'accept_both'); ignored for 'everyone'. A form's "" is none. */
  answer_id: z.preprocess((value) => (value === '' || value === null ? undefined : value), idSchema().optional()),
};

type RuleInput = { mode: (typeof regradeModes)[number]; answer_id?: number };
const answerWhenNeeded = (rule: RuleInput, ctx: z.RefinementCtx) => {
  if (rule.mode !== 'everyone' && rule.answer_id === undefined) ctx.addIssue({ code: 'custom', path: ['answer_id'], message: regradeMessages.answerRequired });
};

/** The dry run: the rule and which page of the affected exams to list. Nothing is stored. */
export const regradePreviewSchema = z
  .object({
    ...ruleFields,
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(REGRADE_PER_PAGE),
  })
  .superRefine(answerWhenNeeded);
export type RegradePreviewInput = z.output<typeof regradePreviewSchema>;

/** The commit: the rule and why (the reason goes into the regrade and the audit log). */
export const regradeCommitSchema = z
  .object({
    ...ruleFields,
    reason: z
      .string({ error: regradeMessages.reasonRequired })
      .trim()
      .min(1, { error: regradeMessages.reasonRequired })
      .max(1000, { error: regradeMessages.reasonTooLong }),
  })
  .superRefine(answerWhenNeeded);
export type RegradeCommitInput = z.output<typeof regradeCommitSchema>;
export type RegradeFormValues = z.input<typeof regradeCommitSchema>;

export const regradeRuleSchema = z.object({
  mode: z.enum(regradeModes),
  /** The answers counted right; empty for 'everyone'. */
  accepted_answer_ids: z.array(z.number().int()),
  /** The bank's key when the rule is set. */
  previous_key_answer_id: z.number().int().nullable(),
});

const questionSchema = z.object({
  id: z.number().int(),
  value: z.string(),
  book_id: z.number().int(),
  book_name: z.string(),
  answers: z.array(z.object({ id: z.number().int(), value: z.string(), is_correct: z.boolean() })),
});

export const regradeSummarySchema = z.object({
  /** Finished exams of the contest that drew the question. */
  ...intFields('exams_affected', 'exams_gained', 'exams_lost', 'exams_unchanged'),
  /** Exams in progress that drew it: scored with the rule when they finish. */
  exams_in_progress: z.number().int(),
});

/** A finished exam whose points the rule changes. */
export const regradeExamSchema = z.object({
  exam_id: z.number().int(),
  contestant_id: z.number().int(),
  fullname: z.string(),
  school_name: z.string(),
  attempt: z.number().int(),
  /** The answer the contestant gave to the question (null: none). */
  answer_id: z.number().int().nullable(),
  points_before: z.number().int(),
  points_after: z.number().int(),
});
export type RegradeExam = z.infer<typeof regradeExamSchema>;

/** A prize that the regrade gives, takes or changes (rank before and after, same ranking rules). */
export const prizeChangeSchema = z.object({
  /** individual: the contestant's prize; school_pupils: among the school's best pupils; teacher: a class's teacher prize. */
  kind: z.enum(['individual', 'school_pupils', 'teacher']),
  change: z.enum(['gain', 'lose', 'change']),
  contestant_id: z.number().int().nullable(),
  /** The contestant's name, or the class for a teacher prize. */
  name: z.string(),
  school_name: z.string(),
  rank_before: z.number().int().nullable(),
  rank_after: z.number().int().nullable(),
  prize_before: z.string().nullable(),
  prize_after: z.string().nullable(),
});
export type PrizeChange = z.infer<typeof prizeChangeSchema>;

export const regradePreviewResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    question: questionSchema,
    rule: regradeRuleSchema,
    /** The rule in force before this one (a question regraded before), else null. */
    current_rule: regradeRuleSchema.nullable(),
    summary: regradeSummarySchema,
    /** Exams whose points change, most gained first, then by name. */
    exams: pageOfSchema(regradeExamSchema),
    /** Prize changes when results have been computed (null otherwise): ranked again before and after in memory. */
    ranking: z
      .object({
        computed_at: z.string(),
        prize_changes: z.array(prizeChangeSchema),
      })
      .nullable(),
  }),
});
export type RegradePreview = z.infer<typeof regradePreviewResponseSchema>['data'];

export const regradeEntrySchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  question_id: z.number().int(),
  question_value: z.string(),
  book_id: z.number().int(),
  book_name: z.string(),
  mode: z.enum(regradeModes),
  accepted_answer_ids: z.array(z.number().int()),
  /** The texts of the accepted answers, in the order of accepted_answer_ids. */
  accepted_answers: z.array(z.string()),
  reason: z.string(),
  actor_phone: z.string(),
  /** The organiser's name (empty when the account has none). */
  actor_name: z.string(),
  /** The rule in force; false once the question was regraded again. */
  active: z.boolean(),
  ...intFields('exams_affected', 'exams_gained', 'exams_lost', 'exams_in_progress'),
});
export type RegradeEntry = z.infer<typeof regradeEntrySchema>;

export const regradeCommitResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    regrade: regradeEntrySchema,
    summary: regradeSummarySchema,
    /** The stored results were computed again with the new points. */
    results_recomputed: z.boolean(),
    /** Why computed results could not be computed again now (e.g. exams still in progress), else null. */
    results_note: z.string().nullable(),
  }),
});

export const regradeListQuerySchema = pageQuerySchema.extend({ book_id: idSchema().optional() });
export const regradeListResponseSchema = pageResponseSchema(regradeEntrySchema);
