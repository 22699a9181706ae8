// The back office's accounts: find and show accounts, school administrators one by one and by
// import (with their set-password links and SMS), reset links, lock and unlock, and the
// create-organiser command.
import { existsSync, mkdirSync, renameSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { templateColumns } from '../../../../shared/schemas/admin';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createContestant, createOrganiser, createParent, createSchoolAdmin, nextPhone, uploadForm, type CreatedUser } from '../../../test/factories';
import { startExam } from '../../../test/exam-fixtures';
import { createOrganiserCommand } from '../../../cli/create-organiser';

let server: TestServer;
let organiser: CreatedUser;
let parent: CreatedUser;
let schoolAdmin: CreatedUser;
let schools: { id: number; name: string; district_id: number; district: string }[];

const HEADER = templateColumns['school-admins'];

async function xlsx(rows: (string | number)[][], header: readonly string[] = HEADER): Promise<Buffer> {
  const data = [header, ...rows].map((row) => row.map((value) => (typeof value === 'number' ? { value, type: Number } : { value, type: String })));
  return Buffer.from(await writeExcelFile(data as never).toBuffer());
}

const importFile = (file: Buffer | string, name = 'quan-tri-truong.xlsx', fields: Record<string, string> = {}, token = organiser.token) =>
  server.request('POST', '/api/admin/school-admins/import', { token, body: uploadForm(name, file, fields) });

const usersWithPhones = (phones: string[]) => server.db.selectFrom('users').select(['phone', 'name', 'school_id', 'role']).where('phone', 'in', phones).execute();
const auditKinds = async (kind: string) =>
  (await server.db.selectFrom('audit_log').select(['kind', 'summary', 'details']).where('kind', '=', kind).orderBy('id').execute());

/** Follows a /doi-mat-khau/{token} link as the web page does: the token for a session, then a new password. */
async function useLink(url: string, password: string) {
  const token = url.split('/doi-mat-khau/')[1]!;
  const exchanged = await server.request('GET', `/api/customer/change-password?token=${encodeURIComponent(token)}`);
  if (exchanged.status !== 200) return exchanged;
  return server.request('POST', '/api/customer/change-password', { token: exchanged.body.token, body: { password } });
}

beforeAll(async () => {
  // The request deadline (REQUEST_TIMEOUT_MS, 15 s; its 503 is core/request-deadline's own test)
  // set past the time the 11,000 administrators import takes on a busy machine: this file checks what the
  // import stores, not how fast.
  server = await startTestServer({ env: { REQUEST_TIMEOUT_MS: '120000' } });
  organiser = await createOrganiser(server);
  parent = await createParent(server);
  schoolAdmin = await createSchoolAdmin(server);
  schools = await server.db
    .selectFrom('schools')
    .innerJoin('districts', 'districts.id', 'schools.district_id')
    .select(['schools.id', 'schools.name', 'schools.district_id', 'districts.name as district'])
    .orderBy('schools.id')
    .limit(3)
    .execute();
});
afterAll(() => server.close());

describe('permissions', () => {
  const calls: [string, string, unknown?][] = [
    ['GET', '/api/admin/accounts'],
    ['GET', '/api/admin/accounts/1'],
    ['POST', '/api/admin/accounts/1/reset-link', {}],
    ['POST', '/api/admin/accounts/1/lock', {}],
    ['POST', '/api/admin/accounts/1/unlock', {}],
    ['POST', '/api/admin/school-admins', { phone: '0912000111', name: 'A', district_id: 1, school_id: 1 }],
  ];
  it.each(calls)('%s %s: 401 without a session, 403 for a parent and a school administrator', async (method, path, body) => {
    expect((await server.request(method, path, { body })).status).toBe(401);
    expect((await server.request(method, path, { body, token: parent.token })).status).toBe(403);
    expect((await server.request(method, path, { body, token: schoolAdmin.token })).status).toBe(403);
  });

  it('refuses an import from a school administrator and stores nothing', async () => {
    const phone = nextPhone();
    const response = await importFile(await xlsx([[phone, 'Ai Đó', schools[0]!.district, schools[0]!.name]]), 'a.xlsx', {}, schoolAdmin.token);
    expect(response.status).toBe(403);
    expect(await usersWithPhones([phone])).toEqual([]);
  });
});

