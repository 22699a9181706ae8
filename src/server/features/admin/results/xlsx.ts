// An .xlsx workbook written by a worker thread (xlsx-worker.mjs), fed sheet by sheet and row page
// by row page, so that a 200,000-row export neither stalls the event loop nor holds its rows twice.
import { Worker } from 'node:worker_threads';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

export type CellValue = string | number | null;
export interface SheetHead {
  name: string;
  headings: string[];
  /** Per column: written as a number or as text. */
  kinds: ('text' | 'number')[];
  widths: number[];
}

export class XlsxBuilder {
  private worker = new Worker(new URL('./xlsx-worker.mjs', import.meta.url));
  private failure: Error | undefined;

  constructor() {
    this.worker.on('error', (error) => (this.failure = error));
  }

  sheet(head: SheetHead): void {
    this.worker.postMessage({ sheet: head });
  }

  /** Rows of the current sheet; `bold` rows (a total) are written as headings. Yields between pages. */
  async rows(rows: (CellValue[] & { bold?: boolean })[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 2000) {
      const page = rows.slice(i, i + 2000);
      const bold = page.flatMap((row, index) => (row.bold ? [index] : []));
      this.worker.postMessage({ rows: page.map((row) => [...row]), bold });
      await yieldToEventLoop();
    }
  }

  /** The workbook's bytes; the worker ends either way. */
  async finish(): Promise<Buffer> {
    try {
      if (this.failure) throw this.failure;
      const answer = await new Promise<{ bytes?: ArrayBuffer; error?: string }>((resolve, reject) => {
        this.worker.once('message', resolve);
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
