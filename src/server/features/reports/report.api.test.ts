// GET /api/report-school against a hand-made data set of the demo school (Trường Tiểu học Lê Lợi).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { createParent, createSchoolAdmin } from '../../test/factories';
import { computeResults, publishResults } from '../results/compute';
import { bookForClassRoom, insertFinishedExams, insertPupils, newExamSlug, sessionAt } from '../../demo/finished-exams';
import { issueCertificates } from '../certificates/background';

let server: TestServer;
let admin: { id: number; token: string; schoolId: number };
let otherAdmin: { id: number; token: string };
let parent: { id: number; token: string };
let contest: { id: number; exam_starts_at: Date; exam_ends_at: Date; results_at: Date };
let bookNames: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  contest = await db.selectFrom('contests').select(['id', 'exam_starts_at', 'exam_ends_at', 'results_at']).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const school = await db.selectFrom('schools').select('id').where('name', '=', 'Trường Tiểu học Lê Lợi').executeTakeFirstOrThrow();
  const other = await db.selectFrom('schools').select('id').where('name', '=', 'Trường Tiểu học Nguyễn Trãi').executeTakeFirstOrThrow();
  admin = await createSchoolAdmin(server, school.id);
  otherAdmin = await createSchoolAdmin(server, other.id);
  parent = await createParent(server);

  // The seed's demo parent already has Nguyễn Minh Anh (2A1) and Nguyễn Đức Trường (5A3) here, without exams.
  const names = ['Trần Văn An', 'Lê Thị Bình', 'Phạm Minh Chi'];
  const a5 = await insertPupils(db, { schoolId: school.id, classRooms: ['5A1'], count: 3, fullname: (i) => names[i]! });
  const [dung] = await insertPupils(db, { schoolId: school.id, classRooms: ['5A3'], count: 1, fullname: () => 'Hoàng Tiến Dũng' });
  const [em] = await insertPupils(db, { schoolId: school.id, classRooms: ['2A1'], count: 1, fullname: () => 'Vũ Ngọc Em' });
  const [giang] = await insertPupils(db, { schoolId: other.id, classRooms: ['5A1'], count: 1, fullname: () => 'Đỗ Hà Giang' });
  const g5 = await bookForClassRoom(db, '5A1', 0);
  const g5b = await bookForClassRoom(db, '5A1', 1);
  const g1 = await bookForClassRoom(db, '2A1', 2);
  bookNames = { g5: g5.name, g5b: g5b.name, g1: g1.name };
  const at = (hours: number) => new Date(contest.exam_starts_at.getTime() + hours * 3_600_000);
  await insertFinishedExams(db, [
    { contestantId: a5[0]!.id, bookId: g5.id, attempt: 1, points: 80, durationSeconds: 600, submittedAt: at(1), prediction: 500 },
    { contestantId: a5[0]!.id, bookId: g5.id, attempt: 2, points: 90, durationSeconds: 500, submittedAt: at(2), prediction: 600 },
    { contestantId: a5[1]!.id, bookId: g5.id, attempt: 1, points: 70, durationSeconds: 400, submittedAt: at(3), prediction: null },
    { contestantId: dung!.id, bookId: g5b.id, attempt: 1, points: 95, durationSeconds: 700, submittedAt: at(4), prediction: 1234 },
    { contestantId: em!.id, bookId: g1.id, attempt: 1, points: 90, durationSeconds: 500, submittedAt: at(5), prediction: 10 },
    { contestantId: giang!.id, bookId: g5.id, attempt: 1, points: 100, durationSeconds: 100, submittedAt: at(6), prediction: 7 },
  ]);
  // Chi has an exam in progress: registered, not done.
  await db
    .insertInto('exams')
    .values({
      slug: newExamSlug(),
      contest_id: contest.id,
      contestant_id: a5[2]!.id,
      book_id: g5.id,
      attempt: 1,
      status: 2,
      start_time: at(7),
      end_time: new Date(at(7).getTime() + 1_200_000),
      questions: '[]',
      answer_key: '{}',
    })
    .execute();
});

