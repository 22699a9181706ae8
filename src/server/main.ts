// Entry point: config -> database -> migrations -> (demo content) -> app -> listen.
// With WORKERS > 1 on PostgreSQL this process becomes the cluster primary (cluster.ts): it
// prepares the database, then forks workers that each run this file again as a whole app, without
// the preparation. PGlite (no DATABASE_URL) lives inside one process: one app process then.
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import pino, { type Logger } from 'pino';
import { buildApp } from './app';
import { runPrimary } from './cluster';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type DatabaseHandle } from './db/client';
import { migrate } from './db/migrate';
import { openReplicas } from './db/replicas';
import { addPreviousDemoSeason } from './demo/previous-season';
import { seedIfEmpty } from './db/seed/seed';
import { systemClock } from './lib/clock';
import { createSmsSender } from './features/auth/sms-drivers';
import { shareWithPrimary, registrySource } from './core/metrics/cluster-metrics';
import { createMetrics } from './core/metrics/metrics';
import { startMetricsServer } from './core/metrics/server';
import { startBackgroundJobs } from './jobs';
import { createOtpZnsFirstSender, createZnsSender, startMessageDelivery } from './features/admin/messages';
import { privateLogOptions } from './features/privacy/log-privacy';

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const rootLogger = pino({
    // No full phone number, password, one-time code or token in the log (issue 15).
    ...privateLogOptions(config.logLevel),
    ...(config.production || !process.stdout.isTTY ? {} : { transport: { target: 'pino-pretty' } }),
  });
  // A promise nobody awaited that failed leaves the process in a state nobody planned for: log it
  // and exit. The supervisor starts a fresh one (systemd Restart=always in
  // deploy/reading-contest.service; the cluster primary for a worker); clients retry the requests
  // in flight, and nothing acknowledged is lost (it is committed before the answer).
  process.on('unhandledRejection', (reason) => {
    rootLogger.fatal({ err: reason }, 'unhandled rejection: exiting for the supervisor to restart');
    process.exit(1);
  });

  if (cluster.isWorker) return serve(config, rootLogger.child({ worker: cluster.worker!.id }), { worker: true });

  const workers = config.workers || availableParallelism();
  if (workers > 1 && !config.databaseUrl) {
    if (config.workers > 1) rootLogger.warn({ workers: config.workers }, 'WORKERS ignored: the embedded PGlite runs in one process (set DATABASE_URL for several)');
    return serve(config, rootLogger, { worker: false });
  }
  if (workers > 1) {
    return runPrimary({
      config,
      logger: rootLogger,
      workers,
      prepareDatabase: async () => {
        const database = await open(config, rootLogger);
        try {
          await prepare(database, config, rootLogger);
        } finally {
          await database.close();
        }
      },
    });
  }
  return serve(config, rootLogger, { worker: false });
}

function open(config: Config, logger: Logger) {
  logger.info({ node: process.version, database: config.databaseUrl ? 'postgres' : `pglite (${config.dataDir})` }, 'opening database');
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    namedStatements: config.databaseNamedStatements,
    // The pool drops the broken connection and opens a new one when the server is back.
    onConnectionError: (error) => logger.warn({ err: error }, 'database connection lost'),
  });
}

/** Migrations, then the demo content when asked and the database is empty. */
async function prepare(database: DatabaseHandle, config: Config, logger: Logger) {
  const applied = await migrate(database.db);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  if (config.seedDemo) {
    const seeded = await seedIfEmpty(database.db, { clock: systemClock, demoWindow: true });
    // Last year's finished season beside this year's (issue 26): the history screens show.
    if (seeded) await addPreviousDemoSeason(database.db, systemClock);
    if (seeded) logger.info('demo content loaded');
  }
}

/** One app process: a worker (the primary prepared the database and serves the metrics) or the only one. */
async function serve(config: Config, logger: Logger, { worker }: { worker: boolean }) {
  const database = await open(config, logger);
  if (!worker) await prepare(database, config, logger);

  const reads = config.databaseReplicaUrls.length
    ? await openReplicas({
        urls: config.databaseReplicaUrls,
        primary: database.db,
        maxLagSeconds: config.replicaMaxLagSeconds,
        poolSize: config.databasePoolSize,
        queryTimeoutMs: config.replicaQueryTimeoutMs,
        onStateChange: (state) =>
          state.usable
            ? logger.info({ replica: state.name, lag_seconds: state.lagSeconds }, 'reading from replica')
            : logger.warn({ replica: state.name, lag_seconds: state.lagSeconds }, 'replica lagging or down: its reads go to the primary'),
      })
    : undefined;
  const metrics = createMetrics({ db: database.db, reads });
  const zns = createZnsSender(config, logger);
  // The SMS driver; the one-time codes by ZNS first when ZNS_OTP_TEMPLATE_ID is set.
  const sms = createOtpZnsFirstSender(createSmsSender(config, logger), zns, config.messages.zns.otpTemplateId, logger);
  const app = await buildApp({ config, db: database.db, reads, clock: systemClock, sms, logger, metrics, onShed: metrics.requestShed });
  // Every job is safe in several processes at once (jobs.ts): each worker runs them.
  const jobs = startBackgroundJobs({ config, db: database.db, reads, clock: systemClock, logger, metrics });
  // Messages to families: this process takes its share of the delivery queue (pg-boss, decision 040).
  const delivery = await startMessageDelivery({ config, db: database.db, clock: systemClock, sms, zns, logger });
  // A worker's metrics are served by the primary, summed with the other workers'.
  if (worker) shareWithPrimary(metrics.registry);
  const metricsServer = worker
    ? undefined
    : await startMetricsServer(config.metrics, registrySource(metrics.registry), (error) => logger.warn({ err: error }, 'metrics unavailable'));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    // Stop taking requests, let those under way finish, then release the database.
    const forced = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      jobs.stop();
      await delivery.stop();
      await app.close();
      await metricsServer?.close();
      await reads?.close();
      await database.close();
      clearTimeout(forced);
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port, backlog: config.listenBacklog });
  if (metricsServer) logger.info({ port: metricsServer.port }, 'metrics served');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
