// Long back-office work runs as a task row (stage, done/total, heartbeat) that the process running
// it updates and any process reads (result_tasks). This is the running side: progress written at
// most every PROGRESS_MS (and at once when asked), a heartbeat every HEARTBEAT_MS, never two writes
// in flight; and the reading side's rule: a running task without a beat for STALE_MS is dead.

/** The running process beats this often; a task without a beat for STALE_MS is taken as dead. */
export const HEARTBEAT_MS = 5_000;
export const STALE_MS = 30_000;
/** Progress is written at most this often (and whenever `report` is told `now`). */
const PROGRESS_MS = 500;

/** A running task whose process has not beaten for STALE_MS died (a crash, a restart). */
export const isStale = (heartbeatAt: Date, now: Date) => now.getTime() - heartbeatAt.getTime() > STALE_MS;

/**
 * Starts writing a task's progress with `write` (its last progress, or undefined before the first;
 * the write sets the heartbeat). Failed writes are dropped: the next beat writes again. `stop`
 * ends the beats and waits for the write in flight, then gives the last progress reported.
 */
export function startProgressWriter<P>(write: (progress: P | undefined) => Promise<unknown>) {
  let current: P | undefined;
  let inFlight: Promise<void> | undefined;
  let again = false;
  let lastWrite = 0;
  const flush = () => {
    if (inFlight) {
      again = true;
      return;
    }
    lastWrite = Date.now();
    inFlight = write(current)
      .catch(() => {})
      .then(() => {
        inFlight = undefined;
        if (again) {
          again = false;
          flush();
        }
      });
  };
  const heartbeat = setInterval(flush, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    report(progress: P, { now = false } = {}) {
      current = progress;
      if (now || Date.now() - lastWrite >= PROGRESS_MS) flush();
    },
    async stop(): Promise<P | undefined> {
      clearInterval(heartbeat);
      while (inFlight) await inFlight;
      return current;
    },
  };
}
