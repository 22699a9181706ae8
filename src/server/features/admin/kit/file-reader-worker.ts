// The worker thread's side of file-reader.ts: a reader's worker entry (table-file-worker.ts,
// books/question-file-worker.ts) calls serveFileRead with its parser; the upload is read with the
// same code the main thread used to run, then the result is handed over in chunks, one each time
// the main thread asks for the next, so that receiving never holds the main thread for long.
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../../lib/errors';
import type { FromWorker, WorkerInput } from './file-reader';
import type { Upload } from './uploads';

/** Rows (or questions) per message: about a millisecond to receive on the main thread. */
const CHUNK = 1000;

/** A parser as a worker runs it: the items to hand over (rows, questions) and what else it read. */
export type WorkerRead<T> = (upload: Upload, task: T) => Promise<{ items: unknown[]; done: Record<string, unknown> }>;

/** Reads this worker's upload with `read` and answers the main thread (readInWorker). */
export async function serveFileRead<T>(read: WorkerRead<T>): Promise<void> {
  const { task, file } = workerData as WorkerInput<T>;
  // Buffers arrive as plain Uint8Arrays.
  const upload: Upload = { ...file, bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength), fields: {} };
  const port = parentPort!;
  const post = (message: FromWorker) => port.postMessage(message);
  try {
    const { items, done } = await read(upload, task);
    let at = 0;
    const next = () => {
      const part = items.slice(at, at + CHUNK);
      at += CHUNK;
      post(at >= items.length ? { items: part, done } : { items: part });
    };
    port.on('message', next);
    next();
  } catch (error) {
    if (error instanceof AppError) {
      post({ refused: { code: error.code, message: error.message, errors: error.errors, extra: error.extra } });
    } else {
      post({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  }
}
