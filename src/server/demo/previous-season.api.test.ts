// The demo's finished previous season (issue 26): last year's results, reports and certificates
// of the demo family, this year's children carried over from it with their class; the family's
// report by season (its own seasons only) and last year's books, browsable but read-only.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';
import { demoAccounts } from '../db/seed/demo-accounts';
import { addPreviousDemoSeason } from './previous-season';
import { sessionAt } from './finished-exams';
import { createOrganiser, createParent, createSchoolAdmin, uploadForm } from '../test/factories';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await addPreviousDemoSeason(server.db, server.clock);
});

afterAll(async () => {
  await server?.close();
});

it('adds last year as a finished season with the demo family’s results and certificates, this year staying current', async () => {
  const seasons = await server.db.selectFrom('contests').select(['id', 'name', 'is_current']).orderBy('id').execute();
  expect(seasons.map((s) => s.is_current)).toEqual([true, false]);
  const [current, previous] = seasons;
  expect(previous!.name).toMatch(/^Cuộc thi Đại sứ Văn hoá đọc \d{4}$/);

  const parent = await server.db.selectFrom('users').select('id').where('phone', '=', demoAccounts.parent.phone).executeTakeFirstOrThrow();
  const token = await sessionAt(server.db, parent.id, server.clock.now());
  const profile = await server.request('GET', '/api/profile', { token });
  expect(profile.body.data.childrens.map((c: { class: string; class_pending: boolean; exams: unknown[] }) => [c.class, c.class_pending, c.exams.length])).toEqual([
    ['2A1', false, 0],
    ['5A3', false, 0],
  ]);

  const lastYear = await server.db.selectFrom('contestants').select('id').where('user_id', '=', parent.id).where('contest_id', '=', previous!.id).orderBy('position').execute();
  expect(lastYear).toHaveLength(2);
  const certificates = await server.request('GET', `/api/chilren-certificate?child_id=${lastYear[0]!.id}`, { token });
  expect(certificates.status).toBe(200);
  // The page says which season this is (and offers no exam to take).
  expect(certificates.body.season).toEqual({ name: previous!.name, is_current: false });
  const code = certificates.body.data.certificates[0].code;
  const verified = await server.request('GET', `/api/certificates/verify/${code}`);
  expect(verified.body.data).toMatchObject({ name: 'Nguyễn Minh Anh', season: { name: previous!.name, current: false } });

  const admin = await server.db.selectFrom('users').select('id').where('phone', '=', demoAccounts.schoolAdmin.phone).executeTakeFirstOrThrow();
  const adminToken = await sessionAt(server.db, admin.id, server.clock.now());
  const report = await server.request('GET', `/api/report-school?season=${previous!.id}`, { token: adminToken });
  expect(report.status).toBe(200);
  expect(report.body.results_published).toBe(true);
  expect(report.body.data.score.map((row: { fullname: string; class: string }) => [row.fullname, row.class]).sort()).toEqual([
    ['Nguyễn Minh Anh', '1A1'],
    ['Nguyễn Đức Trường', '4A3'],
  ]);
  const now = await server.request('GET', '/api/report-school', { token: adminToken });
  expect(now.body.seasons.map((s: { id: number; selected: boolean }) => [s.id, s.selected])).toEqual([
    [current!.id, true],
    [previous!.id, false],
  ]);
});

it('lets the organiser browse and export the previous season’s results, read-only', async () => {
  const previous = await server.db.selectFrom('contests').select(['id']).where('is_current', '=', false).executeTakeFirstOrThrow();
  const organiser = await createOrganiser(server);
  const prizes = await server.request('GET', `/api/admin/results/prizes?season=${previous.id}&kind=individual`, { token: organiser.token });
  expect(prizes.status).toBe(200);
  expect(JSON.stringify(prizes.body.data.items)).toContain('Nguyễn Đức Trường');
  const current = await server.request('GET', '/api/admin/results/prizes?kind=individual', { token: organiser.token });
  expect(JSON.stringify(current.body.data.items)).not.toContain('Nguyễn Đức Trường');
  const file = await fetch(`${server.url}/api/admin/results/exports/contestants.xlsx?season=${previous.id}`, { headers: { authorization: `Bearer ${organiser.token}` } });
  expect(file.status).toBe(200);
  expect(file.headers.get('content-type')).toContain('spreadsheetml');
  expect((await server.request('GET', '/api/admin/results/prizes?season=999999', { token: organiser.token })).status).toBe(404);
});