describe('finding and showing accounts', () => {
  it('finds by part of a phone, paginated, and filters by role', async () => {
    const part = parent.phone.slice(3, 8);
    const found = await server.request('GET', `/api/admin/accounts?q=${part}`, { token: organiser.token });
    expect(found.status).toBe(200);
    expect(found.body.data.items.map((a: { phone: string }) => a.phone)).toContain(parent.phone);
    expect(found.body.data.items.every((a: { phone: string }) => a.phone.includes(part))).toBe(true);

    const spaced = await server.request('GET', `/api/admin/accounts?q=${encodeURIComponent(parent.phone.replace(/(\d{4})(\d{3})/, '$1 $2 '))}`, { token: organiser.token });
    expect(spaced.body.data.items.map((a: { phone: string }) => a.phone)).toEqual([parent.phone]);

    const page = await server.request('GET', '/api/admin/accounts?per_page=2&page=1', { token: organiser.token });
    expect(page.body.data.items).toHaveLength(2);
    expect(page.body.data.total).toBeGreaterThanOrEqual(4);
    expect(page.body.data).toMatchObject({ page: 1, per_page: 2 });

    const admins = await server.request('GET', '/api/admin/accounts?role=school_admin', { token: organiser.token });
    expect(admins.body.data.items.every((a: { role: string }) => a.role === 'school_admin')).toBe(true);
    const admin = admins.body.data.items.find((a: { phone: string }) => a.phone === schoolAdmin.phone);
    expect(admin).toMatchObject({ school_name: expect.any(String), district_name: expect.any(String), locked_at: null });

    expect((await server.request('GET', '/api/admin/accounts?role=boss', { token: organiser.token })).status).toBe(400);
    expect((await server.request('GET', '/api/admin/accounts?per_page=100000', { token: organiser.token })).status).toBe(400);
  });

  it('sorts on the server by a column asked for (sort, dir), else by phone; an unknown column is a 400', async () => {
    const school = await server.db.selectFrom('schools').select(['id', 'district_id']).orderBy('id').executeTakeFirstOrThrow();
    for (const [phone, name] of [['0385550002', 'Thứ Tự B'], ['0385550003', 'Thứ Tự A'], ['0385550001', 'Thứ Tự C']]) {
      const made = await server.request('POST', '/api/admin/school-admins', { token: organiser.token, body: { phone, name, district_id: school.district_id, school_id: school.id } });
      expect(made.status).toBe(200);
    }
    const names = async (query: string) => {
      const answer = await server.request('GET', `/api/admin/accounts?q=${encodeURIComponent('Thứ Tự')}${query}`, { token: organiser.token });
      expect(answer.status).toBe(200);
      return (answer.body.data.items as { name: string }[]).map((a) => a.name);
    };
    expect(await names('')).toEqual(['Thứ Tự C', 'Thứ Tự B', 'Thứ Tự A']);
    expect(await names('&sort=name')).toEqual(['Thứ Tự A', 'Thứ Tự B', 'Thứ Tự C']);
    expect(await names('&sort=name&dir=desc')).toEqual(['Thứ Tự C', 'Thứ Tự B', 'Thứ Tự A']);
    expect(await names('&sort=phone&dir=desc&per_page=2')).toEqual(['Thứ Tự A', 'Thứ Tự B']);
    expect((await server.request('GET', '/api/admin/accounts?sort=password_hash', { token: organiser.token })).status).toBe(400);
    expect((await server.request('GET', '/api/admin/accounts?sort=name&dir=up', { token: organiser.token })).status).toBe(400);
  });

  it('finds a name or a school without accents, in any case and under either tone placement', async () => {
    const district = await server.db.insertInto('districts').values({ name: 'Huyện Tìm Kiếm' }).returning('id').executeTakeFirstOrThrow();
    const school = await server.db
      .insertInto('schools')
      .values({ district_id: district.id, name: 'Trường Tiểu học Đồng Khởi', address: '', pupil_count: 10 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const made = await server.request('POST', '/api/admin/school-admins', {
      token: organiser.token,
      body: { phone: '0385550101', name: 'Nguyễn Thị Hoà Tìm', district_id: district.id, school_id: school.id },
    });
    expect(made.status).toBe(200);
    const phones = async (q: string) => {
      const answer = await server.request('GET', `/api/admin/accounts?q=${encodeURIComponent(q)}`, { token: organiser.token });
      expect(answer.status).toBe(200);
      return (answer.body.data.items as { phone: string }[]).map((a) => a.phone);
    };
    for (const typed of ['nguyen thi hoa tim', 'NGUYỄN THỊ HÒA TÌM', 'Hòa Tìm', 'hoa tim', 'dong khoi', 'ĐỒNG KHỞI']) {
      expect(await phones(typed), typed).toEqual(['0385550101']);
    }
    expect(await phones('hoa timx')).toEqual([]);
  });

  it("shows a parent's contestants and each contestant's exams", async () => {
    const someone = await createParent(server);
    const contestant = await createContestant(server, someone, { fullname: 'Lê Thị Hoa' });
    const exam = await startExam(server, { parent: someone, contestant, book: contestant.books[0]! });
    const detail = await server.request('GET', `/api/admin/accounts/${someone.id}`, { token: organiser.token });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ id: someone.id, phone: someone.phone, role: 'parent', locked_at: null, live_sessions: 1 });
    expect(detail.body.data.contestants).toHaveLength(1);
    expect(detail.body.data.contestants[0]).toMatchObject({ fullname: 'Lê Thị Hoa', position: 1, class_name: expect.any(String) });
    expect(detail.body.data.contestants[0].exams).toEqual([
      expect.objectContaining({ id: exam.examId, attempt: 1, book: contestant.books[0]!.name, status: 2, points: null, submitted_at: null }),
    ]);

    expect((await server.request('GET', '/api/admin/accounts/999999', { token: organiser.token })).status).toBe(404);
    expect((await server.request('GET', '/api/admin/accounts/abc', { token: organiser.token })).status).toBe(400);
  });
});