afterAll(async () => {
  await server?.close();
});

describe('GET /api/report-school: who may see it', () => {
  it('401 without a valid token', async () => {
    expect((await server.request('GET', '/api/report-school')).status).toBe(401);
    const bad = await server.request('GET', '/api/report-school', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ success: false, code: 'unauthorized' });
  });

  it('403 for a parent', async () => {
    const response = await server.request('GET', '/api/report-school', { token: parent.token });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ success: false, code: 'forbidden', message: 'Chỉ tài khoản admin trường học mới xem được báo cáo của trường.' });
  });

  it("another school's administrator sees only their own school", async () => {
    const response = await server.request('GET', '/api/report-school', { token: otherAdmin.token });
    expect(response.status).toBe(200);
    expect(response.body.data.school.name).toBe('Trường Tiểu học Nguyễn Trãi');
    expect(response.body.data.total_done).toBe(1);
    expect(response.body.data.score.map((r: { fullname: string }) => r.fullname)).toEqual(['Đỗ Hà Giang']);
  });
});

describe('GET /api/report-school: the figures', () => {
  it('totals, pupils by class, scores in ranking order and classes', async () => {
    const { status, body } = await server.request('GET', '/api/report-school', { token: admin.token });
    expect(status).toBe(200);
    expect(body.data.school.name).toBe('Trường Tiểu học Lê Lợi');
    expect(body.data.total_register).toBe(7);
    expect(body.data.total_done).toBe(4);
    expect(body.data.quantity_students).toEqual([
      { class: '2A1', total_register: 2, total_done: 1 },
      { class: '5A1', total_register: 3, total_done: 2 },
      { class: '5A3', total_register: 2, total_done: 1 },
    ]);
    expect(body.data.score).toEqual([
      { rank: 1, tied: false, fullname: 'Hoàng Tiến Dũng', class: '5A3', count_exam: 1, points: 95, duration: '11 phút 40 giây', duration_seconds: 700, book: bookNames.g5b, prediction: 1234 },
      { rank: 2, tied: false, fullname: 'Trần Văn An', class: '5A1', count_exam: 2, points: 90, duration: '8 phút 20 giây', duration_seconds: 500, book: bookNames.g5, prediction: 600 },
      // Same points and time as An, submitted later.
      { rank: 3, tied: false, fullname: 'Vũ Ngọc Em', class: '2A1', count_exam: 1, points: 90, duration: '8 phút 20 giây', duration_seconds: 500, book: bookNames.g1, prediction: 10 },
      { rank: 4, tied: false, fullname: 'Lê Thị Bình', class: '5A1', count_exam: 1, points: 70, duration: '6 phút 40 giây', duration_seconds: 400, book: bookNames.g5, prediction: null },
    ]);
    expect(body.data.class).toEqual([
      { class: '2A1', total_register: 2, total_done: 1, avg_score: 90, avg_duration_format: '8 phút 20 giây', avg_duration_seconds: 500 },
      { class: '5A1', total_register: 3, total_done: 2, avg_score: 80, avg_duration_format: '7 phút 30 giây', avg_duration_seconds: 450 },
      { class: '5A3', total_register: 2, total_done: 1, avg_score: 95, avg_duration_format: '11 phút 40 giây', avg_duration_seconds: 700 },
    ]);
    expect(body.prize).toEqual({ image_cer: null, pdf_cer: null, prize_name: null, desc: null });
    expect(body.prizes_class).toEqual([]);
    expect(body.results_published).toBe(false);
    // No internal ids anywhere in the rows.
    expect(JSON.stringify(body.data)).not.toMatch(/"(id|contestant_id|exam_id|school_id)"/);
  });
});

/** Moves the clock by weeks: the sessions of that day are new ones. */
async function setClock(to: Date) {
  server.clock.set(to);
  for (const user of [admin, otherAdmin, parent]) user.token = await sessionAt(server.db, user.id, to);
}

