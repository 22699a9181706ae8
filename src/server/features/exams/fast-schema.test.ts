import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seededRandom } from '../../lib/seeded-random';
import { examTimeQuerySchema, saveAnswersBodySchema, saveAnswersResponseSchema } from '../../../shared/schemas/exams';
import { compileAsIsCheck, fastIdQueryCompiler, fastSerializerCompiler, fastValidatorCompiler } from './fast-schema';
import { answerPairs } from './repo';

const bodyCheck = compileAsIsCheck(saveAnswersBodySchema);
const slug = 'AbCdEfGhIjKlMnOpQrStUvWx';
const answer = (question_id: unknown, answer_id: unknown) => ({ question_id, answer_id });

// Bodies around every rule of the schema: the fast check may only accept what Zod accepts, with the
// same values for every field the route reads.
const bodies: unknown[] = [
  { exam_id: 1, slug, answers: [] },
  { exam_id: 1, slug, answers: [answer(1, 2)], prediction: 0, seq: 0 },
  { exam_id: 1, slug, answers: [answer(1, 2)], prediction: null, seq: 7 },
  { exam_id: 2_147_483_647, slug, answers: [answer(9_007_199_254_740_991, 1)], prediction: 2_147_483_647, seq: Number.MAX_SAFE_INTEGER },
  { exam_id: 2_147_483_648, slug, answers: [] },
  { exam_id: '12', slug, answers: [] },
  { exam_id: 0, slug, answers: [] },
  { exam_id: 1.5, slug, answers: [] },
  { exam_id: -1, slug, answers: [] },
  { exam_id: 1, slug: 'short', answers: [] },
  { exam_id: 1, slug: 'x'.repeat(65), answers: [] },
  { exam_id: 1, slug: 'AbCdEfGhIjKlMnOp/rStUvWx', answers: [] },
  { exam_id: 1, slug: 'AbCdEfGhIjKlMnOpQrStUvWé', answers: [] },
  { exam_id: 1, slug, answers: Array.from({ length: 200 }, (_, i) => answer(i + 1, 1)) },
  { exam_id: 1, slug, answers: Array.from({ length: 201 }, (_, i) => answer(i + 1, 1)) },
  { exam_id: 1, slug, answers: [answer(1, 0)] },
  { exam_id: 1, slug, answers: [answer('1', 2)] },
  { exam_id: 1, slug, answers: [answer(1, 2.5)] },
  { exam_id: 1, slug, answers: [{ question_id: 1 }] },
  { exam_id: 1, slug, answers: [null] },
  { exam_id: 1, slug, answers: {} },
  { exam_id: 1, slug, answers: [], prediction: -1 },
  { exam_id: 1, slug, answers: [], prediction: 1.5 },
  { exam_id: 1, slug, answers: [], prediction: '5' },
  { exam_id: 1, slug, answers: [], prediction: 2_147_483_648 },
  { exam_id: 1, slug, answers: [], seq: -1 },
  { exam_id: 1, slug, answers: [], seq: null },
  { exam_id: 1, slug, answers: [], seq: 1.5 },
  { exam_id: 1, slug, answers: [], extra: 'ignored' },
  { exam_id: 1, slug, answers: [answer(1, 2)], seq: 3, writer: 'Zx_-0123456789abcdefgh' },
  { exam_id: 1, slug, answers: [], writer: 'short' },
  { exam_id: 1, slug, answers: [], writer: 'x'.repeat(65) },
  { exam_id: 1, slug, answers: [], writer: 'Zx+/0123456789abcdefgh' },
  { exam_id: 1, slug, answers: [], writer: null },
  { exam_id: 1, slug, answers: [], writer: 12 },
  { slug, answers: [] },
  { exam_id: 1, answers: [] },
  { exam_id: 1, slug },
  [],
  null,
  'text',
];

const readFields = (body: Record<string, unknown>) => ({
  exam_id: body.exam_id,
  slug: body.slug,
  answers: (body.answers as { question_id: number; answer_id: number }[]).map(({ question_id, answer_id }) => ({ question_id, answer_id })),
  prediction: body.prediction ?? null,
  seq: body.seq ?? null,
  writer: body.writer,
});