describe('one school administrator', () => {
  it('creates the account with a one-time link, shown and sent by SMS, and audits it', async () => {
    const phone = nextPhone();
    const school = schools[1]!;
    const response = await server.request('POST', '/api/admin/school-admins', {
      token: organiser.token,
      body: { phone: phone.replace(/(\d{4})(\d{3})/, '$1 $2 '), name: '  Trần Văn Bình ', district_id: school.district_id, school_id: school.id },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ phone, sms_sent: true, url: expect.stringMatching(new RegExp(`^${server.config.publicUrl}/doi-mat-khau/[A-Za-z0-9_-]{30,}$`)) });
    expect(await usersWithPhones([phone])).toEqual([{ phone, name: 'Trần Văn Bình', school_id: school.id, role: 'school_admin' }]);
    const sms = server.outbox().filter((m) => m.phone === phone);
    expect(sms).toHaveLength(1);
    expect(sms[0]!.message).toContain(response.body.data.url);
    expect((await auditKinds('account.create')).at(-1)).toMatchObject({ summary: expect.stringContaining(phone) });

    // No password works until the link is used; then the new one does.
    expect((await server.request('POST', '/api/login', { body: { phone, password: 'not-a-password-of-anyone' } })).status).toBe(401);
    expect((await useLink(response.body.data.url, 'truong-moi-1')).status).toBe(200);
    const login = await server.request('POST', '/api/login', { body: { phone, password: 'truong-moi-1' } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ is_admin_school: 1 });
    expect((await server.request('GET', '/api/report-school', { token: login.body.access_token })).status).toBe(200);
  });

  it('refuses a phone that has an account (409), a school of another district and bad fields', async () => {
    const school = schools[0]!;
    const taken = await server.request('POST', '/api/admin/school-admins', {
      token: organiser.token,
      body: { phone: parent.phone, name: 'Ai Đó', district_id: school.district_id, school_id: school.id },
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'phone_taken', errors: { phone: expect.any(String) } });

    const other = schools.find((s) => s.district_id !== school.district_id) ?? { district_id: 999_999 };
    const wrongDistrict = await server.request('POST', '/api/admin/school-admins', {
      token: organiser.token,
      body: { phone: nextPhone(), name: 'Ai Đó', district_id: other.district_id, school_id: school.id },
    });
    expect(wrongDistrict.status).toBe(400);
    expect(wrongDistrict.body.errors).toHaveProperty('school_id');

    const bad = await server.request('POST', '/api/admin/school-admins', { token: organiser.token, body: { phone: '12345', name: ' ', district_id: '', school_id: 'x' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['phone', 'name']));
  });
});

describe('import of school administrators', () => {
  it('previews without storing, linking or sending; stores in one go; the same file twice changes nothing', async () => {
    const [a, b] = schools as [(typeof schools)[0], (typeof schools)[0]];
    const phones = [nextPhone(), nextPhone(), nextPhone()];
    // The third phone is typed into a number cell (its leading 0 lost) and a name in other case.
    const rows: (string | number)[][] = [
      [phones[0]!, 'Nguyễn Thị Lan', a.district, a.name],
      [phones[1]!, 'Phạm Văn Nam', b.district.toLocaleUpperCase('vi'), b.name],
      [Number(phones[2]!), 'Đỗ Minh Châu', a.district, a.name],
    ];
    const file = await xlsx(rows);
    const smsBefore = server.outbox().length;

    const preview = await importFile(file, 'quan-tri-truong.xlsx', { dry_run: '1' });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ created: 3, updated: 0, unchanged: 0, rows: 3, dry_run: true, links: [], sms_failed: [] });
    expect(await usersWithPhones(phones)).toEqual([]);
    expect(server.outbox().length).toBe(smsBefore);

    const stored = await importFile(file);
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({ created: 3, updated: 0, unchanged: 0, dry_run: false, sms_failed: [], file_name: 'quan-tri-truong.xlsx' });
    expect(stored.body.data.links.map((l: { phone: string }) => l.phone).sort()).toEqual([...phones].sort());
    const users = await usersWithPhones(phones);
    expect(users).toHaveLength(3);
    expect(users.every((u) => u.role === 'school_admin')).toBe(true);
    expect(users.find((u) => u.phone === phones[1])!.school_id).toBe(b.id);
    const sent = server.outbox().slice(smsBefore);
    expect(sent.map((m) => m.phone).sort()).toEqual([...phones].sort());
    for (const link of stored.body.data.links) expect(sent.find((m) => m.phone === link.phone)!.message).toContain(link.url);
    const audit = (await auditKinds('school_admins.import')).at(-1)!;
    expect(audit.summary).toContain('quan-tri-truong.xlsx');
    expect(audit.details).toMatchObject({ file: 'quan-tri-truong.xlsx', counts: { created: 3, updated: 0, unchanged: 0 } });

    const again = await importFile(file);
    expect(again.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 3, links: [] });
    expect(server.outbox().length).toBe(smsBefore + 3);
    // The same name in another case is the same person: nothing to update.
    const respelled = await importFile(await xlsx([[phones[2]!, 'ĐỖ MINH CHÂU', a.district, a.name]]));
    expect(respelled.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 1 });

    // A changed name or school is an update (no new link); the rest stay.
    const changed = await importFile(await xlsx([[phones[0]!, 'Nguyễn Thị Lan Anh', a.district, a.name], [phones[1]!, 'Phạm Văn Nam', a.district, a.name]]), 'sua.csv'.replace('.csv', '.xlsx'));
    expect(changed.body.data).toMatchObject({ created: 0, updated: 2, unchanged: 0, links: [], updates_total: 2 });
    expect(changed.body.data.updates).toEqual([
      { row: 2, key: phones[0], changes: [{ field: 'Họ và tên', before: 'Nguyễn Thị Lan', after: 'Nguyễn Thị Lan Anh' }] },
      { row: 3, key: phones[1], changes: [{ field: 'Trường', before: b.name, after: a.name }] },
    ]);
    expect((await auditKinds('school_admins.import')).at(-1)!.details).toMatchObject({ updates: changed.body.data.updates });
    expect((await usersWithPhones([phones[1]!]))[0]!.school_id).toBe(a.id);

    // Each link works once.
    expect((await useLink(stored.body.data.links[0].url, 'matkhau-123')).status).toBe(200);
    expect((await useLink(stored.body.data.links[0].url, 'matkhau-456')).status).toBe(400);
  });

  it('stores 11,000 school administrators and their links in one import, in slices (one statement would pass 65,535 parameters)', async () => {
    const [a, b] = schools as [(typeof schools)[0], (typeof schools)[0]];
    const phones = Array.from({ length: 11_000 }, (_, i) => `0333${String(i).padStart(6, '0')}`);
    const csv = [HEADER.join(','), ...phones.map((phone, i) => [phone, `Quản trị ${i}`, (i % 2 ? b : a).district, (i % 2 ? b : a).name].join(','))].join('\n');
    const smsBefore = server.outbox().length;
    const stored = await importFile(Buffer.from(csv), 'nhieu.csv');
    expect(stored.status, JSON.stringify(stored.body).slice(0, 300)).toBe(200);
    expect(stored.body.data).toMatchObject({ created: 11_000, updated: 0, unchanged: 0, rows: 11_000, sms_failed: [] });
    expect(new Set(stored.body.data.links.map((l: { phone: string }) => l.phone))).toEqual(new Set(phones));
    const made = await server.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('phone', 'like', '0333%').executeTakeFirstOrThrow();
    expect(Number(made.n)).toBe(11_000);
    const tokens = await server.db
      .selectFrom('password_reset_tokens')
      .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('users.phone', 'like', '0333%')
      .executeTakeFirstOrThrow();
    expect(Number(tokens.n)).toBe(11_000);
    expect(server.outbox().length).toBe(smsBefore + 11_000);
    // A link of the last slice works.
    expect((await useLink(stored.body.data.links.at(-1).url, 'matkhau-789')).status).toBe(200);
    // And the same file again changes nothing: every row found unchanged, in slices too.
    const again = await importFile(Buffer.from(csv), 'nhieu.csv');
    expect(again.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 11_000, links: [] });
  });

  it('keeps the import when an SMS fails, and says so with the phones to reach another way', async () => {
    // The log driver cannot append to a directory: every send fails.
    const outbox = join(server.dataDir, 'sms-outbox.jsonl');
    const phones = [nextPhone(), nextPhone()];
    const a = schools[0]!;
    const kept = existsSync(outbox);
    if (kept) renameSync(outbox, `${outbox}.kept`);
    mkdirSync(outbox);
    try {
      const response = await importFile(await xlsx(phones.map((phone) => [phone, 'Không Nhận Được', a.district, a.name])));
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ created: 2, message: expect.stringContaining('Không gửi được tin nhắn') });
      expect(response.body.data.sms_failed.sort()).toEqual([...phones].sort());
      expect(response.body.data.links).toHaveLength(2);
      expect(await usersWithPhones(phones)).toHaveLength(2);
      const single = await server.request('POST', `/api/admin/accounts/${parent.id}/reset-link`, { token: organiser.token });
      expect(single.body.data).toMatchObject({ sms_sent: false, url: expect.stringContaining('/doi-mat-khau/') });
    } finally {
      rmdirSync(outbox);
      if (kept) renameSync(`${outbox}.kept`, outbox);
    }
  });

  it('reads a UTF-8 CSV (with a BOM and ";")', async () => {
    const phone = nextPhone();
    const a = schools[0]!;
    const csv = `\ufeff${HEADER.join(';')}\r\n${phone};Vũ Thị Hằng;${a.district};${a.name}\r\n`;
    const response = await importFile(csv, 'ds.csv');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ created: 1 });
  });

  it('reports every problem of a bad file with its row and column, and stores nothing', async () => {
    const a = schools[0]!;
    const good = Array.from({ length: 499 }, () => [nextPhone(), 'Người Tốt', a.district, a.name]);
    const dup = nextPhone();
    const rows = [
      ...good.slice(0, 100),
      ['0123', 'Sai Số', a.district, a.name], // row 102
      [dup, 'Trùng A', a.district, a.name], // row 103
      [dup, 'Trùng B', a.district, a.name], // row 104
      [parent.phone, 'Phụ Huynh', a.district, a.name], // row 105
      [nextPhone(), '', 'Huyện Không Có', a.name], // row 106
      [nextPhone(), 'Sai Trường', a.district, 'Trường Không Có'], // row 107
      [organiser.phone, 'Ban Tổ Chức', a.district, a.name], // row 108
      ...good.slice(100),
    ];
    for (const dryRun of ['1', '0']) {
      const response = await importFile(await xlsx(rows), 'nhieu.xlsx', { dry_run: dryRun });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ success: false, code: 'import_invalid' });
      const byRow = (row: number) => response.body.errors.filter((e: { row: number }) => e.row === row);
      expect(byRow(102)).toEqual([expect.objectContaining({ column: 'Số điện thoại', message: expect.stringMatching(/^Dòng 102, cột Số điện thoại: /) })]);
      expect(byRow(104)).toEqual([expect.objectContaining({ column: 'Số điện thoại', message: expect.stringContaining('trùng với dòng 103') })]);
      expect(byRow(105)[0].message).toContain('phụ huynh');
      expect(byRow(106).map((e: { column: string }) => e.column)).toEqual(['Họ và tên', 'Quận/Huyện']);
      expect(byRow(107)).toEqual([expect.objectContaining({ column: 'Trường' })]);
      expect(byRow(108)[0].message).toContain('ban tổ chức');
      expect(response.body.errors).toHaveLength(7);
    }
    expect(await usersWithPhones(good.map((row) => row[0]!))).toEqual([]);
  });

  it('refuses wrong columns, an empty file, a non-UTF-8 CSV, an old .xls and no file, with 422 and nothing stored', async () => {
    const wrong = await importFile(await xlsx([['0912000000', 'A', 'B', 'C']], ['Email', 'Họ và tên', 'Quận/Huyện', 'Trường']));
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({
      code: 'import_invalid',
      errors: [expect.objectContaining({ row: 1, column: 'Email', message: expect.stringContaining('cột "Email" không có trong mẫu') }), expect.objectContaining({ row: 1, column: 'Số điện thoại', message: 'thiếu cột "Số điện thoại"' })],
    });

    const empty = await importFile(await xlsx([]));
    expect(empty.status).toBe(422);
    expect(empty.body.message).toContain('không có dòng dữ liệu');

    // "Trường" and "Huyện" in CP1258/Latin-1-ish bytes: not UTF-8.
    const cp1258 = Buffer.concat([Buffer.from(`${HEADER.join(',')}\r\n`, 'utf8'), Buffer.from([0x30, 0x39, 0x31, 0x32, 0x2c, 0x54, 0x72, 0xf0, 0xd2, 0x6e, 0x67, 0x0d, 0x0a])]);
    const notUtf8 = await importFile(cp1258, 'ds.csv');
    expect(notUtf8.status).toBe(422);
    expect(notUtf8.body).toMatchObject({ code: 'import_invalid', errors: [] });
    expect(notUtf8.body.message).toContain('UTF-8');

    const xls = await importFile(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]), 'ds.xls');
    expect(xls.status).toBe(422);

    const none = await server.request('POST', '/api/admin/school-admins/import', { token: organiser.token, body: new FormData() });
    expect(none.status).toBe(422);
  });
});

