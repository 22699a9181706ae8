// What a child types or a link carries on the exam screen, checked without the schema library:
// the exam screen's chunk stays small on a cheap phone (issue 14). The API's schemas
// (schemas/exams.ts) use these same rules.
import { examMessages, messages } from './messages';

/** Largest prediction the database holds (int4). */
export const PREDICTION_MAX = 2_147_483_647;

/** Why a prediction (question 21: how many exam papers take part) is not acceptable, or undefined. */
export function predictionProblem(value: number): string | undefined {
  if (!Number.isInteger(value)) return messages.predictionInteger;
  if (value < 0) return messages.predictionMin;
  if (value > PREDICTION_MAX) return examMessages.predictionTooLarge;
  return undefined;
}

/**
 * The prediction as typed on the exam screen: '' is "not answered yet" (undefined), anything else
 * must be a whole number >= 0. Returns the number, undefined, or the spec's message.
 */
export function parsePredictionInput(text: string): { value?: number; error?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (!/^[+-]?\d+$/.test(trimmed)) return { error: messages.predictionInteger };
  const value = Number(trimmed);
  const error = predictionProblem(value);
  return error ? { error } : { value };
}

/** Public handle of an exam: base64url, unguessable (see server/features/exams/service.ts: newToken(SLUG_BYTES)). */
export const EXAM_SLUG = { min: 16, max: 64, pattern: /^[A-Za-z0-9_-]+$/ } as const;

export const isExamSlug = (value: unknown): value is string =>
  typeof value === 'string' && value.length >= EXAM_SLUG.min && value.length <= EXAM_SLUG.max && EXAM_SLUG.pattern.test(value);

/**
 * The handle of the screen allowed to write an exam (GET /api/examing answers a new one at each
 * load, issue 20): base64url, opaque to the screen, which only sends it back.
 */
export const EXAM_WRITER = { min: 16, max: 64, pattern: /^[A-Za-z0-9_-]+$/ } as const;

export const isExamWriter = (value: unknown): value is string =>
  typeof value === 'string' && value.length >= EXAM_WRITER.min && value.length <= EXAM_WRITER.max && EXAM_WRITER.pattern.test(value);
