import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../../test/harness';
import { classGroupAt, createContestant, createParent, createSchoolAdmin } from '../../test/factories';
import { demoAccounts } from '../../db/seed/demo-accounts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** Two districts, each with its first school; a class group with two rooms, and another group. */
async function catalogue() {
  const districts = await server.db.selectFrom('districts').select('id').orderBy('id').limit(2).execute();
  const school = async (districtId: number) =>
    server.db.selectFrom('schools').select(['id', 'name']).where('district_id', '=', districtId).orderBy('id').limit(1).executeTakeFirstOrThrow();
  const group1 = await classGroupAt(server.db, 1);
  const group3 = await classGroupAt(server.db, 3);
  const rooms1 = await server.db.selectFrom('class_rooms').select(['id', 'name']).where('class_group_id', '=', group1.id).orderBy('position').execute();
  return {
    d1: districts[0]!.id,
    d2: districts[1]!.id,
    s1: await school(districts[0]!.id),
    s2: await school(districts[1]!.id),
    group1,
    group3,
    rooms1,
  };
}

function child(cat: Awaited<ReturnType<typeof catalogue>>, overrides: Record<string, unknown> = {}) {
  return {
    fullname: 'Trần Thị Bình',
    district_id: cat.d1,
    school_id: cat.s1.id,
    class_group_id: cat.group1.id,
    class_room_id: cat.rooms1[0]!.id,
    class_room_other: null,
    // The parent confirms the child's agreement (issue 15): required for a new contestant.
    child_consent: true,
    ...overrides,
  };
}

/** An exam row straight in the table: enough to lock the contestant. */
async function giveExam(contestantId: number, bookId: number, attempt = 1) {
  const contest = await server.db.selectFrom('contests').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  const start = server.clock.now();
  await server.db
    .insertInto('exams')
    .values({
      slug: randomBytes(18).toString('base64url'),
      contest_id: contest.id,
      contestant_id: contestantId,
      book_id: bookId,
      attempt,
      status: 1,
      start_time: start,
      end_time: new Date(start.getTime() + 1_200_000),
      questions: '[]',
      answer_key: '{}',
      prediction: 1234,
      submitted_at: new Date(start.getTime() + 125_000),
      correct_count: 17,
      points: 85,
      duration_seconds: 125,
    })
    .execute();
}

const save = (token: string, childrens: unknown[], phone?: string) =>
  server.request('POST', '/api/customer/profile', { token, body: { ...(phone ? { phone } : {}), childrens } });

describe('GET /api/profile', () => {
  it('needs a session', async () => {
    const response = await server.request('GET', '/api/profile');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, message: 'Vui lòng đăng nhập.' });
    const bad = await server.request('GET', '/api/profile', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
  });

  it('gives a parent the account and contestants with school, class and exams', async () => {
    const parent = await createParent(server);
    const first = await createContestant(server, parent, { groupPosition: 3 });
    await createContestant(server, parent, { classRoomOther: '5K' });
    await giveExam(first.id, first.books[0]!.id);
    const response = await server.request('GET', '/api/profile', { token: parent.token });
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({ id: parent.id, phone: parent.phone, name: '', is_admin_school: 0, role: 'parent', school: null });
    expect(data.childrens).toHaveLength(2);
    expect(data.childrens[0]).toMatchObject({
      id: first.id,
      position: 1,
      class_room_id: first.class_room_id,
      class: '5A1',
      class_room: { name: '5A1' },
      school: { name: expect.any(String), address: expect.any(String) },
    });
    expect(data.childrens[0].exams).toEqual([
      {
        id: expect.any(Number),
        slug: expect.any(String),
        status: 1,
        points: 85,
        book_id: first.books[0]!.id,
        book: { name: first.books[0]!.name },
        attempt: 1,
        time_complete_minutes: 2,
        time_complete_seconds: 5,
        prediction: 1234,
        start_time: expect.any(String),
        end_time: expect.any(String),
        // Issue 13: nothing given by the organiser after an incident.
        extension_minutes: 0,
        extra: false,
      },
    ]);
    expect(data.childrens[0].extra_attempts).toBe(0);
    expect(data.childrens[1]).toMatchObject({ position: 2, class_room_id: 'other', class_room_other: '5K', class: '5K', class_room: null, exams: [] });
  });

  it('gives a school administrator the school and no contestants', async () => {
    const admin = await createSchoolAdmin(server);
    const response = await server.request('GET', '/api/profile', { token: admin.token });
    expect(response.body.data).toMatchObject({
      is_admin_school: 1,
      role: 'school_admin',
      name: 'Quản trị trường',
      school: { id: admin.schoolId, name: expect.any(String), address: expect.any(String) },
      childrens: [],
    });
  });
});

