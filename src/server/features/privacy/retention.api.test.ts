// Issue 15: the retention job removes exactly what is past the limit, with a moved clock. Every
// date that decides (an account's last login, enrolment, exam; the results date) is set in the
// database, so the test does not depend on the day it runs.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { createContestant, createOrganiser, createParent, createSchoolAdmin, firstSchool, type CreatedUser } from '../../test/factories';
import { bookForClassRoom, insertFinishedExams, insertPupils, sessionAt } from '../../demo/finished-exams';
import { computeResults, publishResults } from '../results/compute';
import { applyRetention, runRetentionJob } from './retention';

let server: TestServer;
const day = (iso: string) => new Date(`${iso}T12:00:00+07:00`);
// The contest: exams in April 2026, results on 15/05/2026; kept 12 months: until 15/05/2027.
const EXAM_STARTS = day('2026-04-01');
const EXAM_ENDS = day('2026-05-01');
const RESULTS = day('2026-05-15');

let organiser: CreatedUser;
let leaving: CreatedUser; // last active before the results date: erased from 15/05/2027
let winner: { id: number };
let unplayed: { id: number };
let returning: CreatedUser; // logged in again after the results date: kept longer
let silent: CreatedUser; // registered, never enrolled: erased with the contest's data
let schoolAdmin: CreatedUser;

async function setActivity(user: { id: number }, at: Date) {
  await server.db.updateTable('users').set({ created_at: at, last_login_at: at }).where('id', '=', user.id).execute();
  await server.db.updateTable('contestants').set({ created_at: at }).where('user_id', '=', user.id).execute();
}

const snapshotSchools = () =>
  server.db.selectFrom('school_results').select(['school_id', 'participants', 'score', 'rank', 'prize_code']).orderBy('school_id').execute();

beforeAll(async () => {
  server = await startTestServer({ now: day('2026-03-01') });
  const contest = await server.db.selectFrom('contests').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
  await server.db
    .updateTable('contests')
    .set({ reading_starts_at: day('2026-03-01'), exam_starts_at: EXAM_STARTS, exam_ends_at: EXAM_ENDS, results_at: RESULTS, ceremony_starts_at: day('2026-05-20'), ceremony_ends_at: day('2026-05-21'), reading_ends_at: EXAM_ENDS })
    .where('id', '=', contest.id)
    .execute();
  organiser = await createOrganiser(server);
  schoolAdmin = await createSchoolAdmin(server);
  const school = await firstSchool(server.db);

  // Other pupils of the school, so that it has statistics and a ranking of its own.
  const pupils = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 8, phonePrefix: '0388' });
  const book = await bookForClassRoom(server.db, '5A1');
  const at = (minutes: number) => new Date(EXAM_STARTS.getTime() + minutes * 60_000);
  await insertFinishedExams(server.db, pupils.map((p, i) => ({ contestantId: p.id, bookId: book.id, attempt: 1, points: 40 + i * 5, durationSeconds: 600, submittedAt: at(60 + i), prediction: null })));
  for (const pupil of pupils) await setActivity({ id: pupil.userId }, day('2026-04-02'));

  leaving = await createParent(server);
  winner = await createContestant(server, leaving, { fullname: 'Đỗ Minh Khôi', schoolId: school.id });
  unplayed = await createContestant(server, leaving, { fullname: 'Đỗ Minh An' });
  await insertFinishedExams(server.db, [{ contestantId: winner.id, bookId: book.id, attempt: 1, points: 100, durationSeconds: 300, submittedAt: at(30), prediction: 9 }]);
  await setActivity(leaving, day('2026-04-10'));

  returning = await createParent(server);
  const sibling = await createContestant(server, returning, { schoolId: school.id });
  await insertFinishedExams(server.db, [{ contestantId: sibling.id, bookId: book.id, attempt: 1, points: 55, durationSeconds: 700, submittedAt: at(90), prediction: null }]);
  await setActivity(returning, day('2026-10-01'));

  silent = await createParent(server);
  await setActivity(silent, day('2026-03-05'));
  await server.db.updateTable('users').set({ created_at: day('2026-01-01') }).where('id', '=', schoolAdmin.id).execute();

  // Results computed after the window and published on the results date.
  server.clock.set(day('2026-05-16'));
  await computeResults(server);
  const row = await server.db.selectFrom('contests').selectAll().where('id', '=', contest.id).executeTakeFirstOrThrow();
  await publishResults(server.db, row, server.clock.now(), organiser.id);

  // Two audit entries: one older than the limit will be on the day of the run, one recent.
  await server.db.insertInto('audit_log').values({ at: day('2026-05-15'), actor_id: organiser.id, actor_phone: organiser.phone, kind: 'contest.update', summary: 'Cũ', details: '{}' }).execute();
  await server.db.insertInto('audit_log').values({ at: day('2027-01-01'), actor_id: organiser.id, actor_phone: organiser.phone, kind: 'contest.update', summary: 'Mới', details: '{}' }).execute();
});
afterAll(() => server.close());

