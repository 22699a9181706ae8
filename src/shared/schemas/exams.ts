// Request and response schemas of the exam API (spec sections 2, 3, 7). The response schemas are
// the list of what may leave the server: during an exam nothing that reveals a correct answer.
import { z } from 'zod';
import { examMessages, messages } from '../messages';
import { idParam, intFields } from './common';
import { EXAM_SLUG, EXAM_WRITER, PREDICTION_MAX } from '../exam-input';

export { PREDICTION_MAX, parsePredictionInput } from '../exam-input';

/**
 * The prediction question (21): how many exam papers take part. Integer, at least 0. The same rule
 * as predictionProblem (exam-input.ts, the exam screen's, without the schema library), written as
 * a chain so that the JSON schema (OpenAPI, the save path's compiled check) states it too;
 * exam-input.test.ts holds the two together.
 */
export const predictionSchema = z
  .number({ error: messages.predictionInteger })
  .int({ error: messages.predictionInteger })
  .min(0, { error: messages.predictionMin })
  .max(PREDICTION_MAX, { error: examMessages.predictionTooLarge });

/** Public handle of an exam: base64url, unguessable (see server/features/exams/service.ts: newToken(SLUG_BYTES)). */
export const examSlugSchema = z
  .string({ error: messages.missingParameter('slug') })
  .min(EXAM_SLUG.min, { error: messages.missingParameter('slug') })
  .max(EXAM_SLUG.max, { error: messages.missingParameter('slug') })
  .regex(EXAM_SLUG.pattern, { error: messages.missingParameter('slug') });

/**
 * The handle of the screen that loaded the exam last, the only one whose saves and submit are
 * accepted (issue 20, docs/decisions/010-one-writer-per-exam.md). Opaque: the screen sends back
 * what GET /api/examing gave it.
 */
export const examWriterSchema = z
  .string({ error: messages.missingParameter('writer') })
  .min(EXAM_WRITER.min, { error: messages.missingParameter('writer') })
  .max(EXAM_WRITER.max, { error: messages.missingParameter('writer') })
  .regex(EXAM_WRITER.pattern, { error: messages.missingParameter('writer') });

const isoDateTime = z.string();

// Books ---------------------------------------------------------------------------------------

export const childBooksParamsSchema = z.object({ id: idParam('id') });
export const examBookSchema = z.object({ id: z.number().int(), name: z.string(), image: z.string(), author: z.string() });
/** GET /api/children/:id/books */
export const childBooksResponseSchema = z.object({ success: z.literal(true), data: z.array(examBookSchema) });

// Start ---------------------------------------------------------------------------------------

export const startExamBodySchema = z.object({ book_id: idParam('book_id'), child_id: idParam('child_id') });
/** POST /api/start-exam, a new exam (200). An exam in progress answers 409 with doing: true. */
export const startExamResponseSchema = z.object({
  success: z.literal(true),
  doing: z.literal(false),
  message: z.string(),
  slug: z.string(),
  ...intFields('exam_id', 'book_id', 'child_id'),
  start_time: isoDateTime,
  end_time: isoDateTime,
});

// Taking the exam -----------------------------------------------------------------------------

/** `audio`: the organiser's recorded clip (/api/media/...), read instead of the device's voice. */
export const examAnswerOptionSchema = z.object({ id: z.number().int(), value: z.string(), audio: z.string().optional() });
/** A question as the contestant sees it: no correct flag (z.object strips anything else). */
export const examQuestionSchema = z.object({ id: z.number().int(), value: z.string(), audio: z.string().optional(), answers: z.array(examAnswerOptionSchema) });
export const examAnswerSchema = z.object({
  question_id: z.number({ error: messages.invalidInput }).int({ error: messages.invalidInput }).positive({ error: messages.invalidInput }),
  answer_id: z.number({ error: messages.invalidInput }).int({ error: messages.invalidInput }).positive({ error: messages.invalidInput }),
});
export const examChildSchema = z.object({ id: z.number().int(), fullname: z.string() });

export const examingQuerySchema = z.object({
  book_id: idParam('book_id'),
  child_id: idParam('child_id'),
  slug_exam: examSlugSchema,
});
export const examingResponseSchema = z.object({
  success: z.literal(true),
  not_found: z.literal(false),
  submited: z.literal(false),
  message: z.string(),
  children: examChildSchema,
  data: z.object({
    id: z.number().int(),
    slug: z.string(),
    status: z.literal(2),
    attempt: z.number().int(),
    book: z.object({ id: z.number().int(), name: z.string() }),
    prediction: z.number().int().nullable(),
    data_questions: z.array(examQuestionSchema),
    data_answers: z.array(examAnswerSchema),
    /** Highest save sequence number the server applied (the client continues above it). */
    save_seq: z.number().int(),
    start_time: isoDateTime,
    end_time: isoDateTime,
    /** The server's clock when it answered: the client corrects its own clock with it. */
    server_time: isoDateTime,
    duration_seconds: z.number().int(),
    /**
     * New at each load: this screen is now the exam's only writer, and the handle it had before
     * (on this or another device) stops being valid. Sent back with every save and the submit.
     */
    writer: z.string(),
  }),
});

