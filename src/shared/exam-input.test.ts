import { describe, expect, it } from 'vitest';
import { examSlugSchema, examWriterSchema, predictionSchema } from './schemas/exams';
import { isExamSlug, isExamWriter, parsePredictionInput, PREDICTION_MAX, predictionProblem } from './exam-input';

describe('the exam screen’s checks agree with the API’s schemas', () => {
  it('prediction', () => {
    for (const value of [0, 1, 1500, PREDICTION_MAX, PREDICTION_MAX + 1, -1, 2.5, Number.NaN]) {
      const parsed = predictionSchema.safeParse(value);
      expect(predictionProblem(value), String(value)).toBe(parsed.success ? undefined : parsed.error.issues[0]!.message);
    }
    expect(parsePredictionInput(' 12 ')).toEqual({ value: 12 });
    expect(parsePredictionInput('')).toEqual({});
    expect(parsePredictionInput('-3').error).toBe('Giá trị phải lớn hơn hoặc bằng 0');
  });

  it('exam slug', () => {
    for (const value of ['A'.repeat(15), 'A'.repeat(16), 'abc_DEF-0123456789', 'A'.repeat(64), 'A'.repeat(65), 'abc/def0123456789', '', undefined]) {
      expect(isExamSlug(value), String(value)).toBe(examSlugSchema.safeParse(value).success);
    }
  });

  it('exam writer', () => {
    for (const value of ['A'.repeat(15), 'A'.repeat(16), 'Zx_-0123456789abcdefgh', 'A'.repeat(64), 'A'.repeat(65), 'abc+def0123456789', 'abc=def0123456789', '', 12, null, undefined]) {
      expect(isExamWriter(value), String(value)).toBe(examWriterSchema.safeParse(value).success);
    }
  });
});
