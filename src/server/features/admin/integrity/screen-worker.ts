// The worker thread of a screening run (screen.ts): the pass (screen-pass.ts) over the pages of
// exams the app's thread streams to it, so that the minute of comparisons never holds up the
// requests of the process. Each page is acknowledged once compared (the app sends the next one
// then: at most two pages wait in memory); `finish` answers the result.
import { parentPort, workerData } from 'node:worker_threads';
import type { PassRow } from './repo';
import { screeningPass, type PassInput, type ScreeningResult } from './screen-pass';

export type ToScreenWorker = { rows: PassRow[] } | { finish: { a: number; b: number }[] };
export type FromScreenWorker = { ack: true } | { result: ScreeningResult } | { failed: string };

const port = parentPort!;
try {
  const pass = screeningPass(workerData as PassInput);
  port.on('message', (message: ToScreenWorker) => {
    try {
      if ('rows' in message) {
        pass.addRows(message.rows);
        port.postMessage({ ack: true } satisfies FromScreenWorker);
      } else port.postMessage({ result: pass.finish(message.finish) } satisfies FromScreenWorker);
    } catch (error) {
      port.postMessage({ failed: (error as Error).stack ?? String(error) } satisfies FromScreenWorker);
    }
  });
} catch (error) {
  port.postMessage({ failed: (error as Error).stack ?? String(error) } satisfies FromScreenWorker);
}
