// The background sweep (src/server/jobs.ts): exams whose time and grace ran out while the
// contestant's browser was gone are scored on what was saved in time, so none stays in progress.
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { SAVE_GRACE_SECONDS } from '../../../shared/rules';
import { finaliseOverdue } from './repo';

/** Rows per statement: keeps each transaction short while the exam-day load runs. */
const SWEEP_BATCH = 500;

/**
 * Finalises every exam in progress whose end_time + grace has passed; returns how many. Safe when
 * several processes sweep at once (each batch skips rows another holds); the completion time is
 * the exam's deadline, not the moment of the sweep.
 */
export async function finaliseOverdueExams(db: Db, clock: Clock): Promise<number> {
  const now = clock.now();
  const cutoff = new Date(now.getTime() - SAVE_GRACE_SECONDS * 1000);
  let total = 0;
  for (;;) {
    const count = await finaliseOverdue(db, now, cutoff, SWEEP_BATCH);
    total += count;
    if (count < SWEEP_BATCH) return total;
  }
}
