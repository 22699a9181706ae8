// Request and response schemas of the practice round ("Thi thử", issue 14: /api/practice). The
// round uses the exam screen, so its exam, time and save answers keep the exam API's shapes.
import { z } from 'zod';
import { idParam, intFields } from './common';
import {
  examAnswerSchema,
  examChildSchema,
  examQuestionSchema,
  examResultItemSchema,
  examSlugSchema,
  examTimeResponseSchema,
  examingResponseSchema,
  saveAnswersBodySchema,
  saveAnswersResponseSchema,
} from './exams';

/** Questions in one practice round (drawn from the practice questions of the contestant's group). */
export const PRACTICE_QUESTIONS = 5;
/** Starts per contestant in 24 hours: far more than a child practises, few enough to keep the table small. */
export const PRACTICE_STARTS_PER_DAY = 30;
/** Finished or abandoned practice rounds are deleted after this many days (jobs.ts). */
export const PRACTICE_KEEP_DAYS = 7;

const isoDateTime = z.string();

/** GET /api/practice/status: per contestant of the account, whether a practice round can start. */
export const practiceStatusResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    /** false once the contest's exam window has closed (or when there is no contest). */
    open: z.boolean(),
    contestants: z.array(
      z.object({
        child_id: z.number().int(),
        fullname: z.string(),
        /** Practice questions of the contestant's class group: 0 means no practice yet. */
        question_count: z.number().int(),
        /** The round in progress, if any (a new start ends it). */
        in_progress_slug: z.string().nullable(),
      }),
    ),
  }),
});

export const practiceStartBodySchema = z.object({ child_id: idParam('child_id') });
/** POST /api/practice/start */
export const practiceStartResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  slug: z.string(),
  ...intFields('practice_id', 'child_id', 'question_count'),
  start_time: isoDateTime,
  end_time: isoDateTime,
});

export const practiceSlugParamsSchema = z.object({ slug: examSlugSchema });

/** GET /api/practice/exams/:slug: the round as the exam screen takes it (attempt 0, no real book). */
export const practiceExamResponseSchema = examingResponseSchema;
/** GET /api/practice/exams/:slug/time */
export const practiceTimeResponseSchema = examTimeResponseSchema;

/** POST /api/practice/exams/:slug/answers and /submit: the exam's save body; the slug is in the path. */
export const practiceSaveBodySchema = saveAnswersBodySchema.omit({ exam_id: true, slug: true });
export const practiceSaveResponseSchema = saveAnswersResponseSchema;

export const practiceSubmitResponseSchema = z.object({
  success: z.literal(true),
  submited: z.literal(true),
  already_submitted: z.boolean(),
  message: z.string(),
  data: z.object({
    slug: z.string(),
    ...intFields('child_id', 'correct_count', 'question_count'),
  }),
});

/** GET /api/practice/exams/:slug/result: every question with the child's answer and the right one. */
export const practiceResultResponseSchema = z.object({
  success: z.literal(true),
  children: examChildSchema,
  data: z.object({
    slug: z.string(),
    child_id: z.number().int(),
    prediction: z.number().int().nullable(),
    data_questions: z.array(examQuestionSchema),
    data_result: z.array(examResultItemSchema),
    data_answers: z.array(examAnswerSchema),
    ...intFields('correct_count', 'question_count', 'duration_seconds'),
    start_time: isoDateTime,
    submitted_at: isoDateTime,
  }),
});

export type PracticeStatusResponse = z.infer<typeof practiceStatusResponseSchema>;
export type PracticeStartResponse = z.infer<typeof practiceStartResponseSchema>;
export type PracticeSaveBody = z.infer<typeof practiceSaveBodySchema>;
export type PracticeSubmitResponse = z.infer<typeof practiceSubmitResponseSchema>;
export type PracticeResultResponse = z.infer<typeof practiceResultResponseSchema>;
