// The autosave's plan when the statistics predate the exam-day rush (repo.ts, SAVE_ANSWERS_SQL):
// statistics taken while few exams were in progress, then thousands of exams started. The save
// must still find its exams by primary key and its sessions by index, never read a table or the
// in-progress partial indexes whole (that cost grows with every contestant, at the peak). The same
// for the exam screen's load (OPEN_EXAM): its exam by slug or by contestant, never by book.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { startExam } from '../../test/exam-fixtures';
import { OPEN_EXAM, SAVE_ANSWERS_SQL } from './repo';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const RUSH = 3000;
const NAME = 'Thí sinh giờ cao điểm';

it('keeps the save on the primary key and the session index with statistics from before the rush', async () => {
  const exam = await startExam(server);
  const { plan, openPlan } = await server.db.transaction().execute(async (trx) => {
    await sql`ANALYZE exams`.execute(trx);
    await sql`ANALYZE sessions`.execute(trx);
    await sql`INSERT INTO users (phone, password_hash) SELECT '07' || lpad(g::text, 8, '0'), 'x' FROM generate_series(1, ${RUSH}::int) g`.execute(trx);
    await sql`INSERT INTO sessions (user_id, token_hash, expires_at)
              SELECT id, md5(phone) || md5('x' || phone), now() + interval '1 day' FROM users WHERE phone LIKE '07%'`.execute(trx);
    await sql`INSERT INTO contestants (user_id, position, fullname, district_id, school_id, class_group_id, class_room_id, class_room_other)
              SELECT u.id, 1, ${NAME}, c.district_id, c.school_id, c.class_group_id, c.class_room_id, c.class_room_other
              FROM users u, contestants c WHERE u.phone LIKE '07%' AND c.id = ${exam.childId}`.execute(trx);
    await sql`INSERT INTO exams (slug, contest_id, contestant_id, user_id, book_id, attempt, status, start_time, end_time, questions, answer_key)
              SELECT 'rush-exam-slug-' || c.id, e.contest_id, c.id, c.user_id, e.book_id, 1, 2, e.start_time, e.end_time, e.questions, e.answer_key
              FROM contestants c, exams e WHERE c.fullname = ${NAME} AND e.id = ${exam.examId}`.execute(trx);
    // As each app connection plans it after a few runs: once, for any parameters.
    await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(trx);
    await sql.raw(`PREPARE save_plan_test AS ${SAVE_ANSWERS_SQL}`).execute(trx);
    const explain = async (statement: string, values: string) => {
      await sql.raw(`PREPARE plan_test AS ${statement}`).execute(trx);
      const { rows } = await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE plan_test${values}`).execute(trx);
      await sql`DEALLOCATE plan_test`.execute(trx);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    };
    return {
      plan: await explain(SAVE_ANSWERS_SQL, `('[]', '{}')`),
      openPlan: await explain(OPEN_EXAM.text, `('h', now(), now(), 'w', 's', ${exam.bookId}, ${exam.childId})`),
    };
  });
  // By index (plain or bitmap, as the planner prefers), never a scan of a whole table or partial index.
  expect(plan).toMatch(/Index Scan (using|on) exams_pkey/);
  expect(plan).toMatch(/Index Scan (using|on) sessions_(token_hash_key|user_idx)/);
  expect(plan).not.toMatch(/Seq Scan|exams_in_progress_deadline_idx|exams_one_in_progress_idx/);

  // The load: its exam by the slug's unique index or the contestant's (at most four rows), never a
  // book's thousands; its session by index.
  expect(openPlan).toMatch(/Index Scan (using|on) (exams_slug_key|exams_contestant_id_attempt_key)/);
  expect(openPlan).toMatch(/Index Scan (using|on) sessions_token_hash_key/);
  expect(openPlan).not.toMatch(/Seq Scan on (exams|sessions)|exams_book_idx|exams_in_progress_deadline_idx|exams_one_in_progress_idx/);
});
