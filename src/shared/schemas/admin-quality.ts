// Question quality of a book (/api/admin/books/:bookId/quality): classical item analysis over the
// finished exams that drew each question (decision 021), flagged questions first.
import { z } from 'zod';
import { adminQuestionSchema } from './admin-books';

export const qualityFlagKinds = ['wrong_key', 'ambiguous', 'too_hard', 'too_easy'] as const;
export const qualityFlagLabels: Record<(typeof qualityFlagKinds)[number], string> = {
  wrong_key: 'Có thể sai đáp án',
  ambiguous: 'Có thể có hai đáp án đúng',
  too_hard: 'Quá khó',
  too_easy: 'Quá dễ',
};

const sharesSchema = z.object({ overall: z.number(), upper: z.number(), lower: z.number() });

export const qualityQuestionSchema = z.object({
  /** The question as the bank holds it (the regrade dialog opens on it). */
  question: adminQuestionSchema,
  /** 1-based place in the bank (the book page's order). */
  number: z.number().int(),
  exams: z.number().int(),
  /** The figures: null when fewer than `min_exams` exams drew the question (too few to judge: no flag either). */
  facility: z.number().nullable(),
  discrimination: z.number().nullable(),
  upper_lower_difference: z.number().nullable(),
  /** Per answer of `question.answers`, in that order. */
  answers: z.array(sharesSchema).nullable(),
  blank: sharesSchema.nullable(),
  suspected_answer_id: z.number().int().nullable(),
  flags: z.array(z.object({ kind: z.enum(qualityFlagKinds), reason: z.string() })),
});
export type QualityQuestion = z.infer<typeof qualityQuestionSchema>;

export const bookQualitySchema = z.object({
  /** `season`: the book's; an earlier season's report is read-only (no regrade). */
  book: z.object({ id: z.number().int(), name: z.string(), season: z.object({ name: z.string(), is_current: z.boolean() }) }),
  /** Finished exams of the book counted in the figures (when they were computed: `computed_at`), and finished now. */
  exams: z.number().int(),
  exams_now: z.number().int(),
  computed_at: z.string(),
  /** Exams that must draw a question before it has figures and flags. */
  min_exams: z.number().int(),
  questions: z.array(qualityQuestionSchema),
});
export type BookQuality = z.infer<typeof bookQualitySchema>;

export const bookQualityResponseSchema = z.object({ success: z.literal(true), data: bookQualitySchema });