describe('reset links, lock and unlock', () => {
  it('issues a reset link for any account, shown and sent by SMS; the earlier link stops working', async () => {
    const someone = await createParent(server);
    const first = await server.request('POST', `/api/admin/accounts/${someone.id}/reset-link`, { token: organiser.token });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ account_id: someone.id, phone: someone.phone, sms_sent: true });
    expect(server.outbox().filter((m) => m.phone === someone.phone).at(-1)!.message).toContain(first.body.data.url);
    const second = await server.request('POST', `/api/admin/accounts/${someone.id}/reset-link`, { token: organiser.token });
    expect((await useLink(first.body.data.url, 'khong-dung')).status).toBe(400);
    expect((await useLink(second.body.data.url, 'mat-khau-moi')).status).toBe(200);
    expect((await server.request('POST', '/api/login', { body: { phone: someone.phone, password: 'mat-khau-moi' } })).status).toBe(200);
    expect((await auditKinds('account.reset_link')).at(-1)!.summary).toContain(someone.phone);
    expect((await server.request('POST', '/api/admin/accounts/999999/reset-link', { token: organiser.token })).status).toBe(404);
  });

  it('locks an account: sessions end at once, no login, no OTP or link to get back in; unlock restores login', async () => {
    const someone = await createParent(server, { password: 'phuhuynh-1' });
    const link = await server.request('POST', `/api/admin/accounts/${someone.id}/reset-link`, { token: organiser.token });
    expect((await server.request('GET', '/api/profile', { token: someone.token })).status).toBe(200);

    const locked = await server.request('POST', `/api/admin/accounts/${someone.id}/lock`, { token: organiser.token });
    expect(locked.status).toBe(200);
    expect(locked.body.data).toMatchObject({ locked_at: expect.any(String), sessions_ended: 1 });
    expect((await server.request('GET', '/api/profile', { token: someone.token })).status).toBe(401);
    const revoked = await server.db.selectFrom('sessions').select('revoked_at').where('user_id', '=', someone.id).execute();
    expect(revoked.every((s) => s.revoked_at !== null)).toBe(true);

    const login = await server.request('POST', '/api/login', { body: { phone: someone.phone, password: 'phuhuynh-1' } });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ code: 'account_locked', message: 'Tài khoản này đã bị khoá. Vui lòng liên hệ ban tổ chức cuộc thi.' });
    // A wrong password says only that it is wrong.
    expect((await server.request('POST', '/api/login', { body: { phone: someone.phone, password: 'sai-mat-khau' } })).status).toBe(401);
    const otp = await server.request('POST', '/api/send-otp', { body: { phone: someone.phone, is_register: 0 } });
    expect(otp.status).toBe(403);
    expect(otp.body.code).toBe('account_locked');
    expect((await server.request('POST', '/api/forgot-password', { body: { phone: someone.phone, otp: '123456' } })).body.code).toBe('account_locked');
    // The link issued before the lock no longer works, and no new one is issued while locked.
    expect((await useLink(link.body.data.url, 'vao-lai-123')).status).toBe(400);
    const refused = await server.request('POST', `/api/admin/accounts/${someone.id}/reset-link`, { token: organiser.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('account_locked');

    const detail = await server.request('GET', `/api/admin/accounts/${someone.id}`, { token: organiser.token });
    expect(detail.body.data).toMatchObject({ locked_at: expect.any(String), live_sessions: 0 });

    const unlocked = await server.request('POST', `/api/admin/accounts/${someone.id}/unlock`, { token: organiser.token });
    expect(unlocked.body.data).toEqual({ locked_at: null, sessions_ended: 0 });
    expect((await server.request('POST', '/api/login', { body: { phone: someone.phone, password: 'phuhuynh-1' } })).status).toBe(200);

    const audit = await server.db.selectFrom('audit_log').select(['kind', 'details']).where('summary', 'like', `%${someone.phone}%`).orderBy('id').execute();
    expect(audit.map((entry) => entry.kind)).toEqual(['account.reset_link', 'account.lock', 'account.unlock']);
    expect(audit[1]!.details).toMatchObject({ before: { locked_at: null }, after: { locked_at: expect.any(String) } });
  });

  it('does not let the organiser lock themself', async () => {
    const response = await server.request('POST', `/api/admin/accounts/${organiser.id}/lock`, { token: organiser.token });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'cannot_lock_self', message: 'Bạn không thể tự khoá tài khoản của chính mình.' });
    expect((await server.request('GET', '/api/admin/accounts', { token: organiser.token })).status).toBe(200);
  });
});

