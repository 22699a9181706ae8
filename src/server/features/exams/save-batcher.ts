// Exam autosaves go to PostgreSQL in batches: the saves that arrive while earlier ones are being
// written leave together, as one statement and one commit (docs/decisions/005-exam-save-path.md).
// Nothing waits for a batch to fill: with a free slot a save leaves at once, alone, so a quiet
// server answers as fast as before; under load each statement and each commit carries many saves.
// A save is answered only once its batch has committed. The queue holds only requests that are
// waiting for their answer: no state outlives a request, as in every app process.
import type { SaveAnswersInput } from './repo';

/** The new save_seq when the save applied; undefined when one of its checks failed. */
export type SaveResult = number | undefined;

interface Waiting {
  save: SaveAnswersInput;
  resolve(result: SaveResult): void;
  reject(error: unknown): void;
}

export interface SaveBatcher {
  save(save: SaveAnswersInput): Promise<SaveResult>;
}

/** Writes saves of different exams in one statement (repo.saveAnswersBatch): exam id -> new save_seq of those applied. */
export type WriteSaves = (saves: readonly SaveAnswersInput[]) => Promise<Map<number, number>>;

export interface SaveBatcherOptions {
  /** Batches written at the same time (each holds one database connection while it runs). */
  maxInFlight: number;
  /** Saves per statement at most. */
  maxBatch?: number;
}

export function createSaveBatcher(writeSaves: WriteSaves, { maxInFlight, maxBatch = 200 }: SaveBatcherOptions): SaveBatcher {
  const queue: Waiting[] = [];
  /** Exams with a save being written: their next save waits for it, so each exam's saves apply in arrival order. */
  const examsBeingWritten = new Set<number>();
  let inFlight = 0;

  /** Takes from the queue, in arrival order, one save per exam whose earlier save is not being written. */
  function takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    let kept = 0;
    for (const waiting of queue) {
      const examId = waiting.save.examId;
      if (batch.length < maxBatch && !examsBeingWritten.has(examId)) {
        batch.push(waiting);
        examsBeingWritten.add(examId);
      } else {
        queue[kept++] = waiting;
      }
    }
    queue.length = kept;
    return batch;
  }

  async function write(batch: Waiting[]) {
    try {
      const applied = await writeSaves(batch.map((waiting) => waiting.save));
      for (const waiting of batch) waiting.resolve(applied.get(waiting.save.examId));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // One save's failure must not fail the others: each again on its own, in this batch's slot.
      for (const waiting of batch) await write([waiting]);
    }
  }

  function drain() {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = takeBatch();
      if (batch.length === 0) return; // only saves of exams being written: they go when those end
      inFlight += 1;
      void write(batch).finally(() => {
        inFlight -= 1;
        for (const waiting of batch) examsBeingWritten.delete(waiting.save.examId);
        drain();
      });
    }
  }

  return {
    save(save) {
      return new Promise<SaveResult>((resolve, reject) => {
        queue.push({ save, resolve, reject });
        drain();
      });
    },
  };
}