describe('fast check of the autosave body', () => {
  it('accepts only what Zod accepts, with the values Zod gives', () => {
    let accepted = 0;
    for (const body of bodies) {
      if (!bodyCheck(body)) continue;
      accepted += 1;
      const parsed = saveAnswersBodySchema.safeParse(body);
      expect(parsed.success, JSON.stringify(body)).toBe(true);
      expect(readFields(body as Record<string, unknown>)).toEqual(readFields(parsed.data as Record<string, unknown>));
    }
    expect(accepted).toBe(6);
  });

  it('accepts random well-formed bodies exactly when Zod does', () => {
    // A seeded generator (mulberry32): the same 2,000 bodies on every run, so a failure reproduces.
    const random = seededRandom(0x5eed);
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
    const numbers = [0, 1, 2, 5, 1.5, -1, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER, 2 ** 53];
    for (let i = 0; i < 2000; i += 1) {
      const body: Record<string, unknown> = {
        exam_id: pick(numbers),
        slug: pick([slug, 'a'.repeat(15), 'a'.repeat(16), 'a'.repeat(64), 'a'.repeat(65), 'a b'.repeat(8)]),
        answers: Array.from({ length: pick([0, 1, 3]) }, () => answer(pick(numbers), pick(numbers))),
      };
      if (random() < 0.5) body.prediction = pick([...numbers, null]);
      if (random() < 0.5) body.seq = pick(numbers);
      if (random() < 0.3) body.writer = pick([slug, 'a'.repeat(15), 'a'.repeat(65), 'a b'.repeat(8), null, 7]);
      expect(bodyCheck(body), JSON.stringify(body)).toBe(saveAnswersBodySchema.safeParse(body).success);
    }
  });

  it('leaves bad or unusual bodies to Zod, with its messages and coercions', () => {
    const validator = fastValidatorCompiler(saveAnswersBodySchema)({ schema: saveAnswersBodySchema, method: 'POST', url: '/', httpPart: 'body' });
    const coerced = validator({ exam_id: '12', slug, answers: [] }) as { value: { exam_id: number } };
    expect(coerced.value.exam_id).toBe(12);
    const refused = validator({ exam_id: 1, slug, answers: [], prediction: -1 }) as { error: { message: string }[] };
    expect(refused.error[0]!.message).toBe(saveAnswersBodySchema.safeParse({ exam_id: 1, slug, answers: [], prediction: -1 }).error!.issues[0]!.message);
  });

  it('refuses a schema it does not understand when the route is built', () => {
    expect(() => fastValidatorCompiler(z.object({ when: z.iso.datetime() }))).toThrow(/unsupported/);
  });
});

describe('fast check of the re-sync query string', () => {
  const validator = fastIdQueryCompiler(examTimeQuerySchema)({ schema: examTimeQuerySchema, method: 'GET', url: '/', httpPart: 'querystring' }) as (
    data: unknown,
  ) => { value?: unknown; error?: { message: string }[] };
  const values = ['1', '12', '0', '007', '2147483647', '2147483648', '9999999999', '99999999999', '-1', '+1', ' 1', '1 ', '1e3', '0x10', '1.0', '', 'abc', '١٢'];
  const queries: unknown[] = [
    ...values.map((exam_id) => ({ exam_id })),
    ...values.map((exam_id) => Object.assign(Object.create(null), { exam_id })),
    { exam_id: ['1', '2'] },
    { exam_id: '1', extra: '2' },
    { other: '1' },
    {},
    null,
  ];

  it('gives exactly what Zod gives, value or refusal with its message', () => {
    for (const query of queries) {
      const parsed = examTimeQuerySchema.safeParse(query);
      const answer = validator(query);
      if (parsed.success) expect(answer.value, JSON.stringify(query)).toEqual(parsed.data);
      else expect(answer.error?.[0]?.message, JSON.stringify(query)).toBe(parsed.error.issues[0]!.message);
    }
  });

  it('refuses a schema whose fields are not ids when the route is built', () => {
    expect(() => fastIdQueryCompiler(z.object({ exam_id: z.string() }))).toThrow(/not an id/);
    expect(() => fastIdQueryCompiler(z.object({ exam_id: z.coerce.number() }))).toThrow(/not an id/);
  });
});

describe('fast serializer of the autosave reply', () => {
  const serialize = fastSerializerCompiler(saveAnswersResponseSchema)({ schema: saveAnswersResponseSchema, method: 'POST', url: '/', httpPart: 'response' });
  const reply = { success: true, saved: true, stale: false, save_seq: 3, server_time: '2025-04-02T01:00:00.000Z' };

  it('writes an exact reply as it is', () => {
    expect(JSON.parse(serialize(reply))).toEqual(reply);
  });

  it('strips what the schema does not list, as Zod does', () => {
    expect(JSON.parse(serialize({ ...reply, secret: 'x' }))).toEqual(reply);
  });
});

describe('answer pairs of a save', () => {
  it('encodes question_id * 2^32 + answer_id exactly for every int4 id', () => {
    const ids = [1, 2, 9, 10, 999_999_999, 1_000_000_000, 2 ** 21, 30_000_000, 294_967_296, 2_147_483_647];
    for (const q of ids) {
      for (const a of ids) expect(answerPairs([{ question_id: q, answer_id: a }]).pairs).toBe(`[${BigInt(q) * 4294967296n + BigInt(a)}]`);
    }
  });

  it('gives the JSON object and the JSON list of pairs, refuses a question twice, and flags ids beyond int4', () => {
    expect(answerPairs([answer(3, 7) as never, answer(1, 2) as never])).toEqual({ json: '{"3":7,"1":2}', pairs: '[12884901895,4294967298]' });
    expect(answerPairs([])).toEqual({ json: '{}', pairs: '[]' });
    expect(answerPairs([answer(3, 7) as never, answer(3, 8) as never])).toEqual({ problem: 'duplicate' });
    expect(answerPairs([answer(2_147_483_648, 1) as never])).toEqual({ problem: 'foreign' });
  });
});
