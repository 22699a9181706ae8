import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate } from './migrate';
import { openDatabase } from './client';
import { startTestServer, usingPostgres, type TestServer } from '../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: false });
});
afterAll(() => server?.close());

describe('migrations', () => {
  it('are applied once, and a second run (or a concurrent one) applies nothing', async () => {
    const [first, second] = await Promise.all([migrate(server.db), migrate(server.db)]);
    expect(first).toEqual([]);
    expect(second).toEqual([]);
    const rows = await sql<{ version: string }>`SELECT version FROM schema_migrations ORDER BY version`.execute(server.db);
    expect(rows.rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
  });

  it.runIf(usingPostgres())('applied by two processes starting together on an empty database: each file once', async () => {
    const schema = `t_migrate_${process.pid}_${Date.now()}`;
    const open = () => openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: 'memory://unused', schema, poolSize: 2 });
    const a = await open();
    const b = await open();
    try {
      const [first, second] = await Promise.all([migrate(a.db), migrate(b.db)]);
      expect([...first, ...second].sort()).toEqual(listMigrations().map((m) => m.version));
      const rows = await sql<{ count: string }>`SELECT count(*) FROM schema_migrations`.execute(a.db);
      expect(Number(rows.rows[0]!.count)).toBe(listMigrations().length);
    } finally {
      await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(a.db);
      await Promise.all([a.close(), b.close()]);
    }
  });

  /** The current season (0033_seasons.sql): contestants and books are written into it. */
  const currentSeason = async () =>
    (await server.db.selectFrom('contests').select('id').where('is_current', '=', true).executeTakeFirst()) ??
    (await server.db
      .insertInto('contests')
      .values({ name: 'Cuộc thi Thử', is_current: true, exam_starts_at: new Date('2026-05-01T01:00:00Z'), exam_ends_at: new Date('2026-05-10T01:00:00Z'), results_at: new Date('2026-05-20T01:00:00Z') })
      .returning('id')
      .executeTakeFirstOrThrow());

  it('enforce the contest rules the database can hold', async () => {
    const db = server.db;
    await currentSeason();
    const { id: districtId } = await db.insertInto('districts').values({ name: 'Huyện Thử' }).returning('id').executeTakeFirstOrThrow();
    const { id: otherDistrict } = await db.insertInto('districts').values({ name: 'Huyện Khác' }).returning('id').executeTakeFirstOrThrow();
    const { id: schoolId } = await db.insertInto('schools').values({ district_id: districtId, name: 'Trường Thử' }).returning('id').executeTakeFirstOrThrow();
    const { id: groupId } = await db.insertInto('class_groups').values({ name: 'Nhóm Thử', grades: '1-2', position: 9 }).returning('id').executeTakeFirstOrThrow();
    const { id: userId } = await db.insertInto('users').values({ phone: '0911111111', password_hash: 'x', role: 'parent', school_id: null }).returning('id').executeTakeFirstOrThrow();
    const contestant = (position: number, district = districtId, other: string | null = '1A') =>
      db.insertInto('contestants').values({
        user_id: userId,
        position,
        fullname: 'Bé Thử',
        district_id: district,
        school_id: schoolId,
        class_group_id: groupId,
        class_room_id: null,
        class_room_other: other,
      }).execute();

    await contestant(1);
    await expect(contestant(1)).rejects.toMatchObject(violates(UNIQUE, 'contestants_user_id_position_key')); // same position twice
    await expect(contestant(4)).rejects.toMatchObject(violates(CHECK, 'contestants_position_check')); // a fourth contestant
    await expect(contestant(2, otherDistrict)).rejects.toMatchObject(violates(FOREIGN_KEY, 'contestants_school_id_district_id_fkey')); // school outside the district
    await expect(contestant(2, districtId, '123456')).rejects.toMatchObject(violates(CHECK, 'contestants_class_room_other_check')); // free-text class over 5 characters
    await expect(contestant(2, districtId, null)).rejects.toMatchObject(violates(CHECK, 'contestants_check')); // neither class room nor free text
    await expect(
      db.insertInto('users').values({ phone: '0922222222', password_hash: 'x', role: 'school_admin', school_id: null }).execute(),
    ).rejects.toMatchObject(violates(CHECK, 'users_check')); // a school administrator without a school
  });

  it('hold each rule of an exam row as a named CHECK constraint, on insert and on update, even with triggers off', async () => {
    const db = server.db;
    await currentSeason();
    const { id: districtId } = await db.insertInto('districts').values({ name: 'Huyện Bài Thi' }).returning('id').executeTakeFirstOrThrow();
    const { id: schoolId } = await db.insertInto('schools').values({ district_id: districtId, name: 'Trường Bài Thi' }).returning('id').executeTakeFirstOrThrow();
    const { id: groupId } = await db.insertInto('class_groups').values({ name: 'Nhóm Bài Thi', grades: '3-4', position: 8 }).returning('id').executeTakeFirstOrThrow();
    const { id: userId } = await db.insertInto('users').values({ phone: '0933333333', password_hash: 'x', role: 'parent', school_id: null }).returning('id').executeTakeFirstOrThrow();
    const { id: contestantId } = await db
      .insertInto('contestants')
      .values({ user_id: userId, position: 1, fullname: 'Bé Thi', district_id: districtId, school_id: schoolId, class_group_id: groupId, class_room_id: null, class_room_other: '3A' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: bookId } = await db.insertInto('books').values({ class_group_id: groupId, name: 'Sách Thử', image: '/x.svg', position: 99 }).returning('id').executeTakeFirstOrThrow();
    const { id: contestId } = await currentSeason();
    let attempt = 0;
    // A valid exam in progress, every column given (triggers may be off); `rule` breaks one rule.
    const exam = (rule: Record<string, unknown> = {}) => ({
      slug: `exam-rule-test-slug-${(attempt += 1)}`,
      contest_id: contestId,
      contestant_id: contestantId,
      user_id: userId,
      book_id: bookId,
      attempt: 1,
      status: 2,
      start_time: new Date('2026-05-01T02:00:00Z'),
      end_time: new Date('2026-05-01T02:20:00Z'),
      questions: '[]',
      answer_key: '{}',
      answer_options: '{}',
      ...rule,
    });
    const finished = { status: 1, submitted_at: new Date('2026-05-01T02:10:00Z'), points: 50, correct_count: 10, duration_seconds: 600 };
    const rules: [string, Record<string, unknown>][] = [
      ['exams_slug_check', { slug: 'short' }],
      ['exams_attempt_check', { attempt: 5 }],
      // A 4th attempt only with the organiser's extra attempt (0013_exam_days.sql).
      ['exams_extra_attempt_check', { attempt: 4 }],
      ['exams_extension_minutes_check', { extension_minutes: 21 }],
      ['exams_status_check', { ...finished, status: 3 }],
      ['exams_correct_count_check', { correct_count: -1 }],
      ['exams_points_check', { ...finished, points: 101 }],
      ['exams_duration_seconds_check', { ...finished, duration_seconds: -1 }],
      ['exams_check', { end_time: new Date('2026-05-01T02:00:00Z') }], // start_time < end_time
      ['exams_check1', { ...finished, submitted_at: null }], // a finished exam is scored and timed
      ['exams_prediction_check', { prediction: -1 }],
    ];
    const { id: examId } = await db.insertInto('exams').values(exam() as never).returning('id').executeTakeFirstOrThrow();
    for (const [constraint, rule] of rules) {
      await expect(db.insertInto('exams').values(exam(rule) as never).execute(), constraint).rejects.toMatchObject(violates(CHECK, constraint));
      const update = db.updateTable('exams').set(rule as never).where('id', '=', examId).execute();
      await expect(update, constraint).rejects.toMatchObject(violates(CHECK, constraint));
      // A restore with triggers off (pg_restore --disable-triggers, replica role) still checks.
      const restore = db.transaction().execute(async (trx) => {
        await sql`SET LOCAL session_replication_role = replica`.execute(trx);
        await trx.insertInto('exams').values(exam(rule) as never).execute();
      });
      await expect(restore, constraint).rejects.toMatchObject(violates(CHECK, constraint));
    }
    await db.insertInto('exams').values(exam({ ...finished, attempt: 2 }) as never).execute();
  });
});

// SQLSTATEs of the integrity rules (PostgreSQL appendix A), with the constraint they name.
const UNIQUE = '23505';
const FOREIGN_KEY = '23503';
const CHECK = '23514';
const violates = (code: string, constraint: string) => ({ code, constraint });
