// npm run bench:report — the school report for a school of 3,000 pupils with 9,000 finished
// exams, in a contest of 30,000 exams. Prints the query plan of the report's main query and
// timings. PGlite in memory by default; BENCH_DATABASE_URL=postgres://... for a PostgreSQL server
// (a throw-away schema is made and dropped).
import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { seed } from '../src/server/db/seed/seed';
import { createManualClock } from '../src/server/lib/clock';
import { finishedAttemptsQuery } from '../src/server/core/ranking/repo';
import { schoolReport } from '../src/server/features/reports/service';
import { bookForClassRoom, insertFinishedExams, insertPupils, type FinishedExamInput } from '../src/server/demo/finished-exams';

const PUPILS = 3000;
const ATTEMPTS = 3;
// Pupils of the other schools (7 of them), 3 exams each; BENCH_OTHER_PUPILS to change.
const OTHER_PUPILS = Number(process.env.BENCH_OTHER_PUPILS ?? 7000);
const RUNS = 20;

const schema = `bench_${randomBytes(4).toString('hex')}`;
const databaseUrl = process.env.BENCH_DATABASE_URL;
const database = await openDatabase({ databaseUrl, dataDir: 'memory://bench', schema });
const db = database.db;
const started = Date.now();
try {
  await migrate(db);
  const clock = createManualClock();
  await seed(db, { clock, demoWindow: true });
  const contest = await db.selectFrom('contests').selectAll().executeTakeFirstOrThrow();
  const schools = await db.selectFrom('schools').select(['id', 'name']).orderBy('id').execute();
  const target = schools[0]!;
  const rooms = (await db.selectFrom('class_rooms').select('name').orderBy('class_group_id').orderBy('position').execute()).map((r) => r.name);
  const books = new Map<string, number>();
  for (const room of rooms) books.set(room, (await bookForClassRoom(db, room)).id);

  async function fill(schoolId: number, count: number, attempts: number, prefix: string) {
    const pupils = await insertPupils(db, { schoolId, classRooms: rooms, count, phonePrefix: prefix });
    const exams: FinishedExamInput[] = [];
    pupils.forEach((pupil, i) => {
      for (let attempt = 1; attempt <= attempts; attempt += 1) {
        exams.push({
          contestantId: pupil.id,
          bookId: books.get(pupil.classRoom)!,
          attempt,
          points: 5 * ((i * 7 + attempt * 3) % 21),
          durationSeconds: 120 + ((i * 13 + attempt) % 1080),
          submittedAt: new Date(contest.exam_starts_at.getTime() + (i * 3 + attempt) * 1000),
          prediction: (i * 37) % 50_000,
        });
      }
    });
    await insertFinishedExams(db, exams);
  }
  await fill(target.id, PUPILS, ATTEMPTS, '0381');
  // The rest of the contest: other schools' pupils and exams in the same tables.
  for (const [index, school] of schools.slice(1, 8).entries()) await fill(school.id, Math.round(OTHER_PUPILS / 7), ATTEMPTS, `038${index + 2}`);
  // The steady state of a live database (autovacuum has run): visibility map set, statistics fresh.
  await sql`VACUUM ANALYZE`.execute(db);
  const counts = await db.selectFrom('exams').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  console.log(`Data: ${PUPILS} pupils and ${PUPILS * ATTEMPTS} exams in ${target.name}; ${counts.n} exams in all (${Math.round((Date.now() - started) / 1000)} s to build).`);
  console.log(`Database: ${database.kind}\n`);

  const compiled = finishedAttemptsQuery(db, contest.id, { schoolId: target.id }).compile();
  const plan = await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS) ${compiled.sql}`, [...compiled.parameters]));
  console.log('Query plan of the school\'s finished exams:');
  for (const row of plan.rows) console.log(`  ${row['QUERY PLAN']}`);

  const config = loadConfig({ NODE_ENV: 'test' });
  const admin = { id: 0, phone: '', name: '', role: 'school_admin' as const, schoolId: target.id, sessionId: 0 };
  const timings: number[] = [];
  let rows = 0;
  for (let run = 0; run < RUNS + 2; run += 1) {
    const t0 = performance.now();
    const report = await schoolReport({ db, clock, config }, admin);
    const elapsed = performance.now() - t0;
    rows = report.data.score.length;
    if (run >= 2) timings.push(elapsed); // the first two warm the caches
  }
  timings.sort((a, b) => a - b);
  const pick = (q: number) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))]!.toFixed(1);
  console.log(`\nGET /api/report-school service (${rows} score rows), ${RUNS} runs: median ${pick(0.5)} ms, p90 ${pick(0.9)} ms, max ${pick(1)} ms`);
} finally {
  await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(db);
  await database.close();
}
