// The primary of several app processes on one machine (WORKERS > 1 on PostgreSQL): it prepares
// the database once (migrations, demo content), forks the workers (each runs main.ts as a whole
// app on the shared port; Node's cluster module hands them the connections in turn), restarts a
// worker that dies, serves the workers' aggregated metrics, and on SIGTERM stops them gracefully.
// It serves no requests and holds no database connection while the workers run, so that little
// can take it down.
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from './config';
import { clusterMetricsSource } from './core/metrics/cluster-metrics';
import { startMetricsServer } from './core/metrics/server';

/** Wait before restarting a worker that died (ms); doubled for each death in a row, up to the max. */
const RESTART_DELAY_MS = 1000;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that ran this long before dying was healthy: its next restart waits the shortest delay again. */
const HEALTHY_RUN_MS = 60_000;
/** Longer than a worker's own forced shutdown (main.ts, 15 s): then the primary kills what is left. */
const STOP_TIMEOUT_MS = 20_000;

interface Slot {
  worker?: Worker;
  startedAt: number;
  /** Deaths in a row without a healthy run between them. */
  deaths: number;
  restartTimer?: NodeJS.Timeout;
}

export interface PrimaryOptions {
  config: Config;
  logger: Logger;
  workers: number;
  /** Migrations and demo content, once, before any worker starts. */
  prepareDatabase(): Promise<void>;
}

export async function runPrimary({ config, logger, workers, prepareDatabase }: PrimaryOptions) {
  await prepareDatabase();

  const metricsServer = await startMetricsServer(config.metrics, clusterMetricsSource(), (error) =>
    logger.warn({ err: error }, 'metrics unavailable'),
  );
  if (metricsServer) logger.info({ port: metricsServer.port }, 'metrics served (all workers)');

  const slots: Slot[] = Array.from({ length: workers }, () => ({ startedAt: 0, deaths: 0 }));
  let stopping = false;

  const fork = (slot: Slot) => {
    slot.restartTimer = undefined;
    slot.startedAt = Date.now();
    slot.worker = cluster.fork();
  };

  cluster.on('exit', (worker, code, signal) => {
    const slot = slots.find((s) => s.worker === worker);
    if (!slot) return;
    slot.worker = undefined;
    if (stopping) {
      if (slots.every((s) => !s.worker)) void finish();
      return;
    }
    // Restart, but never in a tight loop: a worker that keeps dying at start waits longer each time.
    slot.deaths = Date.now() - slot.startedAt >= HEALTHY_RUN_MS ? 1 : slot.deaths + 1;
    const delayMs = Math.min(RESTART_DELAY_MS * 2 ** (slot.deaths - 1), MAX_RESTART_DELAY_MS);
    logger.error({ workerPid: worker.process.pid, code, signal, restartInMs: delayMs }, 'worker died; restarting it');
    slot.restartTimer = setTimeout(() => fork(slot), delayMs);
  });

  let forced: NodeJS.Timeout | undefined;
  const finish = async () => {
    clearTimeout(forced);
    await metricsServer?.close();
    logger.info('all workers stopped');
    process.exit(0);
  };

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping the workers');
    for (const slot of slots) clearTimeout(slot.restartTimer);
    // Each worker stops taking requests, finishes those under way and closes its database (main.ts).
    for (const slot of slots) slot.worker?.process.kill('SIGTERM');
    if (slots.every((s) => !s.worker)) return void finish();
    forced = setTimeout(() => {
      logger.error('workers still running after the stop timeout: killing them');
      for (const slot of slots) slot.worker?.process.kill('SIGKILL');
      setTimeout(() => process.exit(1), 1000).unref();
    }, STOP_TIMEOUT_MS);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Ctrl-C in a terminal reaches the workers too (one process group): they stop themselves as well.
  process.on('SIGINT', () => stop('SIGINT'));

  logger.info({ workers, port: config.port }, 'starting workers');
  slots.forEach(fork);
}
