import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../lib/errors';
import { createReadBatcher, type ReadMany } from './read-batcher';

/** A reader whose statements end when the test says so; keys are numbers, the value of k is k * 10 (absent for odd keys when asked). */
function controlledReader({ oddMissing = false } = {}) {
  const batches: { keys: readonly number[]; finish(error?: Error): void }[] = [];
  const readMany: ReadMany<number, number> = (keys) =>
    new Promise((resolve, reject) => {
      batches.push({
        keys,
        finish: (error) =>
          error ? reject(error) : resolve(new Map(keys.flatMap((key, index) => (oddMissing && key % 2 ? [] : [[index, key * 10] as [number, number]])))),
      });
    });
  return { batches, readMany };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const unavailable = expect.objectContaining({ status: 503, code: 'service_unavailable' });

describe('read batcher', () => {
  afterEach(() => vi.useRealTimers());

  it('sends a read at once, alone, when a slot is free', async () => {
    const reader = controlledReader();
    const batcher = createReadBatcher(reader.readMany, { maxInFlight: 1 });
    const value = batcher.read(4);
    expect(reader.batches.map((b) => b.keys)).toEqual([[4]]);
    reader.batches[0]!.finish();
    expect(await value).toBe(40);
  });

  it('sends the reads that arrive while every slot is busy in one statement, each answered with its own row', async () => {
    const reader = controlledReader({ oddMissing: true });
    const batcher = createReadBatcher(reader.readMany, { maxInFlight: 1 });
    const values = [2, 3, 4, 6].map((key) => batcher.read(key));
    reader.batches[0]!.finish();
    await tick();
    expect(reader.batches.map((b) => b.keys)).toEqual([[2], [3, 4, 6]]);
    reader.batches[1]!.finish();
    // 3 has no row (not the caller's exam, or the session ended): undefined for it alone.
    expect(await Promise.all(values)).toEqual([20, undefined, 40, 60]);
  });

  it('answers 503 to every read of a batch whose connection was lost, and the next reads are served', async () => {
    const reader = controlledReader();
    const batcher = createReadBatcher(reader.readMany, { maxInFlight: 1 });
    const first = batcher.read(1);
    const lost = new Error('Connection terminated unexpectedly');
    reader.batches[0]!.finish(lost);
    await expect(first).rejects.toEqual(unavailable);
    const next = batcher.read(2);
    reader.batches[1]!.finish();
    expect(await next).toBe(20);
  });

  it('refuses with 503 a read that finds the queue full, or waits longer than the queue timeout', async () => {
    vi.useFakeTimers();
    const reader = controlledReader();
    const batcher = createReadBatcher(reader.readMany, { maxInFlight: 1, queueLimit: 1, queueTimeoutMs: 1000 });
    const running = batcher.read(1);
    const waiting = batcher.read(2);
    await expect(batcher.read(3)).rejects.toBeInstanceOf(AppError);
    vi.advanceTimersByTime(1000);
    await expect(waiting).rejects.toEqual(unavailable);
    reader.batches[0]!.finish();
    expect(await running).toBe(10);
  });
});
