// npm run seed: migrates and loads the demo content into an empty database.
//   --spec-dates   use the spec's dates (exam 02/04/2025-13/04/2025) instead of a window opening today
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { seedIfEmpty } from '../db/seed/seed';
import { systemClock } from '../lib/clock';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(database.db);
  const demoWindow = !process.argv.includes('--spec-dates');
  const seeded = await seedIfEmpty(database.db, { clock: systemClock, demoWindow, demoAccounts: true });
  console.log(seeded ? 'Demo content loaded.' : 'The database already has content; nothing loaded.');
} finally {
  await database.close();
}
