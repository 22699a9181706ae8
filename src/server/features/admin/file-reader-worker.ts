// The worker thread's side of file-reader.ts: reads one upload (a table or a question file) with
// the same code the main thread used to run, then hands the result over in chunks, one each time
// the main thread asks for the next, so that receiving never holds the main thread for long.
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../lib/errors';
import { readQuestionFile } from './books/question-file';
import type { FromWorker, WorkerInput } from './file-reader';
import { readTable } from './sheets';
import type { Upload } from './uploads';

/** Rows (or questions) per message: about a millisecond to receive on the main thread. */
const CHUNK = 1000;

const { task, file } = workerData as WorkerInput;
// Buffers arrive as plain Uint8Arrays.
const upload: Upload = { ...file, bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength), fields: {} };
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

async function read(): Promise<{ items: unknown[]; done: Record<string, unknown> }> {
  if (task.kind === 'table') {
    const { rows, totalRow } = await readTable(upload, task.template);
    return { items: rows, done: { totalRow } };
  }
  const { questions, problems, ...rest } = await readQuestionFile(upload, { allProblems: task.allProblems });
  return { items: questions, done: { ...rest, problems: problems.state() } };
}

try {
  const { items, done } = await read();
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
