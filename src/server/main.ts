// Entry point: config -> database -> migrations -> (demo content) -> app -> listen.
import pino from 'pino';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { seedIfEmpty } from './db/seed/seed';
import { systemClock } from './lib/clock';
import { createSmsSender } from './features/auth/sms-drivers';
import { startBackgroundJobs } from './jobs';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const logger = pino({
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.otp'],
    ...(config.production || !process.stdout.isTTY ? {} : { transport: { target: 'pino-pretty' } }),
  });

  logger.info({ database: config.databaseUrl ? 'postgres' : `pglite (${config.dataDir})` }, 'opening database');
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
  const applied = await migrate(database.db);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  if (config.seedDemo) {
    const seeded = await seedIfEmpty(database.db, { clock: systemClock, demoWindow: true });
    if (seeded) logger.info('demo content loaded');
  }

  const sms = createSmsSender(config, logger);
  const app = await buildApp({ config, db: database.db, clock: systemClock, sms, logger });
  const jobs = startBackgroundJobs({ config, db: database.db, clock: systemClock, logger });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    // Stop taking requests, let those under way finish, then release the database.
    const forced = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      jobs.stop();
      await app.close();
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

  await app.listen({ host: config.host, port: config.port });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
