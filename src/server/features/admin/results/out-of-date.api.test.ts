// Issue 42.1: results go out of date when something that can move a prize changes after their
// computation. Each such change marks them in its own transaction; the overview lists what
// changed; publishing them is refused (409) unless the organiser confirms those very changes with
// a reason (audited); computing again makes them current. Edits that cannot move a prize (a
// school's address) mark nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { computeResultsTask, createOrganiser, type CreatedUser } from '../../../test/factories';
import { bookForClassRoom, insertFinishedExams, insertPupils, sessionAt } from '../../../demo/finished-exams';
import type { Contest } from '../../../db/schema';

let server: TestServer;
let organiser: CreatedUser;
let contest: Contest;
let school: { id: number; district_id: number; name: string; address: string; pupil_count: number };
let pupils: { id: number }[];

const api = (method: string, path: string, body?: unknown) => server.request(method, path, { token: organiser.token, body });
const overview = async () => (await api('GET', '/api/admin/results')).body.data;
const lastAudit = () => server.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

const compute = () => computeResultsTask(server, organiser.token);

const editSchool = (changes: Partial<typeof school>) =>
  api('PUT', `/api/admin/schools/${school.id}`, { district_id: school.district_id, name: school.name, address: school.address, pupil_count: school.pupil_count, ...changes });

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  contest = await server.db.selectFrom('contests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  school = await server.db
    .selectFrom('schools')
    .select(['id', 'district_id', 'name', 'address', 'pupil_count'])
    .where('name', '=', 'Trường Tiểu học Lê Lợi')
    .executeTakeFirstOrThrow();
  pupils = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 3, fullname: (i) => `Thí Sinh ${i + 1}` });
  const book = (await bookForClassRoom(server.db, '5A1')).id;
  const at = contest.exam_starts_at.getTime() + 3_600_000;
  await insertFinishedExams(
    server.db,
    pupils.map((pupil, i) => ({ contestantId: pupil.id, bookId: book, attempt: 1, points: 90 - i * 5, durationSeconds: 300 + i, submittedAt: new Date(at + i * 1000), prediction: 3 })),
  );
  // Past the results date: publishing is allowed as far as the dates go.
  const now = new Date(contest.results_at.getTime() + 60_000);
  server.clock.set(now);
  organiser = { ...organiser, token: await sessionAt(server.db, organiser.id, now) };
});
afterAll(() => server?.close());

describe('results out of date', () => {
  it('are current right after a computation; a change to an address marks nothing', async () => {
    await compute();
    expect((await overview()).run.out_of_date).toBeNull();
    expect((await editSchool({ address: 'Số 2 đường Lê Lợi' })).status).toBe(200);
    school.address = 'Số 2 đường Lê Lợi';
    expect((await overview()).run.out_of_date).toBeNull();
  });

  it("a school's size changed after the computation: the overview says what changed, and publishing is refused", async () => {
    expect((await editSchool({ pupil_count: school.pupil_count + 200 })).status).toBe(200);
    school.pupil_count += 200;
    const { run, publish } = await overview();
    expect(run.out_of_date).toMatchObject({ count: 1, changes: [{ kind: 'school.update', summary: `Sửa trường ${school.name}`, actor_phone: organiser.phone }] });
    // Publishing stays possible, with a confirmation.
    expect(publish.allowed).toBe(true);

    const refused = await api('POST', '/api/admin/results/publish');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: 'results_out_of_date' });
    expect(refused.body.message).toContain('1 thay đổi có thể làm đổi giải');
    const noReason = await api('POST', '/api/admin/results/publish', { out_of_date: { changes: run.out_of_date.through, reason: ' ' } });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toHaveProperty(['out_of_date.reason']);
    expect((await server.db.selectFrom('result_runs').select('published_at').executeTakeFirstOrThrow()).published_at).toBeNull();
  });

  it('counts every kind of change that can move a prize: a class renamed, the prize settings, an extra attempt, a merge', async () => {
    const before = (await overview()).run.out_of_date.count;
    const room = await server.db.selectFrom('class_rooms').selectAll().where('name', '=', '5A1').executeTakeFirstOrThrow();
    expect((await api('PUT', `/api/admin/class-rooms/${room.id}`, { class_group_id: room.class_group_id, name: '5A01', position: room.position })).status).toBe(200);

    const settings = (await api('GET', '/api/admin/contest')).body.data;
    const saved = await api('PUT', '/api/admin/contest', { ...settings, class_min_participants: settings.class_min_participants + 1 });
    expect(saved.status).toBe(200);

    const extra = await api('POST', `/api/admin/exam-days/contestants/${pupils[0]!.id}/extra-attempt`, { reason: 'Mất điện khi đang thi' });
    expect(extra.status).toBe(200);

    const other = await server.db.selectFrom('schools').select(['id', 'district_id']).where('name', '!=', school.name).orderBy('id').executeTakeFirstOrThrow();
    const empty = (await api('POST', '/api/admin/schools', { district_id: other.district_id, name: 'Trường Tiểu học Gộp Thử', address: '', pupil_count: 10 })).body.data;
    expect((await api('POST', `/api/admin/schools/${empty.id}/merge`, { into_id: other.id })).status).toBe(200);

    const { out_of_date } = (await overview()).run;
    expect(out_of_date.count).toBe(before + 4);
    expect(out_of_date.changes.map((change: { kind: string }) => change.kind)).toEqual(['school.merge', 'exam.extra_attempt', 'contest.update', 'class_room.update', 'school.update']);
  });

  it('publishes out-of-date results only for the changes confirmed, with the reason in the audit log', async () => {
    const { through, count } = (await overview()).run.out_of_date;
    const stale = await api('POST', '/api/admin/results/publish', { out_of_date: { changes: through - 1, reason: 'Đã kiểm tra: không đổi giải' } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('Đã có thêm thay đổi sau khi bạn xem kết quả. Hãy xem lại danh sách thay đổi rồi xác nhận lại.');

    const published = await api('POST', '/api/admin/results/publish', { out_of_date: { changes: through, reason: 'Đã kiểm tra: không đổi giải' } });
    expect(published.status).toBe(200);
    const audit = await lastAudit();
    expect(audit.kind).toBe('results.publish');
    expect(audit.summary).toContain(`kết quả đã cũ (${count} thay đổi sau lần tính), lý do công bố: Đã kiểm tra: không đổi giải`);
    expect(audit.details).toMatchObject({ out_of_date: { changes: count, reason: 'Đã kiểm tra: không đổi giải' } });
  });

  it('are current again once computed again', async () => {
    await compute();
    expect((await overview()).run.out_of_date).toBeNull();
    const counted = await server.db.selectFrom('contests').select('result_changes').where('id', '=', contest.id).executeTakeFirstOrThrow();
    const run = await server.db.selectFrom('result_runs').select('result_changes_seen').where('contest_id', '=', contest.id).executeTakeFirstOrThrow();
    expect(run.result_changes_seen).toBe(counted.result_changes);
  });
});