async function demoParentToken() {
  const parent = await server.db.selectFrom('users').select('id').where('phone', '=', demoAccounts.parent.phone).executeTakeFirstOrThrow();
  return sessionAt(server.db, parent.id, server.clock.now());
}

const previousSeason = () => server.db.selectFrom('contests').select(['id', 'name']).where('is_current', '=', false).executeTakeFirstOrThrow();

it('gives a parent last season’s results and certificates of each child, the current season by default', async () => {
  const previous = await previousSeason();
  const token = await demoParentToken();
  const now = await server.request('GET', '/api/report-parent', { token });
  expect(now.status).toBe(200);
  expect(now.body.data.season).toMatchObject({ is_current: true });
  expect(now.body.data.childrens.map((c: { class: string }) => c.class)).toEqual(['2A1', '5A3']);
  const seasons = await server.request('GET', '/api/report-parent/seasons', { token });
  expect(seasons.body.data.map((s: { id: number; is_current: boolean; selected: boolean }) => [s.id === previous.id, s.is_current, s.selected])).toEqual([
    [false, true, true],
    [true, false, false],
  ]);

  const last = await server.request('GET', `/api/report-parent?season=${previous.id}`, { token });
  expect(last.status).toBe(200);
  expect(last.body.data.season).toEqual({ id: previous.id, name: previous.name, is_current: false, results_published: true, results_date: expect.any(String) });
  const [younger, older] = last.body.data.childrens;
  expect([younger.fullname, younger.class, older.fullname, older.class]).toEqual(['Nguyễn Minh Anh', '1A1', 'Nguyễn Đức Trường', '4A3']);
  expect(younger.exams.map((e: { attempt: number; points: number }) => [e.attempt, e.points])).toEqual([
    [1, 75],
    [2, 85],
  ]);
  expect(older.result).toMatchObject({ points: 90, rank: expect.any(Number) });
  expect(older.results_held).toBeNull();
  // The certificates of that season: the participation one at least, each with its public check.
  const participation = younger.certificates.find((c: { kind: string }) => c.kind === 'participation');
  expect(participation.verify_url).toMatch(new RegExp(`/xac-minh/${participation.code}$`));
  const verified = await server.request('GET', `/api/certificates/verify/${participation.code}`);
  expect(verified.body.data).toMatchObject({ name: 'Nguyễn Minh Anh', season: { name: previous.name, current: false } });
  const pdf = await fetch(server.url + participation.pdf_url, { headers: { authorization: `Bearer ${token}` } });
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toContain('pdf');
  // Last season's exam result page still opens.
  const result = await server.request('GET', `/api/exam-result?slug=${younger.exams[0].slug}`, { token });
  expect(result.status).toBe(200);
  // Asked again: the same certificates (codes are issued once).
  const again = await server.request('GET', `/api/report-parent?season=${previous.id}`, { token });
  expect(again.body.data.childrens[0].certificates.map((c: { code: string }) => c.code)).toEqual(younger.certificates.map((c: { code: string }) => c.code));
});

