// Import files are read in a worker thread, one per upload (issue 21): unzipping, XML and CSV
// parsing, text decoding and the file's own checks make a lot of short-lived garbage and CPU work,
// and on the main thread they delayed the exam saves of the same process even when cut into
// slices (GC pauses of the parse's garbage, and a save needs several turns of the event loop).
// The worker answers what the in-thread functions answer (the same rows, questions and problems,
// the same refusals), handed over in chunks with a return to the event loop between them. The
// worker ends with the request: when the file is read, refused, past IMPORT_READ_TIMEOUT_MS (config),
// or when the client's connection closes. Nothing outlives the request (the app processes stay stateless).
// The kit knows no file format of an area: each reader names its own worker entry (a module that
// calls serveFileRead, file-reader-worker.ts, with its parser), the kit's own for tables
// (table-file-worker.ts) and books/question-file-worker.ts for question banks.
import { once } from 'node:events';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '../../../../shared/error-codes';
import { messages } from '../../../../shared/messages';
import { templateColumns, type TemplateKind } from '../../../../shared/schemas/admin';
import { appError, type FieldErrors, type RowProblems } from '../../../lib/errors';
import { ImportProblems, type SheetRow } from './sheets';
import type { Upload } from './uploads';

/** What a reader's worker thread gets: its task (what its parser needs besides the file) and the file. */
export type WorkerInput<T = unknown> = {
  task: T;
  file: Pick<Upload, 'fileName' | 'mimeType' | 'bytes'>;
};
export type FromWorker =
  | { items: unknown[]; done?: Record<string, unknown> }
  | { refused: { code: ErrorCode; message: string; errors?: FieldErrors | RowProblems; extra?: Record<string, unknown> } }
  | { failed: string };

/**
 * `timeoutMs`: config.load.importReadTimeoutMs (12 s by default, under the 15 s handler timeout):
 * a read never takes that long unless the machine is starved.
 */
export interface ReadLimits {
  timeoutMs: number;
  /** Keep every problem, not only the first MAX_LISTED_PROBLEMS (the full list of errors as a file). */
  allProblems?: boolean;
}

/**
 * Reads `upload` in a new worker thread started from `workerUrl` (a worker entry next to the
 * module that names it: `new URL('./x-worker.mjs', import.meta.url)`, which in the compiled server
 * is dist/server/x-worker.mjs, decision 022): the items it hands over and what it read besides.
 */
export async function readInWorker<T>(workerUrl: URL, upload: Upload, task: T, { timeoutMs }: ReadLimits): Promise<{ items: unknown[]; done: Record<string, unknown> }> {
  const { bytes } = upload;
  const input: WorkerInput<T> = { task, file: { fileName: upload.fileName, mimeType: upload.mimeType, bytes } };
  // The file's memory is handed over, not copied (10 MB), when the upload owns it alone (an upload
  // over 4 KB does: Buffer.concat). Nothing reads upload.bytes after this.
  const transferList = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer as ArrayBuffer] : [];
  // execArgv: []: the entry loads its TypeScript itself, whether or not the app runs under --import tsx.
  // A small young generation: the parse's garbage is collected often instead of growing the RSS.
  const worker = new Worker(workerUrl, { workerData: input, transferList, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 8 } });
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(appError('request_timeout', messages.serviceUnavailable)), timeoutMs);
  // Nobody reads this answer; its 499 (nginx's "client closed request") keeps it out of the 500s in the log.
  const clientGone = () => stop.abort(appError('client_closed_request', messages.clientGoneBeforeRead));
  upload.connection?.once('close', clientGone);
  // A crash (out of memory, a bug) at any moment, even between two chunks, ends the wait.
  worker.on('error', (error) => stop.abort(error));
  worker.on('exit', (code) => stop.abort(new Error(`import file worker exited with code ${code}`)));
  try {
    const items: unknown[] = [];
    for (;;) {
      const [message] = (await once(worker, 'message', { signal: stop.signal })) as [FromWorker];
      if ('refused' in message) {
        const { code, message: text, errors, extra } = message.refused;
        throw appError(code, text, errors, extra);
      }
      if ('failed' in message) throw new Error(`import file worker: ${message.failed}`);
      for (const item of message.items) items.push(item);
      if (message.done) return { items, done: message.done };
      await yieldToEventLoop();
      worker.postMessage('next');
    }
  } catch (error) {
    // Waiting was stopped (once() rejects with an AbortError): the reason is what happened. A
    // refusal stays a refusal even when the worker's exit comes right behind it.
    throw (error as Error).name === 'AbortError' && stop.signal.aborted ? stop.signal.reason : error;
  } finally {
    clearTimeout(timer);
    upload.connection?.off('close', clientGone);
    void worker.terminate();
  }
}

/** A file's rows as read, in the template's column order: the full list of errors shows them beside their problems. */
export interface TableRows {
  columns: readonly string[];
  rows: SheetRow[];
}

/** What an import reads from its upload, in a worker thread: the file, its row count and the problems found while reading. */
export type FileReader<F> = (
  upload: Upload,
  limits: ReadLimits,
) => Promise<{ file: F; rows: number; problems: ImportProblems; table?: TableRows; /** A last row that was the sheet's total, skipped. */ totalRow?: number }>;

const TABLE_WORKER_URL = new URL('./table-file-worker.mjs', import.meta.url);

/** A tabular import (.xlsx or .csv): readTable (sheets.ts) with the template's columns. */
export const tableFile =
  (template: TemplateKind): FileReader<SheetRow[]> =>
  async (upload, limits) => {
    const { items, done } = await readInWorker(TABLE_WORKER_URL, upload, template, limits);
    const rows = items as SheetRow[];
    const totalRow = done.totalRow as number | undefined;
    return { file: rows, rows: rows.length, problems: new ImportProblems(limits.allProblems), table: { columns: templateColumns[template], rows }, totalRow };
  };
