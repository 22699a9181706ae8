import { describe, expect, it } from 'vitest';
import type { SaveAnswersInput } from './repo';
import { createSaveBatcher, type WriteSaves } from './save-batcher';

const save = (examId: number, seq: number | null = 1): SaveAnswersInput => ({
  examId,
  slug: `slug-of-exam-${examId}-xxxxxxxx`,
  tokenHash: 'hash',
  now: new Date('2026-04-02T01:00:00Z'),
  endTimeAtLeast: new Date('2026-04-02T00:59:30Z'),
  answersJson: '{}',
  pairsJson: '[]',
  prediction: null,
  seq,
});

/** A writer whose statements end when the test says so; it records every batch it was given. */
function controlledWriter() {
  const batches: { saves: readonly SaveAnswersInput[]; finish(error?: Error): void }[] = [];
  const write: WriteSaves = (saves) =>
    new Promise((resolve, reject) => {
      batches.push({
        saves,
        finish: (error) => (error ? reject(error) : resolve(new Map(saves.map((s) => [s.examId, s.seq ?? 0])))),
      });
    });
  return { batches, write, examIds: (i: number) => batches[i]!.saves.map((s) => s.examId) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('save batcher', () => {
  it('sends a save at once, alone, when a slot is free', async () => {
    const writer = controlledWriter();
    const batcher = createSaveBatcher(writer.write, { maxInFlight: 2 });
    const result = batcher.save(save(1, 5));
    expect(writer.examIds(0)).toEqual([1]);
    writer.batches[0]!.finish();
    expect(await result).toBe(5);
  });

  it('sends the saves that arrive while every slot is busy together, in one statement', async () => {
    const writer = controlledWriter();
    const batcher = createSaveBatcher(writer.write, { maxInFlight: 1 });
    const results = [1, 2, 3, 4].map((id) => batcher.save(save(id, id * 10)));
    expect(writer.batches).toHaveLength(1);
    writer.batches[0]!.finish();
    await tick();
    expect(writer.examIds(1)).toEqual([2, 3, 4]);
    writer.batches[1]!.finish();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40]);
  });

  it('writes one exam\'s saves one after another, in arrival order, never in the same or concurrent statements', async () => {
    const writer = controlledWriter();
    const batcher = createSaveBatcher(writer.write, { maxInFlight: 4 });
    const first = batcher.save(save(7, 1));
    const second = batcher.save(save(7, 2));
    const other = batcher.save(save(8, 1));
    const third = batcher.save(save(7, 3));
    // Exam 7's first save is being written: its later saves wait; exam 8's leaves in a free slot.
    expect(writer.batches.map((_, i) => writer.examIds(i))).toEqual([[7], [8]]);
    writer.batches[1]!.finish();
    writer.batches[0]!.finish();
    await tick();
    expect(writer.batches[2]!.saves.map((s) => s.seq)).toEqual([2]);
    writer.batches[2]!.finish();
    await tick();
    expect(writer.batches[3]!.saves.map((s) => s.seq)).toEqual([3]);
    writer.batches[3]!.finish();
    expect(await Promise.all([first, second, other, third])).toEqual([1, 2, 1, 3]);
  });

  it('answers undefined for a save whose checks failed (no row), and the others their save_seq', async () => {
    const batcher = createSaveBatcher(async (saves) => new Map(saves.filter((s) => s.examId !== 2).map((s) => [s.examId, 9])), {
      maxInFlight: 1,
    });
    expect(await Promise.all([1, 2, 3].map((id) => batcher.save(save(id))))).toEqual([9, undefined, 9]);
  });

  it('retries each save of a failed statement alone, so that one bad save fails only itself', async () => {
    const written: number[][] = [];
    const batcher = createSaveBatcher(
      async (saves) => {
        written.push(saves.map((s) => s.examId));
        if (saves.some((s) => s.examId === 2)) throw new Error('exam 2 breaks the statement');
        return new Map(saves.map((s) => [s.examId, 1]));
      },
      { maxInFlight: 1 },
    );
    const blocker = batcher.save(save(9));
    const outcomes = await Promise.allSettled([1, 2, 3].map((id) => batcher.save(save(id))));
    await blocker;
    expect(written).toEqual([[9], [1, 2, 3], [1], [2], [3]]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('puts no more than maxBatch saves in one statement', async () => {
    const writer = controlledWriter();
    const batcher = createSaveBatcher(writer.write, { maxInFlight: 1, maxBatch: 3 });
    const results = Array.from({ length: 8 }, (_, i) => batcher.save(save(i + 1)));
    for (let i = 0; i < 4; i += 1) {
      writer.batches[i]!.finish();
      await tick();
    }
    expect(writer.batches.map((b) => b.saves.length)).toEqual([1, 3, 3, 1]);
    expect(await Promise.all(results)).toHaveLength(8);
  });
});