describe('POST /api/customer/profile', () => {
  it('creates, updates and deletes contestants from the whole list, positions 1..3', async () => {
    const cat = await catalogue();
    const parent = await createParent(server);
    const created = await save(parent.token, [child(cat, { fullname: 'An' }), child(cat, { fullname: 'Bình' }), child(cat, { fullname: 'Chi', class_room_id: 'other', class_room_other: ' 1C ' })], parent.phone);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      success: true,
      message: 'Đã hoàn thành đăng ký',
      user: { id: parent.id, phone: parent.phone, name: '', is_admin_school: 0, role: 'parent' },
    });
    const [a, b, c] = created.body.data.childrens;
    expect([a.position, b.position, c.position]).toEqual([1, 2, 3]);
    expect(c).toMatchObject({ fullname: 'Chi', class_room_id: 'other', class_room_other: '1C', class: '1C' });

    // Contestant 2 removed, a new one added: it takes position 2; contestant 3 renamed.
    const updated = await save(parent.token, [{ ...child(cat, { fullname: 'An' }), id: a.id }, { ...child(cat, { fullname: 'Chi Mai', class_room_id: 'other', class_room_other: '1C' }), id: c.id }, child(cat, { fullname: 'Dũng' })]);
    expect(updated.status).toBe(200);
    expect(updated.body.data.childrens.map((x: { fullname: string; position: number }) => [x.fullname, x.position])).toEqual([
      ['An', 1],
      ['Dũng', 2],
      ['Chi Mai', 3],
    ]);
    const rows = await server.db.selectFrom('contestants').select('id').where('user_id', '=', parent.id).execute();
    expect(rows.map((r) => r.id)).not.toContain(b.id);
  });

  it('refuses a fourth contestant', async () => {
    const cat = await catalogue();
    const parent = await createParent(server);
    const response = await save(parent.token, [child(cat), child(cat), child(cat), child(cat)]);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, message: 'Mỗi tài khoản chỉ được đăng ký tối đa 3 thí sinh.' });
    expect(response.body.errors.childrens).toBe('Mỗi tài khoản chỉ được đăng ký tối đa 3 thí sinh.');

    await save(parent.token, [child(cat), child(cat), child(cat)]);
    const profile = await server.request('GET', '/api/profile', { token: parent.token });
    const full = profile.body.data.childrens.map((x: { id: number }) => ({ ...child(cat), id: x.id }));
    const fourth = await save(parent.token, [...full, child(cat)]);
    expect(fourth.status).toBe(400);
    expect(await server.db.selectFrom('contestants').select('id').where('user_id', '=', parent.id).execute()).toHaveLength(3);
  });

  it('gives field errors keyed by contestant for missing or wrong fields', async () => {
    const cat = await catalogue();
    const parent = await createParent(server);
    const response = await save(parent.token, [
      { fullname: '  ', district_id: '', school_id: '', class_group_id: '', class_room_id: '' },
      child(cat, { class_room_id: 'other', class_room_other: '123456' }),
      child(cat, { class_room_id: 'other', class_room_other: '' }),
    ]);
    expect(response.status).toBe(400);
    expect(response.body.errors).toMatchObject({
      'childrens.0.fullname': 'Họ và tên là bắt buộc.',
      'childrens.0.district_id': 'Huyện là bắt buộc.',
      'childrens.0.school_id': 'Trường học là bắt buộc.',
      'childrens.0.class_group_id': 'Nhóm lớp là bắt buộc.',
      'childrens.0.class_room_id': 'Lớp là bắt buộc.',
      'childrens.1.class_room_other': 'Lớp không được quá 5 ký tự.',
      'childrens.2.class_room_other': 'Lớp là bắt buộc.',
    });
    expect(await server.db.selectFrom('contestants').select('id').where('user_id', '=', parent.id).execute()).toHaveLength(0);
  });

  it('refuses a school of another district and a class room of another class group (400, not 500)', async () => {
    const cat = await catalogue();
    const parent = await createParent(server);
    const school = await save(parent.token, [child(cat, { school_id: cat.s2.id })]);
    expect(school.status).toBe(400);
    expect(school.body.errors).toEqual({ 'childrens.0.school_id': 'Trường học không thuộc huyện đã chọn.' });
    const room = await save(parent.token, [child(cat, { class_group_id: cat.group3.id })]);
    expect(room.status).toBe(400);
    expect(room.body.errors).toEqual({ 'childrens.0.class_room_id': 'Lớp không thuộc nhóm lớp đã chọn.' });
    const unknown = await save(parent.token, [child(cat, { district_id: 999_999, school_id: 999_999, class_group_id: 999_999, class_room_id: 999_999 })]);
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.errors).sort()).toEqual([
      'childrens.0.class_group_id',
      'childrens.0.class_room_id',
      'childrens.0.district_id',
      'childrens.0.school_id',
    ]);
  });

  it("never reads or changes another account's contestant", async () => {
    const cat = await catalogue();
    const owner = await createParent(server);
    const other = await createParent(server);
    const theirs = await createContestant(server, owner, { fullname: 'Con nhà người ta' });

    const mine = await server.request('GET', '/api/profile', { token: other.token });
    expect(mine.body.data.childrens).toEqual([]);

    const hijack = await save(other.token, [{ ...child(cat, { fullname: 'Đổi tên' }), id: theirs.id }]);
    expect(hijack.status).toBe(403);
    expect(hijack.body.message).toBe('Thí sinh không thuộc tài khoản của bạn.');
    const row = await server.db.selectFrom('contestants').select(['fullname', 'user_id']).where('id', '=', theirs.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ fullname: 'Con nhà người ta', user_id: owner.id });
    expect(await server.db.selectFrom('contestants').select('id').where('user_id', '=', other.id).execute()).toHaveLength(0);

    // An unknown id is not created anew either.
    const ghost = await save(other.token, [{ ...child(cat), id: 2_000_000_000 }]);
    expect(ghost.status).toBe(403);
  });

  it('locks the fields of a contestant with an exam, accepts the same values back, never deletes it', async () => {
    const cat = await catalogue();
    const parent = await createParent(server);
    const first = await save(parent.token, [child(cat, { fullname: 'An' }), child(cat, { fullname: 'Bình' })]);
    const [a, b] = first.body.data.childrens;
    const book = cat.group1.books[0]!;
    await giveExam(b.id, book.id);

    const same = { id: b.id, fullname: 'Bình', district_id: b.district_id, school_id: b.school_id, class_group_id: b.class_group_id, class_room_id: b.class_room_id, class_room_other: null };
    const unchanged = await save(parent.token, [{ ...child(cat, { fullname: 'An Nhiên' }), id: a.id }, same]);
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.data.childrens[0].fullname).toBe('An Nhiên');

    const renamed = await save(parent.token, [{ ...child(cat), id: a.id }, { ...same, fullname: 'Bình Minh', class_room_id: cat.rooms1[1]!.id }]);
    expect(renamed.status).toBe(400);
    expect(renamed.body).toMatchObject({
      message: 'Thí sinh đã dự thi nên không thể thay đổi thông tin.',
      errors: { 'childrens.1.fullname': expect.any(String), 'childrens.1.class_room_id': expect.any(String) },
    });

    const dropped = await save(parent.token, [{ ...child(cat), id: a.id }]);
    expect(dropped.status).toBe(400);
    expect(dropped.body.message).toBe('Không thể xoá thí sinh đã dự thi.');
    const names = await server.db.selectFrom('contestants').select('fullname').where('user_id', '=', parent.id).orderBy('position').execute();
    expect(names.map((n) => n.fullname)).toEqual(['An Nhiên', 'Bình']);
  });

  it('never deletes contestant 1', async () => {
    const cat = await catalogue();
    const parent = await createParent(server);
    const first = await save(parent.token, [child(cat, { fullname: 'An' }), child(cat, { fullname: 'Bình' })]);
    const [, b] = first.body.data.childrens;
    const response = await save(parent.token, [{ ...child(cat, { fullname: 'Bình' }), id: b.id }]);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('Không thể xoá thí sinh thứ nhất.');
    const empty = await save(parent.token, []);
    expect(empty.status).toBe(400);
  });

  it('keeps the phone read-only and refuses a list sent twice with the same id', async () => {
    const cat = await catalogue();
    const parent = await createParent(server);
    const phone = await save(parent.token, [child(cat)], '0911111111');
    expect(phone.status).toBe(400);
    expect(phone.body.errors.phone).toBe('Không thể thay đổi số điện thoại của tài khoản.');
    const first = await save(parent.token, [child(cat)]);
    const id = first.body.data.childrens[0].id;
    const twice = await save(parent.token, [{ ...child(cat), id }, { ...child(cat), id }]);
    expect(twice.status).toBe(400);
  });

  it('gives school administrators and organisers no contestants', async () => {
    const cat = await catalogue();
    const admin = await createSchoolAdmin(server);
    const refused = await save(admin.token, [child(cat)]);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Tài khoản này không đăng ký thí sinh dự thi.');
    const ok = await save(admin.token, [], admin.phone);
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ is_admin_school: 1 });

    const login = await server.request('POST', '/api/login', { body: { phone: demoAccounts.organiser.phone, password: demoAccounts.organiser.password } });
    const organiser = await save(login.body.access_token, [child(cat)]);
    expect(organiser.status).toBe(403);
  });

  it('answers malformed bodies with 400', async () => {
    const parent = await createParent(server);
    for (const body of [{ childrens: 'x' }, { childrens: [1] }, { childrens: [{ id: 'abc' }] }]) {
      const response = await server.request('POST', '/api/customer/profile', { token: parent.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const anonymous = await server.request('POST', '/api/customer/profile', { body: { childrens: [] } });
    expect(anonymous.status).toBe(401);
  });
});