it('refuses another family’s season, a school administrator, and a season that is not a number or not there', async () => {
  const previous = await previousSeason();
  const stranger = await createParent(server);
  const refused = await server.request('GET', `/api/report-parent?season=${previous.id}`, { token: stranger.token });
  expect(refused.status).toBe(404);
  expect(refused.body).toMatchObject({ success: false, code: 'not_found', message: 'Không tìm thấy mùa thi này trong các mùa thi của gia đình.' });
  expect(JSON.stringify(refused.body)).not.toContain('Nguyễn');
  const own = await server.request('GET', '/api/report-parent', { token: stranger.token });
  expect(own.status).toBe(200);
  expect(own.body.data.childrens).toEqual([]);
  expect((await server.request('GET', '/api/report-parent/seasons', { token: stranger.token })).body.data).toHaveLength(1);

  const admin = await createSchoolAdmin(server);
  const forbidden = await server.request('GET', '/api/report-parent', { token: admin.token });
  expect(forbidden.status).toBe(403);
  expect(forbidden.body.message).toBe('Chỉ tài khoản phụ huynh mới xem được kết quả các mùa thi của con.');
  expect((await server.request('GET', '/api/report-parent/seasons', { token: admin.token })).status).toBe(403);
  const token = await demoParentToken();
  const bad = await server.request('GET', '/api/report-parent?season=abc', { token });
  expect(bad.status).toBe(400);
  expect(bad.body.success).toBe(false);
  expect((await server.request('GET', '/api/report-parent?season=999999', { token })).status).toBe(404);
  expect((await server.request('GET', '/api/report-parent')).status).toBe(401);
});

it('lists last season’s books and their banks for the organiser, read-only: every write is a clean 409', async () => {
  const previous = await previousSeason();
  const organiser = await createOrganiser(server);
  const request = (method: string, path: string, body?: unknown) => server.request(method, path, { token: organiser.token, body });
  const current = await request('GET', '/api/admin/books');
  expect(current.body.data.season).toMatchObject({ is_current: true });
  const listed = await request('GET', `/api/admin/books?season=${previous.id}`);
  expect(listed.status).toBe(200);
  expect(listed.body.data.season).toEqual({ id: previous.id, name: previous.name, is_current: false });
  expect(listed.body.data.items.map((b: { name: string }) => b.name)).toEqual(current.body.data.items.map((b: { name: string }) => b.name));
  const ids = new Set(current.body.data.items.map((b: { id: number }) => b.id));
  const book = listed.body.data.items.find((b: { exam_count: number }) => b.exam_count > 0);
  expect(ids.has(book.id)).toBe(false);
  const details = await request('GET', `/api/admin/books/${book.id}`);
  expect(details.body.data).toMatchObject({ id: book.id, questions_frozen: false, season: { id: previous.id, is_current: false } });
  const questions = await request('GET', `/api/admin/books/${book.id}/questions?page=1&per_page=5`);
  expect(questions.status).toBe(200);
  const question = questions.body.data.items[0];
  // Its question quality, over last season's exams of the book (read-only: the page offers no regrade).
  const quality = await request('GET', `/api/admin/books/${book.id}/quality`);
  expect(quality.status).toBe(200);
  expect(quality.body.data.book).toEqual({ id: book.id, name: book.name, season: { name: previous.name, is_current: false } });
  expect(quality.body.data.exams).toBe(book.exam_count);

  const readOnly = { success: false, code: 'season_read_only', message: `${previous.name} đã kết thúc: dữ liệu của mùa thi trước chỉ được xem, không sửa được.` };
  const input = { value: 'Câu hỏi mới?', audio: null, is_practice: false, answers: [{ value: 'A', audio: null }, { value: 'B', audio: null }], correct: 0 };
  const writes = [
    await request('PUT', `/api/admin/books/${book.id}`, { name: 'Đổi tên', author: '', class_group_id: book.class_group_id }),
    await request('POST', `/api/admin/books/${book.id}/questions`, input),
    await request('PUT', `/api/admin/questions/${question.id}`, input),
    await request('DELETE', `/api/admin/questions/${question.id}`),
    await request('POST', `/api/admin/books/${book.id}/questions/import`, uploadForm('cau-hoi.txt', 'Câu hỏi?\nA. Một\nB. Hai\nANSWER: A\n')),
    await request('POST', `/api/admin/books/${book.id}/cover`, uploadForm('bia.png', 'x')),
  ];
  expect(writes.map((answer) => [answer.status, answer.body])).toEqual(writes.map(() => [409, expect.objectContaining(readOnly)]));
  const after = await request('GET', `/api/admin/books/${book.id}`);
  expect(after.body.data).toMatchObject({ name: book.name, question_count: book.question_count, image: book.image });

  expect((await request('GET', '/api/admin/books?season=999999')).status).toBe(404);
  expect((await request('GET', '/api/admin/books?season=0')).status).toBe(400);
});