describe('npm run cli -- create-organiser', () => {
  const run = async (args: string[]) => {
    const io = { stdout: '', stderr: '' };
    const code = await createOrganiserCommand({ db: server.db, clock: server.clock, publicUrl: server.config.publicUrl }, args, {
      out: (text) => (io.stdout += text),
      err: (text) => (io.stderr += text),
    });
    return { code, ...io };
  };

  it('creates an organiser and prints a one-time link that sets the password', async () => {
    const phone = nextPhone();
    const result = await run([phone, 'Nguyễn', 'Văn', 'Tổ']);
    expect(result.code).toBe(0);
    const url = result.stdout.match(/https?:\/\/\S+\/doi-mat-khau\/\S+/)![0];
    expect(await usersWithPhones([phone])).toEqual([{ phone, name: 'Nguyễn Văn Tổ', school_id: null, role: 'organiser' }]);
    expect((await useLink(url, 'bantochuc-moi')).status).toBe(200);
    const login = await server.request('POST', '/api/login', { body: { phone, password: 'bantochuc-moi' } });
    expect((await server.request('GET', '/api/admin/accounts', { token: login.body.access_token })).status).toBe(200);
  });

  it('refuses a phone that has an account, a bad phone and a missing name, changing nothing', async () => {
    const taken = await run([parent.phone, 'Ai Đó']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('đã có tài khoản');
    expect((await usersWithPhones([parent.phone]))[0]!.role).toBe('parent');
    expect((await run(['12345', 'Ai Đó'])).code).toBe(1);
    const phone = nextPhone();
    expect((await run([phone])).code).toBe(1);
    expect(await usersWithPhones([phone])).toEqual([]);
  });
});
