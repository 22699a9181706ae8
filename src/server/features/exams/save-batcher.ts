// Exam autosaves go to PostgreSQL in batches: the saves that arrive while earlier ones are being
// written leave together, as one statement and one commit (docs/decisions/005-exam-save-path.md).
// Nothing waits for a batch to fill: with a free slot a save leaves at once, alone, so a quiet
// server answers as fast as before; under load each statement and each commit carries many saves.
// A save is answered only once its batch has committed. The queue holds only requests that are
// waiting for their answer: no state outlives a request, as in every app process.
//
// The queue is bounded in length and in time: a save that finds it full, or waits in it too long,
// is answered 503 (the exam screen keeps the answers and retries). Only saves not yet sent are
// answered so: one whose statement is running may have applied, so it waits for that statement.
import { messages } from '../../../shared/messages';
import { isConnectionError } from '../../db/errors';
import { AppError } from '../../lib/errors';
import type { SaveAnswersInput } from './repo';
import { createWaitingLine } from './waiting-line';

/** The new save_seq when the save applied; undefined when one of its checks failed. */
export type SaveResult = number | undefined;

/** Why a save was answered 503 without a result. */
export type SaveRejection = 'queue_full' | 'queue_timeout' | 'connection_lost';

interface Waiting {
  save: SaveAnswersInput;
  /** performance.now() when the save arrived (ms). */
  arrivedAt: number;
  resolve(result: SaveResult): void;
  reject(error: unknown): void;
}

export interface SaveBatcher {
  save(save: SaveAnswersInput): Promise<SaveResult>;
  /** Saves waiting to be sent (not those in a running statement). */
  readonly queueLength: number;
}

/** Writes saves of different exams in one statement (repo.saveAnswersBatch): exam id -> new save_seq of those applied. */
export type WriteSaves = (saves: readonly SaveAnswersInput[]) => Promise<Map<number, number>>;

/** Told what the batcher does (for metrics); every call is synchronous and cheap. */
export interface SaveBatcherObserver {
  /** A statement leaves with this many saves. */
  batchSent?(size: number): void;
  /** A save applied and committed, `waitMs` after it arrived (its acknowledgement lag). */
  saveAcknowledged?(waitMs: number): void;
  /** A save answered 503. */
  saveRejected?(reason: SaveRejection): void;
}

export interface SaveBatcherOptions {
  /** Batches written at the same time (each holds one database connection while it runs). */
  maxInFlight: number;
  /** Saves per statement at most. */
  maxBatch?: number;
  /** Saves waiting to be sent at most; one more is answered 503 at once. */
  queueLimit?: number;
  /** Longest wait (ms) of a save not yet sent; past it the save is answered 503. */
  queueTimeoutMs?: number;
  observer?: SaveBatcherObserver;
}

/** The app's 503 (with Retry-After, by the error handler): the client keeps its answers and retries. */
export const saveUnavailable = () => new AppError('service_unavailable', messages.serviceUnavailable);

export function createSaveBatcher(
  writeSaves: WriteSaves,
  { maxInFlight, maxBatch = 200, queueLimit = Infinity, queueTimeoutMs = Infinity, observer = {} }: SaveBatcherOptions,
): SaveBatcher {
  // takeBatch keeps the order of those it leaves.
  const line = createWaitingLine<Waiting>({
    limit: queueLimit,
    timeoutMs: queueTimeoutMs,
    onExpired: (expired) => expired.forEach((waiting) => refuse(waiting, 'queue_timeout')),
  });
  const queue = line.items;
  /** Exams with a save being written: their next save waits for it, so each exam's saves apply in arrival order. */
  const examsBeingWritten = new Set<number>();
  let inFlight = 0;

  function answer(waiting: Waiting, result: SaveResult) {
    if (result !== undefined) observer.saveAcknowledged?.(performance.now() - waiting.arrivedAt);
    waiting.resolve(result);
  }

  function refuse(waiting: Waiting, reason: SaveRejection) {
    observer.saveRejected?.(reason);
    waiting.reject(saveUnavailable());
  }

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

  /** Writes a batch and answers its saves; true when the connection was lost (the unanswered ones got 503). */
  async function write(batch: Waiting[]): Promise<boolean> {
    try {
      const applied = await writeSaves(batch.map((waiting) => waiting.save));
      for (const waiting of batch) answer(waiting, applied.get(waiting.save.examId));
      return false;
    } catch (error) {
      // The database is away: every save of the batch would fail the same way, each after its own
      // wait for a connection. Answer them all now; the clients retry.
      if (isConnectionError(error)) {
        for (const waiting of batch) refuse(waiting, 'connection_lost');
        return true;
      }
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return false;
      }
      // One save's failure must not fail the others: each again on its own, in this batch's slot.
      for (let i = 0; i < batch.length; i += 1) {
        if (await write([batch[i]!])) {
          for (const waiting of batch.slice(i + 1)) refuse(waiting, 'connection_lost');
          return true;
        }
      }
      return false;
    }
  }

  function drain() {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = takeBatch();
      if (batch.length === 0) break; // only saves of exams being written: they go when those end
      inFlight += 1;
      observer.batchSent?.(batch.length);
      void write(batch).finally(() => {
        inFlight -= 1;
        for (const waiting of batch) examsBeingWritten.delete(waiting.save.examId);
        drain();
      });
    }
    line.armDeadline();
  }

  return {
    save(save) {
      return new Promise<SaveResult>((resolve, reject) => {
        const waiting = { save, arrivedAt: performance.now(), resolve, reject };
        if (!line.push(waiting)) return refuse(waiting, 'queue_full');
        drain();
      });
    },
    get queueLength() {
      return queue.length;
    },
  };
}
