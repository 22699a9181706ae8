// An .xlsx workbook written as a stream by a worker thread (xlsx-writer-worker.mjs), fed sheet by sheet and
// row page by row page with backpressure, so that a 200,000-row export neither stalls the event
// loop nor holds its rows twice.
import { Worker } from 'node:worker_threads';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/** A date cell takes an instant (a Date or ISO text), written in Vietnamese local time. */
export type CellValue = string | number | Date | null;
/** text; number (plain); money ('#,##0 "đ"'); score (one decimal); date ('dd/mm/yyyy hh:mm'). */
export type ColumnKind = 'text' | 'number' | 'money' | 'score' | 'date';
export interface SheetHead {
  name: string;
  headings: string[];
  /** Per column: how its cells are written and formatted. The heading row is bold, frozen and filtered. */
  kinds: ColumnKind[];
  widths: number[];
}

/** Pages sent to the worker and not yet written: the sender waits beyond this (backpressure). */
const MAX_PAGES_IN_FLIGHT = 3;

export class XlsxBuilder {
  private worker = new Worker(new URL('./xlsx-writer-worker.mjs', import.meta.url));
  private failure: Error | undefined;
  private inFlight = 0;
  private waiting: (() => void)[] = [];
  private answer: ((message: { bytes?: ArrayBuffer; error?: string }) => void) | undefined;

  constructor() {
    this.worker.on('error', (error) => {
      this.failure = error;
      this.wakeAll();
    });
    // The worker answers {written} after each page, then {bytes} or {error} at the end.
    this.worker.on('message', (message: { written?: true; bytes?: ArrayBuffer; error?: string }) => {
      if (message.written) {
        this.inFlight--;
        this.waiting.shift()?.();
      } else if (this.answer) this.answer(message);
      else if (message.error) {
        this.failure = new Error(`xlsx worker: ${message.error}`);
        this.wakeAll();
      }
    });
  }

  private wakeAll() {
    for (const wake of this.waiting.splice(0)) wake();
  }

  sheet(head: SheetHead): void {
    this.worker.postMessage({ sheet: head });
  }

  /**
   * Rows of the current sheet; `bold` rows (a total) are written as headings. Sent in pages, each
   * once the worker is at most a few pages behind, so that a fast reader never piles pages up.
   */
  async rows(rows: (CellValue[] & { bold?: boolean })[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 2000) {
      while (this.inFlight >= MAX_PAGES_IN_FLIGHT && !this.failure) await new Promise<void>((resolve) => this.waiting.push(resolve));
      if (this.failure) throw this.failure;
      const page = rows.slice(i, i + 2000);
      const bold = page.flatMap((row, index) => (row.bold ? [index] : []));
      this.inFlight++;
      this.worker.postMessage({ rows: page.map((row) => [...row]), bold });
      await yieldToEventLoop();
    }
  }

  /** The workbook's bytes; the worker ends either way. */
  async finish(): Promise<Buffer> {
    try {
      if (this.failure) throw this.failure;
      const answer = await new Promise<{ bytes?: ArrayBuffer; error?: string }>((resolve, reject) => {
        this.answer = resolve;
        this.worker.once('error', reject);
        this.worker.postMessage({ end: true });
      });
      if (!answer.bytes) throw new Error(`xlsx worker: ${answer.error}`);
      return Buffer.from(answer.bytes);
    } finally {
      await this.worker.terminate();
    }
  }

  /** Stops the worker without a workbook (the export failed). */
  async abandon(): Promise<void> {
    await this.worker.terminate();
  }
}

/** A workbook written by `fill`: its bytes, or its error after the worker is stopped. */
export async function buildXlsx(fill: (xlsx: XlsxBuilder) => Promise<void>): Promise<Buffer> {
  const xlsx = new XlsxBuilder();
  try {
    await fill(xlsx);
    return await xlsx.finish();
  } catch (error) {
    await xlsx.abandon();
    throw error;
  }
}
