// npm run results:demo [-- --publish]
// Simulates finished exams for about 500 made-up pupils of the demo school and six others, so
// that the demo school's report (0901000001 / truong123) has figures. With --publish it also
// ends the exam window a minute ago, publishes the results now and computes them: the report then
// shows the school and class prizes and prize certificates exist (exams can no longer be taken).
// With the embedded database (no DATABASE_URL), stop the server first: PGlite has one user.
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { seedIfEmpty } from '../db/seed/seed';
import { systemClock } from '../lib/clock';
import { simulateDemoResults } from '../demo/results';

const publish = process.argv.includes('--publish');
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(database.db);
  await seedIfEmpty(database.db, { clock: systemClock, demoWindow: true, demoAccounts: true });
  const summary = await simulateDemoResults(database.db, systemClock, { publish });
  if (summary.exams) console.log(`Đã mô phỏng ${summary.exams} bài thi của ${summary.pupils} học sinh ở ${summary.schools} trường.`);
  if (summary.results) {
    console.log(`Đã tính kết quả: ${summary.results.participants} thí sinh, ${summary.results.individualWinners.length} giải cá nhân; kết quả công bố từ bây giờ.`);
  } else {
    console.log('Chạy thêm với --publish để kết thúc thời gian thi và công bố kết quả (giải thưởng, giấy chứng nhận đạt giải).');
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
