// npx tsx scripts/bench-results-export.ts — the results' back-office work on a province-sized
// contest: BENCH_CONTESTANTS (default 200,000) contestants with one finished exam each over the
// demo schools, generated in SQL. Measures the computation (ranking + storing, as the background
// task runs it) and the .xlsx exports (every contestant's best result; the winners), with the
// time and the process's peak memory of each (the workbook is written by a worker thread of
// the same process, so its memory is counted), and the event loop's delay during the export. BENCH_DATABASE_URL=postgres://... for a PostgreSQL
// server (a throw-away schema is made and dropped); PGlite in memory otherwise.
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { seed } from '../src/server/db/seed/seed';
import { createManualClock } from '../src/server/lib/clock';
import { bookForClassRoom, insertFinishedExams, insertPupils } from '../src/server/demo/finished-exams';
import { computeResults } from '../src/server/features/results/compute';
import { exportResults } from '../src/server/features/admin/results/exports';
import { bestResults } from '../src/server/features/admin/results/repo';

const CONTESTANTS = Number(process.env.BENCH_CONTESTANTS ?? 200_000);
const schema = `bench_${randomBytes(4).toString('hex')}`;
const database = await openDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL, dataDir: 'memory://bench', schema, poolSize: 4 });
const db = database.db;
const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;

/** Runs `work` and answers its result, wall time and the highest RSS seen while it ran. */
async function measure<T>(label: string, work: () => Promise<T>): Promise<T> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  try {
    return await work();
  } finally {
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s, peak RSS ${mb(peak)} (${mb(peak - before)} above the ${mb(before)} before)`);
  }
}

try {
  const started = Date.now();
  await migrate(db);
  const clock = createManualClock();
  await seed(db, { clock, demoWindow: true });
  const contest = await db.selectFrom('contests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  const schools = await db.selectFrom('schools').select(['id', 'district_id']).orderBy('id').execute();
  // One real pupil and exam (the exam flow's shape); the others copy its questions in SQL.
  const [template] = await insertPupils(db, { schoolId: schools[0]!.id, classRooms: ['5A1'], count: 1, phonePrefix: '0370' });
  const book = await bookForClassRoom(db, '5A1');
  const [exam] = await insertFinishedExams(db, [
    { contestantId: template!.id, bookId: book.id, attempt: 1, points: 50, durationSeconds: 600, submittedAt: new Date(contest.exam_starts_at.getTime() + 60_000), prediction: 1 },
  ]);
  const room = await db.selectFrom('class_rooms').select(['id', 'class_group_id']).where('name', '=', '5A1').executeTakeFirstOrThrow();
  await sql`
    WITH parents AS (
      INSERT INTO users (phone, password_hash, role)
      SELECT '036' || lpad(n::text, 7, '0'), 'x', 'parent' FROM generate_series(1, ${CONTESTANTS - 1}) AS n
      RETURNING id
    ), numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM parents)
    INSERT INTO contestants (user_id, position, fullname, district_id, school_id, class_group_id, class_room_id)
    SELECT p.id, 1, 'Thí Sinh ' || p.n, s.district_id, s.id, ${room.class_group_id}, ${room.id}
    FROM numbered p
    JOIN LATERAL (SELECT id, district_id FROM schools ORDER BY id OFFSET (p.n % ${schools.length}) LIMIT 1) s ON true
  `.execute(db);
  await sql`
    INSERT INTO exams (slug, contest_id, contestant_id, book_id, attempt, status, start_time, end_time, questions, answer_key, answers,
                       prediction, submitted_at, correct_count, points, duration_seconds)
    SELECT md5(c.id::text || 'bench'), t.contest_id, c.id, t.book_id, 1, 1,
           t.start_time + make_interval(secs => c.id % 86400), t.end_time + make_interval(secs => c.id % 86400),
           t.questions, t.answer_key, t.answers, (c.id * 37) % 500000,
           t.submitted_at + make_interval(secs => c.id % 86400 + (c.id % 120)), (c.id * 7) % 21, 5 * ((c.id * 7) % 21), 120 + (c.id * 13) % 1080
    FROM contestants c CROSS JOIN (SELECT * FROM exams WHERE id = ${exam!.id}) t
    WHERE c.id <> ${template!.id}
  `.execute(db);
  await sql`VACUUM ANALYZE`.execute(db);
  console.log(`Database: ${database.kind}; ${CONTESTANTS} contestants with a finished exam over ${schools.length} schools (${Math.round((Date.now() - started) / 1000)} s to build).\n`);

  clock.set(new Date(contest.exam_ends_at.getTime() + 60_000));
  let stages = 0;
  const summary = await measure('Compute (load, rank, store)', () => computeResults({ db, clock }, { onProgress: () => (stages += 1) }));
  console.log(`  ${summary.participants} ranked, ${summary.individualWinners.length} individual winners, ${stages} progress reports`);
  const actor = { id: 1, phone: 'bench' };
  await measure('Read every best result (the export’s query alone)', async () => {
    let rows = 0;
    for await (const page of bestResults(db, contest.id, {})) rows += page.length;
    console.log(`  ${rows} rows`);
  });
  // The event loop must keep serving the process's other requests while the export runs.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const all = await measure('Export: every contestant’s best result (.xlsx)', () => exportResults({ db }, actor, 'contestants', {}));
  loop.disable();
  console.log(`  ${mb(all.bytes.length)} file; event-loop delay meanwhile: p99 ${Math.round(loop.percentile(99) / 1e6)} ms, max ${Math.round(loop.max / 1e6)} ms`);
  const winners = await measure('Export: winners with parents’ phones (.xlsx)', () => exportResults({ db }, actor, 'winners', {}));
  console.log(`  ${Math.round(winners.bytes.length / 1024)} KB file`);
} finally {
  if (database.kind === 'postgres') await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(db);
  await database.close();
}
