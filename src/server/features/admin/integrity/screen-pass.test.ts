// The screening pass shared among several worker threads (screen.ts): dealt by school group, the
// cross-school pairs' exams kept by the first pass, its result is the single pass's.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../lib/seeded-random';
import type { PassRow } from './repo';
import { combineParts, groupDealer, screeningPass, type PassInput, type ScreeningResult } from './screen-pass';
import { bandOf, type ResponseCell } from './similarity';


/** Fisher-Yates. */
function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const copy = [...items];
  for (let k = copy.length - 1; k > 0; k -= 1) {
    const j = Math.floor(next() * (k + 1));
    [copy[k], copy[j]] = [copy[j]!, copy[k]!];
  }
  return copy;
}

const QUESTIONS = Array.from({ length: 30 }, (_, i) => i + 1);
/** Question q's answers are 10q+1 … 10q+4, the key 10q+1. */
const answersOf = (q: number) => [1, 2, 3, 4].map((k) => 10 * q + k);

interface Drawn {
  row: PassRow;
  answers: Record<string, number>;
  times: Record<string, number>;
  order: number[];
  start: number;
}

/**
 * Four schools of one book, twelve pupils each (a login each, every pupil its own account but the
 * cross-school siblings 100 and 300); each exam 20 of the 30 questions in its own order, 35 s a
 * question, at its own hour. Planted: pupil 105 copies 104 in step (same class); pupil 300 (school
 * 3) copies its sibling 100 (school 1) in step; exam of pupil 207 answered 2 s a question, mostly right.
 */
function province(): PassRow[] {
  const next = seededRandom(7);
  const drawn = new Map<number, Drawn>();
  let id = 0;
  for (const school of [1, 2, 3, 4]) {
    for (let k = 0; k < 12; k += 1) {
      const contestant = school * 100 + k;
      const order = shuffled(QUESTIONS, next).slice(0, 20);
      // The fast exam is mostly right (fast guessing is not flagged).
      const ability = contestant === 207 ? 0.95 : 0.3 + 0.4 * next();
      const answers: Record<string, number> = {};
      for (const q of order) answers[q] = next() < ability ? 10 * q + 1 : 10 * q + 2 + Math.floor(next() * 3);
      const start = 1_700_000_000 + Math.floor(next() * 30) * 3600;
      const pace = contestant === 207 ? 2 : 35;
      const times: Record<string, number> = { s: contestant };
      order.forEach((q, i) => (times[`${q}:${answers[q]}`] = start + pace * (i + 1)));
      id += 1;
      const row: PassRow = {
        id,
        contestant_id: contestant,
        user_id: contestant === 300 ? 100 : contestant,
        book_id: 1,
        school_id: school,
        class_key: 'A',
        correct_count: 0,
        start_s: start,
        submit_s: start + 900,
        answer_key: JSON.stringify(Object.fromEntries(order.map((q) => [q, 10 * q + 1]))),
        answers: '',
        answer_times: '',
      };
      drawn.set(contestant, { row, answers, times, order, start });
    }
  }
  // In step: the copier starts with the source and gives the source's answer 8 s after it on every common question.
  for (const [source, copier] of [
    [104, 105],
    [100, 300],
  ] as const) {
    const s = drawn.get(source)!;
    const c = drawn.get(copier)!;
    c.start = s.start;
    c.row.start_s = s.start;
    c.times = { s: copier };
    c.order.forEach((q, i) => {
      if (q in s.answers) c.answers[q] = s.answers[q]!;
      const sourceAt = s.times[`${q}:${s.answers[q]}`];
      c.times[`${q}:${c.answers[q]}`] = sourceAt === undefined ? c.start + 35 * (i + 1) + 17 : sourceAt + 8;
    });
  }
  return [...drawn.values()].map(({ row, answers, times }) => {
    const correct = Object.entries(answers).filter(([q, a]) => a === 10 * Number(q) + 1).length;
    return { ...row, correct_count: correct, answers: JSON.stringify(answers), answer_times: JSON.stringify(times) };
  });
}