const exists = async (userId: number) => Boolean(await server.db.selectFrom('users').select('id').where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst());

describe('the retention job', () => {
  it('removes nothing the day before the limit', async () => {
    server.clock.set(day('2027-05-14'));
    const outcome = await applyRetention(server);
    expect(outcome).toMatchObject({ accounts_erased: 0, contestants_anonymised: 0, contestants_deleted: 0 });
    for (const user of [leaving, returning, silent, schoolAdmin]) expect(await exists(user.id)).toBe(true);
  });

  it('follows the setting: kept 24 months, nothing goes on the day after 12', async () => {
    // A year later the organiser logs in again.
    const token = await sessionAt(server.db, organiser.id, server.clock.now());
    const put = await server.request('PUT', '/api/admin/contest', { token, body: { retention_months: 24 } });
    expect(put.status).toBe(200);
    expect(put.body.data.retention_months).toBe(24);
    server.clock.set(day('2027-05-16'));
    expect((await applyRetention(server)).accounts_erased).toBe(0);
    const again = await sessionAt(server.db, organiser.id, server.clock.now());
    const back = await server.request('PUT', '/api/admin/contest', { token: again, body: { retention_months: 12 } });
    expect(back.status).toBe(200);
  });

  it('erases exactly the accounts past the limit, keeps the statistics and the prize on record', async () => {
    const schoolsBefore = await snapshotSchools();
    const outcome = await applyRetention(server);
    // The 8 other pupils' 3 parents (last active 02/04/2026), the leaving family and the silent one.
    expect(outcome).toMatchObject({ accounts_erased: 5, contestants_anonymised: 9, contestants_deleted: 1, audit_entries_deleted: 1 });
    expect(await exists(leaving.id)).toBe(false);
    expect(await exists(silent.id)).toBe(false);
    expect(await exists(returning.id)).toBe(true);
    expect(await exists(schoolAdmin.id)).toBe(true);
    expect(await server.db.selectFrom('users').select('id').where('id', '=', silent.id).executeTakeFirst()).toBeUndefined();

    const kept = await server.db.selectFrom('contestants').select(['id', 'fullname', 'anonymised_at']).where('user_id', '=', leaving.id).execute();
    expect(kept.map(({ id, fullname }) => ({ id, fullname }))).toEqual([{ id: winner.id, fullname: `Thí sinh đã xoá #${winner.id}` }]);
    expect(await server.db.selectFrom('contestants').select('id').where('id', '=', unplayed.id).executeTakeFirst()).toBeUndefined();
    const login = await server.request('POST', '/api/login', { body: { phone: leaving.phone, password: leaving.password } });
    expect(login.status).toBe(401);

    // The prize (published) stays on record with the organiser under the child's name.
    const prizes = await server.db.selectFrom('prize_records').select(['contestant_id', 'fullname', 'prize_name', 'amount']).where('contestant_id', '=', winner.id).execute();
    expect(prizes).toContainEqual({ contestant_id: winner.id, fullname: 'Đỗ Minh Khôi', prize_name: 'Giải Đặc biệt', amount: 10_000_000 });

    // Statistics and the ranking, computed again, are unchanged.
    await computeResults(server);
    expect(await snapshotSchools()).toEqual(schoolsBefore);

    // The old audit entry went, the recent one stayed, and the log is read-only again.
    const audit = await server.db.selectFrom('audit_log').select('summary').where('summary', 'in', ['Cũ', 'Mới']).execute();
    expect(audit.map((row) => row.summary)).toEqual(['Mới']);
    await expect(server.db.deleteFrom('audit_log').where('summary', '=', 'Mới').execute()).rejects.toThrow(/cannot be changed or deleted/);
  });

  it('keeps an account active after the results date for 12 months from that activity', async () => {
    server.clock.set(day('2027-09-30'));
    expect((await applyRetention(server)).accounts_erased).toBe(0);
    server.clock.set(day('2027-10-02'));
    expect((await applyRetention(server)).accounts_erased).toBe(1);
    expect(await exists(returning.id)).toBe(false);
  });

  it('runs once a day, whichever process asks', async () => {
    const runs = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM retention_runs`.execute(server.db)).rows[0]!.n);
    server.clock.set(day('2027-10-10'));
    const before = await runs();
    await Promise.all([runRetentionJob(server.db, server.clock), runRetentionJob(server.db, server.clock)]);
    expect(await runs()).toBe(before + 1);
    server.clock.set(new Date(day('2027-10-10').getTime() + 3_600_000));
    await runRetentionJob(server.db, server.clock);
    expect(await runs()).toBe(before + 1);
  });
});
