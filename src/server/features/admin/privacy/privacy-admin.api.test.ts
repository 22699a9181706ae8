// Issue 15, the organiser's side: the record of processing activities from the settings, the
// anonymised statistics, and copy and deletion requests made by phone, each with a reason in the
// audit log.
import { strFromU8, unzipSync } from 'fflate';
import readExcelFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createContestant, createOrganiser, createParent, createSchoolAdmin, firstSchool, type CreatedUser } from '../../../test/factories';
import { insertFinishedExams } from '../../../demo/finished-exams';

let server: TestServer;
let organiser: CreatedUser;
let parent: CreatedUser;
let schoolAdmin: CreatedUser;
let child: Awaited<ReturnType<typeof createContestant>>;

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  parent = await createParent(server);
  schoolAdmin = await createSchoolAdmin(server);
  child = await createContestant(server, parent, { fullname: 'Lê Bảo Ngọc', schoolId: (await firstSchool(server.db)).id });
  const contest = await server.db.selectFrom('contests').select(['exam_starts_at']).orderBy('id', 'desc').executeTakeFirstOrThrow();
  await insertFinishedExams(server.db, [
    { contestantId: child.id, bookId: child.books[0]!.id, attempt: 1, points: 85, durationSeconds: 420, submittedAt: new Date(contest.exam_starts_at.getTime() + 3_600_000), prediction: 120 },
  ]);
});
afterAll(() => server.close());

const audit = (kind: string) => server.db.selectFrom('audit_log').select(['summary', 'details']).where('kind', '=', kind).execute();

describe('the record of processing activities', () => {
  it('is for the organiser only', async () => {
    expect((await server.request('GET', '/api/admin/privacy')).status).toBe(401);
    expect((await server.request('GET', '/api/admin/privacy', { token: parent.token })).status).toBe(403);
    expect((await server.request('GET', '/api/admin/privacy', { token: schoolAdmin.token })).status).toBe(403);
  });

  it('is generated from the settings: organiser, retention, counts', async () => {
    await server.request('PUT', '/api/admin/contest', { token: organiser.token, body: { retention_months: 18 } });
    const { status, body } = await server.request('GET', '/api/admin/privacy', { token: organiser.token });
    expect(status).toBe(200);
    const footer = (await server.request('GET', '/api/site')).body.data;
    const text = body.data.record.sections.flatMap((section: { items: string[] }) => section.items).join('\n');
    expect(text).toContain(footer.organiserName);
    expect(text).toContain('18 tháng sau ngày công bố kết quả');
    const contest = await server.db.selectFrom('contests').select('results_at').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const ends = new Date(contest.results_at);
    ends.setUTCMonth(ends.getUTCMonth() + 18);
    expect(body.data.retention).toMatchObject({ months: 18, ends_at: ends.toISOString(), due_accounts: 0 });
    expect(body.data.counts.parents).toBeGreaterThanOrEqual(1);
  });
});

describe('the anonymised statistics', () => {
  it('hold the figures per school and no name or phone', async () => {
    const response = await fetch(`${server.url}/api/admin/privacy/statistics.xlsx`, { headers: { authorization: `Bearer ${organiser.token}` } });
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    const [sheet] = await readExcelFile(bytes);
    expect(sheet!.sheet).toBe('Thống kê ẩn danh');
    // A bold, frozen and filtered heading (the results' exports' writer).
    const sheetXml = strFromU8(unzipSync(bytes)['xl/worksheets/sheet1.xml']!);
    expect(sheetXml).toContain('state="frozen"');
    expect(sheetXml).toMatch(/<autoFilter ref="A1:H\d+"\/>/);
    const rows = sheet!.data;
    expect(rows[0]).toEqual(['Quận/huyện', 'Trường', 'Số học sinh của trường', 'Số thí sinh đăng ký', 'Số thí sinh dự thi', 'Số bài thi đã nộp', 'Điểm trung bình (bài tốt nhất)', 'Số giải cá nhân']);
    const school = await firstSchool(server.db);
    const name = (await server.db.selectFrom('schools').select('name').where('id', '=', school.id).executeTakeFirstOrThrow()).name;
    const row = rows.find((r) => r[1] === name)!;
    expect(row[4]).toBe(1);
    expect(row[6]).toBe(85);
    const all = JSON.stringify(rows);
    expect(all).not.toContain('Lê Bảo Ngọc');
    expect(all).not.toContain(parent.phone);
  });
});

describe('requests made by phone', () => {
  it('need a reason and a parent account', async () => {
    const missing = await server.request('POST', `/api/admin/privacy/accounts/${parent.id}/copy`, { token: organiser.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.reason).toBeTruthy();
    const short = await server.request('POST', `/api/admin/privacy/accounts/${parent.id}/erase`, { token: organiser.token, body: { reason: 'x' } });
    expect([short.status, short.body.errors.reason]).toEqual([400, expect.stringContaining('lý do')]);
    const admin = await server.request('POST', `/api/admin/privacy/accounts/${schoolAdmin.id}/erase`, { token: organiser.token, body: { reason: 'Yêu cầu qua điện thoại' } });
    expect([admin.status, admin.body.code]).toEqual([409, 'not_a_parent']);
    const nobody = await server.request('POST', '/api/admin/privacy/accounts/999999/copy', { token: organiser.token, body: { reason: 'Yêu cầu qua điện thoại' } });
    expect(nobody.status).toBe(404);
    const refused = await server.request('POST', `/api/admin/privacy/accounts/${parent.id}/copy`, { token: schoolAdmin.token, body: { reason: 'Yêu cầu qua điện thoại' } });
    expect(refused.status).toBe(403);
  });

  it('a copy holds the account and its exams, and the audit log says why', async () => {
    const reason = 'Phụ huynh gọi điện ngày 25/11 xin bản sao dữ liệu';
    const { status, body } = await server.request('POST', `/api/admin/privacy/accounts/${parent.id}/copy`, { token: organiser.token, body: { reason } });
    expect(status).toBe(200);
    expect(body.data.account.phone).toBe(parent.phone);
    expect(body.data.contestants.map((c: { fullname: string; exams: unknown[] }) => [c.fullname, c.exams.length])).toEqual([['Lê Bảo Ngọc', 1]]);
    const [entry] = await audit('privacy.copy');
    expect(entry!.details).toMatchObject({ account_id: parent.id, reason });
    expect(entry!.summary).not.toContain(parent.phone);
  });

  it('a deletion anonymises the child with an exam, ends the sessions, and is audited', async () => {
    const reason = 'Phụ huynh gọi điện ngày 25/11 yêu cầu xoá tài khoản';
    const { status, body } = await server.request('POST', `/api/admin/privacy/accounts/${parent.id}/erase`, { token: organiser.token, body: { reason } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, message: 'Đã xoá tài khoản theo yêu cầu.', data: { contestants_deleted: 0, contestants_anonymised: 1 } });
    expect((await server.request('GET', '/api/profile', { token: parent.token })).status).toBe(401);
    const kept = await server.db.selectFrom('contestants').select('fullname').where('id', '=', child.id).executeTakeFirstOrThrow();
    expect(kept.fullname).toBe(`Thí sinh đã xoá #${child.id}`);
    const [entry] = await audit('privacy.erase');
    expect(entry!.details).toMatchObject({ account_id: parent.id, reason, contestants_anonymised: 1 });

    const again = await server.request('POST', `/api/admin/privacy/accounts/${parent.id}/erase`, { token: organiser.token, body: { reason } });
    expect([again.status, again.body.code]).toEqual([409, 'account_deleted']);
  });
});