export const examTimeQuerySchema = z.object({ exam_id: idParam('exam_id') });
export const examTimeResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    start_time: isoDateTime,
    end_time: isoDateTime,
    server_time: isoDateTime,
    status: z.union([z.literal(1), z.literal(2)]),
  }),
});

export const saveAnswersBodySchema = z.object({
  exam_id: idParam('exam_id'),
  slug: examSlugSchema,
  answers: z.array(examAnswerSchema).max(200, { error: messages.invalidInput }),
  prediction: predictionSchema.nullable().optional(),
  /** Client sequence number, increasing with every change: an older save never overwrites a newer one. */
  seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /**
   * The writer handle of the screen (GET /api/examing). When given and no longer the exam's
   * current one (another screen loaded the exam since), the answer is 409 exam_open_elsewhere and
   * nothing is stored. Without it, the save is accepted as from any screen of the owner.
   */
  writer: examWriterSchema.optional(),
});
/** POST /api/store-answers-exam */
export const saveAnswersResponseSchema = z.object({
  success: z.literal(true),
  /** false when the save was older than one already applied (stale) and so ignored. */
  saved: z.boolean(),
  stale: z.boolean(),
  save_seq: z.number().int(),
  server_time: isoDateTime,
});

export const submitExamBodySchema = saveAnswersBodySchema;
export const submitExamResponseSchema = z.object({
  success: z.literal(true),
  submited: z.literal(true),
  /** true when the exam had already been submitted (or finalised by the server): nothing changed. */
  already_submitted: z.boolean(),
  message: z.string(),
  data: z.object({
    id: z.number().int(),
    slug: z.string(),
    ...intFields('child_id', 'points', 'time_complete_minutes', 'time_complete_seconds'),
  }),
});

// Result --------------------------------------------------------------------------------------

export const examResultQuerySchema = z.object({ slug: examSlugSchema });
export const examResultItemSchema = z.object({
  question_id: z.number().int(),
  answer_id_user: z.number().int().nullable(),
  answer_id_correct: z.number().int().nullable(),
  /** The answers counted right: the key, or those a regrade accepts (issue 13). */
  answer_ids_correct: z.array(z.number().int()),
  /**
   * Whether this question earned the point (a regrade may give it to every answer). Null, like
   * the correct answers and the regrade note, while the season holds the keys back (issue 40):
   * with the answer given, it would tell the key.
   */
  is_correct: z.boolean().nullable(),
  /** Set when the organiser regraded the question after a wrong key: what changed, in words. */
  regrade_note: z.string().nullable(),
});
export const examResultResponseSchema = z.object({
  success: z.literal(true),
  children: examChildSchema,
  data: z.object({
    id: z.number().int(),
    slug: z.string(),
    attempt: z.number().int(),
    child_id: z.number().int(),
    book: z.object({ id: z.number().int(), name: z.string() }),
    prediction: z.number().int().nullable(),
    data_questions: z.array(examQuestionSchema),
    data_result: z.array(examResultItemSchema),
    data_answers: z.array(examAnswerSchema),
    ...intFields('points', 'correct_count', 'duration_seconds', 'time_complete_minutes', 'time_complete_seconds'),
    start_time: isoDateTime,
    submitted_at: isoDateTime,
    /** When the correct answers will show (the exam window's close), while the season holds them back; else null. */
    correct_answers_at: isoDateTime.nullable(),
  }),
});

export type ExamBook = z.infer<typeof examBookSchema>;
export type StartExamResponse = z.infer<typeof startExamResponseSchema>;
export type ExamQuestionView = z.infer<typeof examQuestionSchema>;
export type ExamAnswer = z.infer<typeof examAnswerSchema>;
export type ExamingResponse = z.infer<typeof examingResponseSchema>;
export type ExamTimeResponse = z.infer<typeof examTimeResponseSchema>;
export type SaveAnswersBody = z.infer<typeof saveAnswersBodySchema>;
export type SaveAnswersResponse = z.infer<typeof saveAnswersResponseSchema>;
export type SubmitExamResponse = z.infer<typeof submitExamResponseSchema>;
export type ExamResultResponse = z.infer<typeof examResultResponseSchema>;