/** The model's counts of the province (what repo.responseCells aggregates). */
function cellsOf(rows: readonly PassRow[]): ResponseCell[] {
  const counts = new Map<string, ResponseCell>();
  for (const row of rows) {
    const answers = JSON.parse(row.answers) as Record<string, number>;
    for (const q of Object.keys(JSON.parse(row.answer_key) as Record<string, number>)) {
      const cell = { questionId: Number(q), band: bandOf(row.correct_count), answerId: answers[q] ?? null, count: 0 };
      const key = `${cell.questionId}:${cell.band}:${cell.answerId}`;
      (counts.get(key) ?? counts.set(key, cell).get(key)!).count += 1;
    }
  }
  return [...counts.values()];
}

/** The run over `passes` passes, the rows streamed in pages of 7 as screen.ts deals them. */
function run(rows: readonly PassRow[], passes: number, crossPairs: { a: number; b: number }[]): ScreeningResult {
  const keep = new Set(crossPairs.flatMap((pair) => [pair.a, pair.b]));
  const input: Omit<PassInput, 'keep'> = { cells: cellsOf(rows), bank: QUESTIONS.map((q) => [q, answersOf(q)]), familyRate: 0.01 };
  const all = Array.from({ length: passes }, (_, k) => screeningPass({ ...input, keep: k === 0 ? [...keep] : [] }));
  const deal = groupDealer(passes, keep);
  for (let i = 0; i < rows.length; i += 7) {
    deal(rows.slice(i, i + 7)).forEach((share, k) => {
      all[k]!.addRows(share.rows);
      all[k]!.addKept(share.kept);
    });
  }
  return combineParts(
    all.map((pass, k) => pass.finish(k === 0 ? crossPairs : [])),
    0.01,
  );
}

/** A result with its lists in a fixed order (the parts' order differs). */
const sorted = (result: ScreeningResult) => ({
  ...result,
  flags: [...result.flags].sort((x, y) => x.exam_id - y.exam_id || (x.other_exam_id ?? 0) - (y.other_exam_id ?? 0)),
  candidates: [...result.candidates].sort((x, y) => x.a - y.a || x.b - y.b || x.test.localeCompare(y.test)),
});

describe('the screening pass over several worker threads', () => {
  const rows = province();
  const exam = (contestant: number) => rows.find((row) => row.contestant_id === contestant)!.id;
  const crossPairs = [{ a: exam(100), b: exam(300) }];

  it('finds the planted copies across and within schools and the fast exam, and nothing else', () => {
    const result = run(rows, 1, crossPairs);
    expect(result.exams).toBe(48);
    const pairs = result.flags.filter((flag) => flag.kind === 'similarity').map((flag) => [flag.contestant_id, flag.other_contestant_id]);
    expect(pairs.sort((x, y) => x[0]! - y[0]!)).toEqual([
      [100, 300],
      [104, 105],
    ]);
    expect(result.flags.filter((flag) => flag.kind === 'speed').map((flag) => flag.contestant_id)).toEqual([207]);
  });

  it('gives the same result dealt over two, three or four passes', () => {
    const one = sorted(run(rows, 1, crossPairs));
    for (const passes of [2, 3, 4]) expect(sorted(run(rows, passes, crossPairs))).toEqual(one);
  });

  it('deals each school group whole, in turn, and the cross-school exams of other passes to the first as kept', () => {
    const deal = groupDealer(3, new Set([exam(300)]));
    const shares = deal(rows);
    expect(shares.map((share) => [...new Set(share.rows.map((row) => row.school_id))])).toEqual([[1, 4], [2], [3]]);
    expect(shares[0]!.kept.map((row) => row.id)).toEqual([exam(300)]);
  });
});
