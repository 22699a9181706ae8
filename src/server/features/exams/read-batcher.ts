// The exam screens' re-sync (GET /api/examing/get-time, every screen each minute) reads in batches,
// as the autosaves write (save-batcher.ts): the reads that arrive while earlier ones run leave
// together, as one statement. With a free slot a read leaves at once, alone, so a quiet server
// answers as before; under load one statement, one round trip and one wake-up of a database
// backend serve many screens (on exam day a third of the requests: they were four statements in
// five the app sent, README exam day). Bounded like the saves: a read that finds the queue full or
// waits too long is answered 503 and the screen retries.
import { isConnectionError } from '../../db/errors';
import { saveUnavailable } from './save-batcher';
import { createWaitingLine } from './waiting-line';

/** Reads many keys in one statement: for each key (by its index in `keys`), its value when found. */
export type ReadMany<Key, Value> = (keys: readonly Key[]) => Promise<Map<number, Value>>;

export interface ReadBatcherOptions {
  /** Statements running at the same time (each holds one database connection). */
  maxInFlight: number;
  maxBatch?: number;
  queueLimit?: number;
  /** Longest wait (ms) of a read not yet sent; past it the read is answered 503. */
  queueTimeoutMs?: number;
}

interface Waiting<Key, Value> {
  key: Key;
  arrivedAt: number;
  resolve(value: Value | undefined): void;
  reject(error: unknown): void;
}

export function createReadBatcher<Key, Value>(
  readMany: ReadMany<Key, Value>,
  { maxInFlight, maxBatch = 500, queueLimit = Infinity, queueTimeoutMs = Infinity }: ReadBatcherOptions,
) {
  const line = createWaitingLine<Waiting<Key, Value>>({
    limit: queueLimit,
    timeoutMs: queueTimeoutMs,
    onExpired: (expired) => expired.forEach((waiting) => waiting.reject(saveUnavailable())),
  });
  const queue = line.items;
  let inFlight = 0;

  async function read(batch: Waiting<Key, Value>[]) {
    try {
      const found = await readMany(batch.map((waiting) => waiting.key));
      batch.forEach((waiting, index) => waiting.resolve(found.get(index)));
    } catch (error) {
      // The database away: every read of the batch answered 503 now (the screens retry). Any other
      // failure is the statement's, not one key's: each read gets it, as it would alone.
      for (const waiting of batch) waiting.reject(isConnectionError(error) ? saveUnavailable() : error);
    }
  }

  function drain() {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      inFlight += 1;
      void read(batch).finally(() => {
        inFlight -= 1;
        drain();
      });
    }
    line.armDeadline();
  }

  return {
    read(key: Key) {
      return new Promise<Value | undefined>((resolve, reject) => {
        if (!line.push({ key, arrivedAt: performance.now(), resolve, reject })) return reject(saveUnavailable());
        drain();
      });
    },
    get queueLength() {
      return queue.length;
    },
  };
}
