import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../lib/errors';
import type { SaveAnswersInput } from './repo';
import { createSaveBatcher, type SaveRejection, type WriteSaves } from './save-batcher';

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

/** An error like pg's when the server ends the connection (SQLSTATE 57P01, admin shutdown). */
const connectionLost = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

/** The 503 of the app: status and code only (the message is the shared Vietnamese one). */
const expect503 = (outcome: PromiseSettledResult<unknown>) => {
  expect(outcome.status).toBe('rejected');
  const reason = (outcome as PromiseRejectedResult).reason;
  expect(reason).toBeInstanceOf(AppError);
  expect(reason).toMatchObject({ status: 503, code: 'service_unavailable' });
};

describe('save batcher limits', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers 503 at once to a save that finds the queue full, and still writes those queued', async () => {
    const writer = controlledWriter();
    const rejections: SaveRejection[] = [];
    const batcher = createSaveBatcher(writer.write, {
      maxInFlight: 1,
      queueLimit: 2,
      observer: { saveRejected: (reason) => rejections.push(reason) },
    });
    const inStatement = batcher.save(save(1));
    const queued = [batcher.save(save(2)), batcher.save(save(3))];
    expect(batcher.queueLength).toBe(2);
    const [refused] = await Promise.allSettled([batcher.save(save(4))]);
    expect503(refused!);
    expect(rejections).toEqual(['queue_full']);
    writer.batches[0]!.finish();
    await tick();
    expect(writer.examIds(1)).toEqual([2, 3]);
    writer.batches[1]!.finish();
    expect(await Promise.all([inStatement, ...queued])).toEqual([1, 1, 1]);
  });

  it('answers 503 to a save still queued at its deadline, never to one whose statement is running', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const writer = controlledWriter();
    const rejections: SaveRejection[] = [];
    const batcher = createSaveBatcher(writer.write, {
      maxInFlight: 1,
      queueTimeoutMs: 1000,
      observer: { saveRejected: (reason) => rejections.push(reason) },
    });
    const inStatement = batcher.save(save(1, 7));
    const early = batcher.save(save(2)).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(600);
    const late = batcher.save(save(3)).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(400);
    // The first queued save's deadline passed; the later one still has 600 ms.
    expect(await early).toMatchObject({ status: 503 });
    expect(rejections).toEqual(['queue_timeout']);
    expect(batcher.queueLength).toBe(1);
    await vi.advanceTimersByTimeAsync(600);
    expect(await late).toMatchObject({ status: 503 });
    expect(batcher.queueLength).toBe(0);
    // The save in its statement waited 1.6 s, far past the deadline: it gets its real answer.
    await vi.advanceTimersByTimeAsync(10_000);
    writer.batches[0]!.finish();
    expect(await inStatement).toBe(7);
    expect(writer.batches).toHaveLength(1);
    expect(rejections).toEqual(['queue_timeout', 'queue_timeout']);
  });

  it('answers 503 to every save of a batch whose connection was lost, without retrying them one by one', async () => {
    const written: number[][] = [];
    const rejections: SaveRejection[] = [];
    const batcher = createSaveBatcher(
      async (saves) => {
        written.push(saves.map((s) => s.examId));
        if (saves.length > 1) throw connectionLost();
        return new Map(saves.map((s) => [s.examId, 1]));
      },
      { maxInFlight: 1, observer: { saveRejected: (reason) => rejections.push(reason) } },
    );
    const blocker = batcher.save(save(9));
    const outcomes = await Promise.allSettled([1, 2, 3].map((id) => batcher.save(save(id))));
    await blocker;
    expect(written).toEqual([[9], [1, 2, 3]]);
    outcomes.forEach(expect503);
    expect(rejections).toEqual(['connection_lost', 'connection_lost', 'connection_lost']);
  });

  it('stops the save-by-save retry when the connection is lost during it: the rest are answered 503 unsent', async () => {
    const written: number[][] = [];
    const batcher = createSaveBatcher(
      async (saves) => {
        written.push(saves.map((s) => s.examId));
        if (saves.length > 1) throw new Error('exam 2 breaks the statement');
        if (saves[0]!.examId === 2) throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
        return new Map(saves.map((s) => [s.examId, 1]));
      },
      { maxInFlight: 1 },
    );
    const blocker = batcher.save(save(9));
    const outcomes = await Promise.allSettled([1, 2, 3].map((id) => batcher.save(save(id))));
    await blocker;
    expect(written).toEqual([[9], [1, 2, 3], [1], [2]]);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 1 });
    expect503(outcomes[1]!);
    expect503(outcomes[2]!);
  });

  it('answers a lone save that lost its connection with the 503 too', async () => {
    const batcher = createSaveBatcher(
      async () => {
        throw connectionLost();
      },
      { maxInFlight: 1 },
    );
    expect503((await Promise.allSettled([batcher.save(save(1))]))[0]!);
  });

  it('keeps the error of a lone save that failed for another reason (a 500, not a retry)', async () => {
    const failure = new Error('a bug');
    const batcher = createSaveBatcher(
      async () => {
        throw failure;
      },
      { maxInFlight: 1 },
    );
    await expect(batcher.save(save(1))).rejects.toBe(failure);
  });

  it('tells its observer each batch size and each acknowledged save with its wait', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const writer = controlledWriter();
    const sizes: number[] = [];
    const waits: number[] = [];
    const batcher = createSaveBatcher(
      (saves) => writer.write(saves).then((applied) => (applied.delete(3), applied)),
      { maxInFlight: 1, observer: { batchSent: (size) => sizes.push(size), saveAcknowledged: (waitMs) => waits.push(waitMs) } },
    );
    const results = [1, 2, 3].map((id) => batcher.save(save(id)));
    vi.advanceTimersByTime(250);
    writer.batches[0]!.finish();
    await tick();
    vi.advanceTimersByTime(100);
    writer.batches[1]!.finish();
    expect(await Promise.all(results)).toEqual([1, 1, undefined]);
    expect(sizes).toEqual([1, 2]);
    // Exam 3's save did not apply (a failed check): answered, but not acknowledged.
    expect(waits).toEqual([250, 350]);
  });
});