describe('GET /api/report-school: prizes once the results are published', () => {
  beforeAll(async () => {
    // Small classes compete in this data set.
    await server.db.updateTable('result_settings').set({ class_min_participants: 1 }).execute();
    await setClock(new Date(contest.exam_ends_at.getTime() + 60_000));
    await computeResults(server);
  });

  it('stays hidden until published, even once computed', async () => {
    const { body } = await server.request('GET', '/api/report-school', { token: admin.token });
    expect(body.results_published).toBe(false);
    expect(body.prize.image_cer).toBeNull();
    expect(body.prizes_class).toEqual([]);
  });

  it('shows the school prize certificate and the prized classes with their teachers', async () => {
    await setClock(contest.results_at);
    await publishResults(server.db, await server.db.selectFrom('contests').selectAll().where('id', '=', contest.id).executeTakeFirstOrThrow(), contest.results_at, null);
    // Until the background job has issued the school's certificate, the prize shows without it.
    const early = (await server.request('GET', '/api/report-school', { token: admin.token })).body;
    expect(early.prize).toMatchObject({ prize_name: 'Giải Nhất tập thể trường', image_cer: null, pdf_cer: null });
    expect(await server.db.selectFrom('certificates').select('id').where('school_id', '=', admin.schoolId).execute()).toEqual([]);
    while ((await issueCertificates(server)) > 0);
    const { body } = await server.request('GET', '/api/report-school', { token: admin.token });
    expect(body.results_published).toBe(true);
    expect(body.prize.prize_name).toBe('Giải Nhất tập thể trường');
    expect(body.prize.image_cer).toMatch(/^\/api\/certificates\/[A-Z0-9-]+\/png$/);
    const teachers = await server.db.selectFrom('class_teachers').select(['class_name', 'teacher_name']).where('school_id', '=', admin.schoolId).execute();
    const teacherOf = (name: string) => teachers.find((t) => t.class_name === name)!.teacher_name;
    // Classes across the contest: Giang's 5A1 (100) first, our 5A3 (95) second, our 2A1 (90) third.
    expect(body.prizes_class).toEqual([
      { teacher_name: teacherOf('5A3'), class_room: { name: '5A3' }, prize_name: 'Giải Nhì Giáo viên truyền lửa', desc: 'Trị giá 2.000.000 đ; lớp có 1 học sinh dự thi, điểm trung bình 95,0.' },
      { teacher_name: teacherOf('2A1'), class_room: { name: '2A1' }, prize_name: 'Giải Ba Giáo viên truyền lửa', desc: 'Trị giá 1.000.000 đ; lớp có 1 học sinh dự thi, điểm trung bình 90,0.' },
    ]);

    const image = await fetch(server.url + body.prize.image_cer, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(5000);
    // Nobody else gets the school's certificate.
    for (const token of [otherAdmin.token, parent.token]) {
      expect((await fetch(server.url + body.prize.image_cer, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    }
    expect((await fetch(server.url + body.prize.pdf_cer)).status).toBe(401);
    // The printed code confirms the school's certificate publicly.
    const code = /certificates\/([A-Z0-9-]+)\//.exec(body.prize.image_cer)![1];
    const verified = await server.request('GET', `/api/certificates/verify/${code}`);
    expect(verified.body.data).toMatchObject({ kind: 'school', title: 'Giấy chứng nhận Giải Nhất tập thể trường', name: 'Trường Tiểu học Lê Lợi' });
  });

  it('the runner-up school has no class prize line of another school', async () => {
    const { body } = await server.request('GET', '/api/report-school', { token: otherAdmin.token });
    expect(body.prize.prize_name).toBe('Giải Nhì tập thể trường');
    expect(body.prizes_class.map((p: { class_room: { name: string } }) => p.class_room.name)).toEqual(['5A1']);
  });
});
