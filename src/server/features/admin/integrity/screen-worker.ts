// A worker thread of a screening run (screen.ts): the pass (screen-pass.ts) over its share of the
// school groups that the app's thread streams to it, so that the minute of comparisons never holds
// up the requests of the process. Each page is acknowledged once compared (the app sends the next
// one then: at most two pages wait in memory); `finish` answers the worker's part of the run.
import { parentPort, workerData } from 'node:worker_threads';
import type { PassRow } from './repo';
import { screeningPass, type PassInput, type PassPart } from './screen-pass';

export type ToScreenWorker = { rows: PassRow[]; kept: PassRow[] } | { finish: { a: number; b: number }[] };
export type FromScreenWorker = { ack: true } | { part: PassPart } | { failed: string };

const port = parentPort!;
try {
  const pass = screeningPass(workerData as PassInput);
  port.on('message', (message: ToScreenWorker) => {
    try {
      if ('rows' in message) {
        pass.addRows(message.rows);
        pass.addKept(message.kept);
        port.postMessage({ ack: true } satisfies FromScreenWorker);
      } else port.postMessage({ part: pass.finish(message.finish) } satisfies FromScreenWorker);
    } catch (error) {
      port.postMessage({ failed: (error as Error).stack ?? String(error) } satisfies FromScreenWorker);
    }
  });
} catch (error) {
  port.postMessage({ failed: (error as Error).stack ?? String(error) } satisfies FromScreenWorker);
}
