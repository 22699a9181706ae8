// The back office's books and question banks (/api/admin/books, /api/admin/questions): the
// route and the screens' forms share these.
import { z } from 'zod';
import { idSchema } from './common';
import {
  ANSWER_MAX_LENGTH,
  MAX_ANSWERS,
  MIN_ANSWERS,
  normaliseQuestionText,
  normaliseText,
  QUESTION_MAX_LENGTH,
} from '../question-formats/question-text';
import { importResponseSchema } from './admin';
import { seasonParam } from './common';
import { booksMessages } from '../messages/admin';


const text = (required: string, max: number, tooLong: string, normalise: (text: string) => string = normaliseText) =>
  z
    .string({ error: required })
    .transform(normalise)
    .pipe(z.string().min(1, { error: required }).max(max, { error: tooLong }));

/** /api/media/<sha256>.<mp3|m4a|ogg|webm|wav>, as POST /api/admin/questions/audio answers; null for none. */
export const audioPathSchema = z
  .string()
  .regex(/^\/api\/media\/[0-9a-f]{64}\.(mp3|m4a|ogg|webm|wav)$/)
  .nullable();

// Books ---------------------------------------------------------------------------------------
export const bookInputSchema = z.object({
  name: z
    .string({ error: booksMessages.nameRequired })
    .transform(normaliseText)
    .pipe(z.string().min(1, { error: booksMessages.nameRequired }).max(200, { error: booksMessages.nameTooLong })),
  author: z.string().transform(normaliseText).pipe(z.string().max(200, { error: booksMessages.authorTooLong })).default(''),
  class_group_id: idSchema(booksMessages.groupRequired),
});
export type BookInput = z.input<typeof bookInputSchema>;

export const bookSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  author: z.string(),
  /** The cover's public path: /images/books/... (seed) or /api/media/... (uploaded). */
  image: z.string(),
  position: z.number().int(),
  class_group_id: z.number().int(),
  class_group_name: z.string(),
  /** Questions a real exam can draw (practice questions excluded). */
  question_count: z.number().int(),
  /** Practice questions ("Thi thử", never drawn in a real exam). */
  practice_count: z.number().int(),
  exam_count: z.number().int(),
});
export type AdminBook = z.infer<typeof bookSchema>;

/** `season`: an earlier season's books, read-only (issue 26); none: the current season's. */
export const bookListQuerySchema = z.object({ q: z.string().trim().max(200).optional(), season: seasonParam });

/** The season of a book list or book: an earlier one (not current) is read-only. */
export const bookSeasonSchema = z.object({ id: z.number().int(), name: z.string(), is_current: z.boolean() });
export type BookSeason = z.infer<typeof bookSeasonSchema>;

/** Every book (a season has a handful), with what an exam draws from each bank. */
export const bookListResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    items: z.array(bookSchema),
    /** questions_per_exam of the season (0 when there is none). */
    questions_per_exam: z.number().int(),
    /** The season listed (null: no current season). */
    season: bookSeasonSchema.nullable(),
  }),
});

export const bookResponseSchema = z.object({
  success: z.literal(true),
  data: bookSchema.extend({
    questions_per_exam: z.number().int(),
    /** The exam window is open and exams use the book: its questions cannot be edited or deleted (new ones can be added). */
    questions_frozen: z.boolean(),
    /** The book's season: an earlier one is read-only (writes answer 409 season_read_only). */
    season: bookSeasonSchema,
  }),
});

export const bookIdParamsSchema = z.object({ bookId: idSchema() });

// Questions -----------------------------------------------------------------------------------
export const answerInputSchema = z.object({
  value: text(booksMessages.answerRequired, ANSWER_MAX_LENGTH, booksMessages.answerTooLong),
  audio: audioPathSchema.default(null),
});

/** A question as the editor sends it: 2 to 4 answers, `correct` the index of the right one. */
export const questionInputSchema = z
  .object({
    value: text(booksMessages.questionRequired, QUESTION_MAX_LENGTH, booksMessages.questionTooLong, normaliseQuestionText),
    audio: audioPathSchema.default(null),
    /** A practice question: only in the practice round, never drawn in a real exam. */
    is_practice: z.boolean().default(false),
    answers: z.array(answerInputSchema).min(MIN_ANSWERS, { error: booksMessages.answerCount }).max(MAX_ANSWERS, { error: booksMessages.answerCount }),
    // A radio group: "" or null while none is chosen (which coercion would turn into 0).
    correct: z.preprocess(
      (value) => (value === '' || value === null ? undefined : value),
      z.coerce.number({ error: booksMessages.correctRequired }).int({ error: booksMessages.correctRequired }).min(0, { error: booksMessages.correctRequired }),
    ),
  })
  .superRefine((question, ctx) => {
    if (question.correct >= question.answers.length) ctx.addIssue({ code: 'custom', path: ['correct'], message: booksMessages.correctRequired });
    const seen = new Set<string>();
    question.answers.forEach((answer, i) => {
      if (seen.has(answer.value)) ctx.addIssue({ code: 'custom', path: ['answers', i, 'value'], message: booksMessages.sameAnswers });
      seen.add(answer.value);
    });
  });
export type QuestionInput = z.input<typeof questionInputSchema>;
export type QuestionData = z.output<typeof questionInputSchema>;

export const adminQuestionSchema = z.object({
  id: z.number().int(),
  value: z.string(),
  audio: z.string().nullable(),
  is_practice: z.boolean(),
  answers: z.array(z.object({ id: z.number().int(), value: z.string(), audio: z.string().nullable(), is_correct: z.boolean() })),
});
export type AdminQuestion = z.infer<typeof adminQuestionSchema>;

export const questionIdParamsSchema = z.object({ questionId: idSchema() });

export const questionResponseSchema = z.object({ success: z.literal(true), data: adminQuestionSchema });

/** POST /api/admin/books/{bookId}/cover and /api/admin/questions/audio: where the file is served. */
export const mediaPathResponseSchema = z.object({ success: z.literal(true), data: z.object({ path: z.string() }) });

const questionFileNoteSchema = z.object({ row: z.number().int(), message: z.string() });

/** The question import's answer: also what `replace` removes from the bank. */
export const questionImportResponseSchema = importResponseSchema({
  deleted: z.number().int(),
  mode: z.enum(['append', 'replace']),
  /** aiken, gift, xlsx or csv: what the file was read as. */
  format: z.string(),
  /** A text file's questions of other types (essay, matching...), left out: the first 200 by row, and how many. */
  skipped: z.array(questionFileNoteSchema),
  skipped_total: z.number().int(),
  /** What imported questions lost (a link to a media file, not in the file): the first 200, and how many. */
  warnings: z.array(questionFileNoteSchema),
  warnings_total: z.number().int(),
  /** The file's questions as read (the first 200 by row), with their key (index in `answers`) and whether the bank has them already. */
  questions: z.array(z.object({ row: z.number().int(), value: z.string(), answers: z.array(z.string()), correct: z.number().int(), in_bank: z.boolean() })),
  questions_total: z.number().int(),
});
export type QuestionImportData = z.infer<typeof questionImportResponseSchema>['data'];

// Its messages live with every other in shared/messages/ (admin.ts); exported here too for the screens that import them with the schemas.
export { booksMessages };
