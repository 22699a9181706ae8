// Prepares the data folder of the second browser-test server: the demo contest with a 25-second
// exam, so that a test can watch an exam's time run out (no test hook in the server: the contest's
// own setting). Its questions begin with a line of their own (issue 23.20: a question keeps its line
// breaks, a poem quoted line by line), which question-line-breaks.spec.ts looks for. Run before the
// server starts; PGlite files are opened by one process at a time.
import { sql } from 'kysely';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { seedIfEmpty } from '../src/server/db/seed/seed';
import { systemClock } from '../src/server/lib/clock';
import { SHORT_EXAM_QUESTION_LEAD } from '../playwright.config';

export const SHORT_EXAM_SECONDS = 25;

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(database.db);
  await seedIfEmpty(database.db, { clock: systemClock, demoWindow: true, demoAccounts: true });
  await database.db.updateTable('contests').set({ exam_duration_seconds: SHORT_EXAM_SECONDS }).execute();
  await database.db
    .updateTable('questions')
    .set({ value: sql<string>`${`${SHORT_EXAM_QUESTION_LEAD}\n`} || value` })
    .execute();
} finally {
  await database.close();
}
