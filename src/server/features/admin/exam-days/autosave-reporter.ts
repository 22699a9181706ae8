// Each app process writes its autosave counters (metrics.ts) to process_counters every few
// seconds, from a timer: never on the save path. The row also carries the counters as they were
// about a minute earlier, so the dashboard computes rates from one read of the rows alive,
// whatever the number of processes, and a restarted process simply starts a row of its own.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import type { AutosaveTotals } from '../../../core/metrics/metrics';
import { writeProcessCounters } from './repo';

/** How often a process writes its row (ms). */
export const REPORT_INTERVAL_MS = 5_000;
/** The span the rates cover (ms): the baseline is the newest sample at least this old. */
const RATE_WINDOW_MS = 60_000;

const ZERO: AutosaveTotals = { acknowledged: 0, within_2s: 0, rejected: 0, shed: 0 };

/** A job for jobs.ts: each call writes this process's row; returns 0 (rows handled are not worth a log line). */
export function createAutosaveReporter(read: () => AutosaveTotals, clock: Clock) {
  const processId = randomUUID();
  const startedAt = clock.now();
  // Samples of the last minute or so, oldest first; the first is the baseline.
  const samples: { at: Date; counters: AutosaveTotals }[] = [{ at: startedAt, counters: ZERO }];
  return async (db: Db): Promise<number> => {
    const now = clock.now();
    const counters = read();
    samples.push({ at: now, counters });
    while (samples.length > 2 && now.getTime() - samples[1]!.at.getTime() >= RATE_WINDOW_MS) samples.shift();
    const baseline = samples[0]!;
    await writeProcessCounters(db, { processId, startedAt, updatedAt: now, counters, baselineAt: baseline.at, baseline: baseline.counters });
    return 0;
  };
}
