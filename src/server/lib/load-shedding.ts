// Load is shed, not queued: when the event loop lags or too many requests already wait for a
// database connection, a new request gets a quick 503 with Retry-After (the exam screen keeps its
// answers on the device and retries with jittered back-off) instead of joining a queue that only
// grows. Liveness (/healthz) is always answered, so that a busy process is not killed for it.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { poolStats, type Db } from '../db/client';
import { unavailable } from './error-answers';

export type ShedReason = 'event_loop' | 'db_pool';

export interface LoadSheddingOptions {
  config: Config;
  db: Db;
  onShed?: (reason: ShedReason) => void;
}

const ALWAYS_ANSWERED = new Set(['/healthz']);
/** How often the event-loop delay is read (ms); the mean over that window is compared. */
const SAMPLE_INTERVAL_MS = 1000;

export function registerLoadShedding(app: FastifyInstance, { config, db, onShed }: LoadSheddingOptions) {
  const { shedEventLoopDelayMs, shedDbWaiting } = config.load;
  let eventLoopDelayMs = 0;
  if (shedEventLoopDelayMs > 0) {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const timer = setInterval(() => {
      // The mean delay over the last window (the histogram's own 10 ms resolution taken off).
      eventLoopDelayMs = Math.max(0, histogram.mean / 1e6 - 10);
      histogram.reset();
    }, SAMPLE_INTERVAL_MS).unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      histogram.disable();
    });
  }

  // A callback hook (no promise per request: it runs on every exam save). Answering early means
  // sending and not calling done.
  app.addHook('onRequest', (request, reply, done) => {
    if (ALWAYS_ANSWERED.has(request.url)) return done();
    const reason: ShedReason | undefined =
      shedEventLoopDelayMs > 0 && eventLoopDelayMs > shedEventLoopDelayMs
        ? 'event_loop'
        : shedDbWaiting > 0 && (poolStats(db)?.waiting ?? 0) > shedDbWaiting
          ? 'db_pool'
          : undefined;
    if (!reason) return done();
    onShed?.(reason);
    request.log.warn({ reason }, 'request shed');
    reply.send(unavailable(request, reply));
  });
}
