// npm run seed: migrates and loads the demo content into an empty database.
//   --spec-dates   use the spec's dates (exam 02/04/2025-13/04/2025) instead of a window opening today
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { seedIfEmpty } from '../db/seed/seed';
import { addPreviousDemoSeason } from '../demo/previous-season';
import { systemClock } from '../lib/clock';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(database.db);
  const demoWindow = !process.argv.includes('--spec-dates');
  const seeded = await seedIfEmpty(database.db, { clock: systemClock, demoWindow, demoAccounts: true });
  // With the demo's dates, last year's finished season too (issue 26).
  if (seeded && demoWindow) await addPreviousDemoSeason(database.db, systemClock);
  console.log(seeded ? 'Demo content loaded.' : 'The database already has content; nothing loaded.');
} finally {
  await database.close();
}
