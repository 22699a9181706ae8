// The back office's catalogue: permissions, edits, deletes refused while in use, merges, and the
// schools and class-teachers imports (every problem reported, nothing stored unless the file is
// clean, the same file twice changes nothing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { MAX_IMPORT_BYTES, templateColumns } from '../../../../shared/schemas/admin';
import { startTestServer, type TestServer } from '../../../test/harness';
import { classGroupAt, createContestant, createEveryRole, createParent, createSchoolAdmin, refusedStatuses, uploadForm, type CreatedUser, type EveryRole } from '../../../test/factories';

let server: TestServer;
let roles: EveryRole;
let organiser: CreatedUser;

beforeAll(async () => {
  server = await startTestServer();
  roles = await createEveryRole(server);
  organiser = roles.organiser;
});
afterAll(() => server?.close());

const as = (method: string, path: string, body?: unknown) => server.request(method, `/api/admin${path}`, { token: organiser.token, body });

async function xlsx(columns: readonly string[], rows: (string | number)[][]): Promise<Buffer> {
  const data = [columns.map((value) => ({ value })), ...rows.map((row) => row.map((value) => ({ value, type: typeof value === 'number' ? Number : String })))];
  return Buffer.from(await writeExcelFile(data as never).toBuffer());
}
const schoolsFile = (rows: (string | number)[][]) => xlsx(templateColumns.schools, rows);
const teachersFile = (rows: (string | number)[][]) => xlsx(templateColumns['class-teachers'], rows);
const importSchools = async (file: Buffer | string, name = 'truong.xlsx', fields: Record<string, string> = {}) =>
  server.request('POST', '/api/admin/schools/import', { token: organiser.token, body: uploadForm(name, file, fields) });
const importTeachers = async (file: Buffer | string, name = 'giao-vien.xlsx', fields: Record<string, string> = {}) =>
  server.request('POST', '/api/admin/class-teachers/import', { token: organiser.token, body: uploadForm(name, file, fields) });

const countRows = async (table: 'schools' | 'districts' | 'class_teachers' | 'audit_log') =>
  Number((await server.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const auditKinds = async () => (await server.db.selectFrom('audit_log').select(['kind', 'summary', 'details']).orderBy('id').execute());

async function newSchool(name: string, districtName = 'Quận Thử Nghiệm') {
  let district = await server.db.selectFrom('districts').select('id').where('name', '=', districtName).executeTakeFirst();
  district ??= await server.db.insertInto('districts').values({ name: districtName }).returning('id').executeTakeFirstOrThrow();
  return server.db.insertInto('schools').values({ district_id: district.id, name, address: 'Số 1', pupil_count: 100 }).returning(['id', 'district_id', 'name']).executeTakeFirstOrThrow();
}

describe('permissions', () => {
  const calls: [string, string][] = [
    ['GET', '/districts'],
    ['POST', '/districts'],
    ['PUT', '/districts/1'],
    ['DELETE', '/districts/1'],
    ['GET', '/districts/1/merge?into_id=2'],
    ['POST', '/districts/1/merge'],
    ['GET', '/schools'],
    ['POST', '/schools'],
    ['PUT', '/schools/1'],
    ['DELETE', '/schools/1'],
    ['GET', '/schools/1/usage'],
    ['GET', '/schools/1/merge?into_id=2'],
    ['POST', '/schools/1/merge'],
    ['POST', '/schools/import'],
    ['GET', '/class-groups'],
    ['POST', '/class-groups'],
    ['PUT', '/class-groups/1'],
    ['DELETE', '/class-groups/1'],
    ['GET', '/class-rooms'],
    ['POST', '/class-rooms'],
    ['PUT', '/class-rooms/1'],
    ['DELETE', '/class-rooms/1'],
    ['GET', '/class-rooms/1/usage'],
    ['POST', '/class-rooms/1/merge'],
    ['GET', '/class-teachers'],
    ['POST', '/class-teachers'],
    ['PUT', '/class-teachers/1/5A'],
    ['DELETE', '/class-teachers/1/5A'],
    ['POST', '/class-teachers/import'],
  ];
  it.each(calls)('%s %s: 401 anonymous, 403 parent and school administrator', async (method, path) => {
    const body = method === 'POST' || method === 'PUT' ? { name: 'x' } : undefined;
    expect(await refusedStatuses(server, roles, method, `/api/admin${path}`, body)).toEqual([401, 403, 403]);
  });
});

describe('districts and schools', () => {
  it('adds, lists with search and paging, edits, and refuses a name twice', async () => {
    const district = await as('POST', '/districts', { name: '  Huyện   Mới Lập ' });
    expect(district.status).toBe(200);
    expect(district.body.data).toMatchObject({ name: 'Huyện Mới Lập' });
    const again = await as('POST', '/districts', { name: 'Huyện Mới Lập' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'name_taken', message: expect.stringContaining('Huyện Mới Lập') });

    const school = await as('POST', '/schools', { district_id: district.body.data.id, name: 'Trường Tiểu học Sao Mai', address: 'Đường 1', pupil_count: 850 });
    expect(school.status).toBe(200);
    const twin = await as('POST', '/schools', { district_id: district.body.data.id, name: 'Trường Tiểu học Sao Mai', address: '', pupil_count: 1 });
    expect(twin.status).toBe(409);
    const bad = await as('POST', '/schools', { district_id: district.body.data.id, name: '', pupil_count: -1 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['name', 'pupil_count']));
    const unknownDistrict = await as('POST', '/schools', { district_id: 999999, name: 'Trường X', pupil_count: 1 });
    expect(unknownDistrict.status).toBe(422);

    const listed = await as('GET', `/schools?district_id=${district.body.data.id}&q=sao%20mai`);
    expect(listed.body.data).toMatchObject({ total: 1, items: [{ name: 'Trường Tiểu học Sao Mai', district_name: 'Huyện Mới Lập', pupil_count: 850, contestants: 0 }] });
    const paged = await as('GET', '/schools?per_page=2&page=2');
    expect(paged.body.data.items).toHaveLength(2);
    expect(paged.body.data.total).toBeGreaterThan(4);

    const edited = await as('PUT', `/schools/${school.body.data.id}`, { district_id: district.body.data.id, name: 'Trường Tiểu học Sao Mai', address: 'Đường 2', pupil_count: 900 });
    expect(edited.body.data).toMatchObject({ address: 'Đường 2', pupil_count: 900 });
    const entry = (await auditKinds()).find((e) => e.kind === 'school.update');
    expect(entry?.details).toMatchObject({ before: { pupil_count: 850 }, after: { pupil_count: 900 } });

    const districts = await as('GET', '/districts?q=mới lập');
    expect(districts.body.data.items).toEqual([{ id: district.body.data.id, name: 'Huyện Mới Lập', schools: 1, former_province: '' }]);
    const districtInUse = await as('DELETE', `/districts/${district.body.data.id}`);
    expect(districtInUse.status).toBe(409);
    expect(districtInUse.body.code).toBe('in_use');
  });

  it('sorts each list on the server by a column asked for (sort, dir), else in its own order; an unknown column is a 400', async () => {
    const district = (await as('POST', '/districts', { name: 'Huyện Sắp Xếp' })).body.data;
    for (const [name, pupils] of [['Trường Sắp Xếp B', 300], ['Trường Sắp Xếp C', 100], ['Trường Sắp Xếp A', 200]] as const) {
      expect((await as('POST', '/schools', { district_id: district.id, name, address: '', pupil_count: pupils })).status).toBe(200);
    }
    const names = async (query: string) => {
      const answer = await as('GET', `/schools?district_id=${district.id}${query}`);
      expect(answer.status).toBe(200);
      return (answer.body.data.items as { name: string }[]).map((school) => school.name.slice(-1));
    };
    expect(await names('')).toEqual(['A', 'B', 'C']);
    expect(await names('&sort=pupil_count')).toEqual(['C', 'A', 'B']);
    expect(await names('&sort=pupil_count&dir=desc')).toEqual(['B', 'A', 'C']);
    expect(await names('&sort=name&dir=desc&per_page=2&page=2')).toEqual(['A']);
    // Ties (no contestants anywhere here) fall back to the list's own order.
    expect(await names('&sort=contestants&dir=desc')).toEqual(['A', 'B', 'C']);

    for (const [path, key] of [
      ['/districts', 'schools'],
      ['/class-groups', 'books'],
      ['/class-rooms', 'class_group_name'],
      ['/class-teachers', 'teacher_name'],
    ]) {
      expect((await as('GET', `${path}?sort=${key}&dir=desc`)).status, path).toBe(200);
      const refused = await as('GET', `${path}?sort=password`);
      expect(refused.status, path).toBe(400);
      expect(refused.body).toMatchObject({ code: 'invalid_input', errors: { sort: expect.any(String) } });
    }
    const byCount = (await as('GET', '/districts?sort=schools&dir=desc&per_page=200')).body.data.items as { schools: number }[];
    expect(byCount.map((d) => d.schools)).toEqual([...byCount.map((d) => d.schools)].sort((a, b) => b - a));
  });

  it('sorts names in Vietnamese order (Đ after D, Ô after O), by default and with sort=name', async () => {
    const district = (await as('POST', '/districts', { name: 'Huyện Thứ Tự Việt' })).body.data;
    for (const name of ['Trường Ông Ích Khiêm', 'Trường Đinh Tiên Hoàng', 'Trường Dương Quảng Hàm', 'Trường Oanh Liệt', 'Trường Em Bé']) {
      expect((await as('POST', '/schools', { district_id: district.id, name, address: '', pupil_count: 1 })).status).toBe(200);
    }
    const names = async (query: string) =>
      ((await as('GET', `/schools?district_id=${district.id}${query}`)).body.data.items as { name: string }[]).map((school) => school.name.replace('Trường ', ''));
    const expected = ['Dương Quảng Hàm', 'Đinh Tiên Hoàng', 'Em Bé', 'Oanh Liệt', 'Ông Ích Khiêm'];
    expect(await names('')).toEqual(expected);
    expect(await names('&sort=name')).toEqual(expected);
    expect(await names('&sort=name&dir=desc')).toEqual([...expected].reverse());
    await as('POST', '/districts', { name: 'Đống Đa Thứ Tự' });
    await as('POST', '/districts', { name: 'Dương Kinh Thứ Tự' });
    const districts = ((await as('GET', '/districts?q=Thứ Tự&sort=name')).body.data.items as { name: string }[]).map((d) => d.name);
    expect(districts).toEqual(['Dương Kinh Thứ Tự', 'Đống Đa Thứ Tự', 'Huyện Thứ Tự Việt']);
  });

  it('searches districts, schools, classes and teachers without accents, in any case and under either tone placement', async () => {
    const district = (await as('POST', '/districts', { name: 'Thành phố An Hoà Tìm' })).body.data;
    const school = (await as('POST', '/schools', { district_id: district.id, name: 'Trường Tiểu học Lê Quý Đôn Tìm', address: 'Đường Nguyễn Huệ', pupil_count: 10 })).body.data;
    await as('POST', '/class-teachers', { school_id: school.id, class_name: '5A', teacher_name: 'Phạm Thị Thuỷ Tìm' });
    const names = async (path: string, q: string, field = 'name') =>
      ((await as('GET', `${path}?q=${encodeURIComponent(q)}`)).body.data.items as Record<string, string>[]).map((row) => row[field]);
    for (const typed of ['an hoa tim', 'AN HÒA TÌM', 'An Hòa Tìm']) expect(await names('/districts', typed), typed).toEqual(['Thành phố An Hoà Tìm']);
    for (const typed of ['le quy don tim', 'LÊ QUÝ ĐÔN TÌM', 'nguyen hue']) {
      expect((await names('/schools', typed)).filter((name) => name?.endsWith('Tìm')), typed).toEqual(['Trường Tiểu học Lê Quý Đôn Tìm']);
    }
    for (const typed of ['thuy tim', 'THỦY TÌM', 'le quy don tim']) expect(await names('/class-teachers', typed, 'teacher_name'), typed).toEqual(['Phạm Thị Thuỷ Tìm']);
    expect(await names('/class-groups', 'nhom 3')).toEqual(['Nhóm 3']);
    expect(await names('/schools', '50%')).toEqual([]);
  });

  it('deletes a school nothing uses, and refuses one that contestants use with what uses it', async () => {
    const unused = await newSchool('Trường Không Ai Dùng');
    expect((await as('DELETE', `/schools/${unused.id}`)).status).toBe(200);
    expect((await as('DELETE', `/schools/${unused.id}`)).status).toBe(404);

    const used = await newSchool('Trường Đang Dùng');
    const owner = await createParent(server);
    await createContestant(server, owner, { schoolId: used.id });
    await createContestant(server, owner, { schoolId: used.id });
    const refused = await as('DELETE', `/schools/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: 'in_use' });
    expect(refused.body.message).toContain('2 thí sinh');
    expect(refused.body.message).toContain('gộp');
    expect(await server.db.selectFrom('schools').select('id').where('id', '=', used.id).executeTakeFirst()).toBeDefined();

    const moveDistrict = await as('PUT', `/schools/${used.id}`, { district_id: (await newSchool('Trường Khác', 'Quận Khác')).district_id, name: used.name, pupil_count: 1 });
    expect(moveDistrict.status).toBe(409);
    expect(moveDistrict.body.code).toBe('in_use');
  });

  it('merges a school into another: counts first, then contestants, its administrator and teachers move, classes of one name become one, all in one audited step', async () => {
    const from = await newSchool('Trường Sáp Nhập', 'Quận Cũ');
    const into = await newSchool('Trường Tiếp Nhận', 'Quận Mới');
    const owner = await createParent(server);
    const pupils = [await createContestant(server, owner, { schoolId: from.id, classRoomOther: '5a1' }), await createContestant(server, owner, { schoolId: from.id, classRoomOther: '5A4' })];
    await createContestant(server, await createParent(server), { schoolId: into.id, classRoomOther: '5 A4' });
    const admin = await createSchoolAdmin(server, from.id);
    await server.db.insertInto('class_teachers').values([
      { school_id: from.id, class_name: '5A1', teacher_name: 'Cô Lan' },
      { school_id: from.id, class_name: '5A2', teacher_name: 'Cô Hoa' },
      { school_id: from.id, class_name: 'LỚP 5A3', teacher_name: 'Cô Mai' },
      { school_id: into.id, class_name: '5A1', teacher_name: 'Thầy Nam' },
      { school_id: into.id, class_name: '5A3', teacher_name: 'Cô Mai' },
    ]).execute();

    const usage = await as('GET', `/schools/${from.id}/usage`);
    expect(usage.body.data).toEqual({ contestants: 2, school_admins: 1, class_teachers: 3, results: 0 });
    expect((await as('POST', `/schools/${from.id}/merge`, { into_id: from.id })).status).toBe(422);
    expect((await as('GET', `/schools/${from.id}/merge?into_id=999999`)).status).toBe(422);

    // The dialog's count: nothing changes yet.
    const preview = await as('GET', `/schools/${from.id}/merge?into_id=${into.id}`);
    expect(preview.status).toBe(200);
    const expected = {
      from: { id: from.id, name: 'Trường Sáp Nhập', district_name: 'Quận Cũ' },
      into: { id: into.id, name: 'Trường Tiếp Nhận', district_name: 'Quận Mới' },
      contestants: 2,
      exams: 0,
      school_admins: 1,
      class_teachers: 1,
      joined_classes: [
        { class_name: '5A1', kept_teacher: 'Thầy Nam', dropped_teacher: 'Cô Lan', pupils_renamed: 0 },
        { class_name: '5A3', kept_teacher: 'Cô Mai', dropped_teacher: null, pupils_renamed: 0 },
        // The pupil who typed "5A4" joins the kept school's "5 A4": one class for the class prizes.
        { class_name: '5 A4', kept_teacher: null, dropped_teacher: null, pupils_renamed: 1 },
      ],
      pupil_prizes: 0,
      school_prizes: [],
      refusal: null,
    };
    expect(preview.body.data).toMatchObject(expected);
    expect(await server.db.selectFrom('schools').select('id').where('id', '=', from.id).executeTakeFirst()).toBeDefined();

    const merged = await as('POST', `/schools/${from.id}/merge`, { into_id: into.id });
    expect(merged.status).toBe(200);
    expect(merged.body.data.moved).toMatchObject(expected);
    const moved = await server.db.selectFrom('contestants').select(['school_id', 'district_id', 'class_room_other']).where('id', 'in', pupils.map((p) => p.id)).orderBy('id').execute();
    expect(moved).toEqual([
      // "5a1" is already the class "5A1" for the ranking (its key is the upper case): left as typed.
      { school_id: into.id, district_id: into.district_id, class_room_other: '5a1' },
      { school_id: into.id, district_id: into.district_id, class_room_other: '5 A4' },
    ]);
    expect((await server.db.selectFrom('users').select('school_id').where('id', '=', admin.id).executeTakeFirstOrThrow()).school_id).toBe(into.id);
    const teachers = await server.db.selectFrom('class_teachers').select(['class_name', 'teacher_name']).where('school_id', '=', into.id).orderBy('class_name').execute();
    expect(teachers).toEqual([
      { class_name: '5A1', teacher_name: 'Thầy Nam' },
      { class_name: '5A2', teacher_name: 'Cô Hoa' },
      { class_name: '5A3', teacher_name: 'Cô Mai' },
    ]);
    expect(await server.db.selectFrom('schools').select('id').where('id', '=', from.id).executeTakeFirst()).toBeUndefined();
    const entry = (await auditKinds()).find((e) => e.kind === 'school.merge');
    expect(entry?.summary).toBe('Gộp trường Trường Sáp Nhập (Quận Cũ) vào Trường Tiếp Nhận (Quận Mới): chuyển 2 thí sinh, 1 tài khoản quản trị trường, 1 giáo viên lớp, 3 lớp nhập với lớp cùng tên');
    expect(entry?.details).toMatchObject({ moved: { joined_classes: expected.joined_classes } });
    expect((await as('POST', `/schools/${from.id}/merge`, { into_id: into.id })).status).toBe(404);
  });

  it('refuses to merge a school that holds a school certificate or while results are computed, saying why, and changes nothing', async () => {
    const from = await newSchool('Trường Có Giấy Trường', 'Quận Giấy');
    const into = await newSchool('Trường Nhận Giấy', 'Quận Giấy');
    const contest = await server.db.selectFrom('contests').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const now = new Date();
    await server.db
      .insertInto('certificates')
      .values({ code: 'ABCD-EFGH-JKLM', contest_id: contest.id, kind: 'school', school_id: from.id, content: JSON.stringify({}), content_hash: 'x', issued_at: now, updated_at: now })
      .execute();
    const preview = await as('GET', `/schools/${from.id}/merge?into_id=${into.id}`);
    expect(preview.body.data.refusal).toBe(
      'Không gộp được: trường "Trường Có Giấy Trường" đã được cấp 1 giấy chứng nhận của trường (kết quả đã công bố). Gộp trường sẽ xoá các giấy này, nên Ban tổ chức giữ nguyên trường này.',
    );
    const refused = await as('POST', `/schools/${from.id}/merge`, { into_id: into.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: 'merge_refused', message: preview.body.data.refusal });
    expect(await server.db.selectFrom('schools').select('id').where('id', '=', from.id).executeTakeFirst()).toBeDefined();
    await server.db.deleteFrom('certificates').where('code', '=', 'ABCD-EFGH-JKLM').execute();

    // While the results are being computed (a task with a live heartbeat), no merge: the
    // computation would store rows of a school that is gone.
    const task = await server.db
      .insertInto('result_tasks')
      .values({ contest_id: contest.id, kind: 'compute', forced: false, started_by: organiser.id, started_at: server.clock.now(), heartbeat_at: server.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const computing = await as('POST', `/schools/${from.id}/merge`, { into_id: into.id });
    expect(computing.status).toBe(409);
    expect(computing.body.message).toBe('Đang tính kết quả cuộc thi: hãy gộp sau khi tính xong (gộp bây giờ sẽ làm hỏng lần tính này).');
    await server.db.updateTable('result_tasks').set({ status: 'failed', finished_at: server.clock.now() }).where('id', '=', task.id).execute();
    expect((await as('POST', `/schools/${from.id}/merge`, { into_id: into.id })).status).toBe(200);
  });

  it('merges a district into another: "An Hoà" and "An Hòa" become one, schools of one name merged, the others moved with their pupils', async () => {
    // Two spellings of one district, as an old import made them (the catalogue now refuses the second).
    const from = await server.db.insertInto('districts').values({ name: 'Thành phố Hoà Gộp' }).returning(['id', 'name']).executeTakeFirstOrThrow();
    const into = await server.db.insertInto('districts').values({ name: 'Thành phố Hòa Gộp' }).returning(['id', 'name']).executeTakeFirstOrThrow();
    const twinFrom = await newSchool('Trường Tiểu học Hoà Bình', from.name);
    const alone = await newSchool('Trường Tiểu học Sông Cầu', from.name);
    const twinInto = await newSchool('Trường Tiểu học Hòa Bình', into.name);
    const owner = await createParent(server);
    const twinPupil = await createContestant(server, owner, { schoolId: twinFrom.id, classRoomOther: '3B' });
    const alonePupil = await createContestant(server, owner, { schoolId: alone.id, classRoomOther: '3C' });
    await server.db.insertInto('class_teachers').values([
      { school_id: twinFrom.id, class_name: '3B', teacher_name: 'Cô Vân' },
      { school_id: twinInto.id, class_name: '3B', teacher_name: 'Thầy Sơn' },
      { school_id: alone.id, class_name: '3C', teacher_name: 'Cô Thu' },
    ]).execute();

    expect((await as('POST', `/districts/${from.id}/merge`, { into_id: from.id })).status).toBe(422);
    const preview = await as('GET', `/districts/${from.id}/merge?into_id=${into.id}`);
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({
      from,
      into,
      schools_moved: ['Trường Tiểu học Sông Cầu'],
      schools_joined: [
        {
          from: { id: twinFrom.id, name: 'Trường Tiểu học Hoà Bình' },
          into: { id: twinInto.id, name: 'Trường Tiểu học Hòa Bình' },
          contestants: 1,
          class_teachers: 0,
          joined_classes: [{ class_name: '3B', kept_teacher: 'Thầy Sơn', dropped_teacher: 'Cô Vân', pupils_renamed: 0 }],
        },
      ],
      contestants: 2,
      school_admins: 0,
      class_teachers: 2,
      refusal: null,
    });
    const districtsList = await as('GET', `/districts?q=${encodeURIComponent('hoa gop')}`);
    expect(districtsList.body.data.items.map((d: { name: string }) => d.name).sort()).toEqual(['Thành phố Hoà Gộp', 'Thành phố Hòa Gộp']);

    const merged = await as('POST', `/districts/${from.id}/merge`, { into_id: into.id });
    expect(merged.status).toBe(200);
    expect(await server.db.selectFrom('districts').select('id').where('id', '=', from.id).executeTakeFirst()).toBeUndefined();
    expect(await server.db.selectFrom('schools').select('id').where('id', '=', twinFrom.id).executeTakeFirst()).toBeUndefined();
    expect((await server.db.selectFrom('schools').select('district_id').where('id', '=', alone.id).executeTakeFirstOrThrow()).district_id).toBe(into.id);
    const pupils = await server.db.selectFrom('contestants').select(['id', 'school_id', 'district_id']).where('id', 'in', [twinPupil.id, alonePupil.id]).orderBy('id').execute();
    expect(pupils).toEqual([
      { id: twinPupil.id, school_id: twinInto.id, district_id: into.id },
      { id: alonePupil.id, school_id: alone.id, district_id: into.id },
    ]);
    expect(await server.db.selectFrom('class_teachers').select(['school_id', 'class_name', 'teacher_name']).where('school_id', 'in', [twinInto.id, alone.id]).orderBy('school_id').execute()).toEqual([
      { school_id: alone.id, class_name: '3C', teacher_name: 'Cô Thu' },
      { school_id: twinInto.id, class_name: '3B', teacher_name: 'Thầy Sơn' },
    ].sort((a, b) => a.school_id - b.school_id));
    const entry = (await auditKinds()).find((e) => e.kind === 'district.merge');
    expect(entry?.summary).toBe(
      'Gộp quận/huyện Thành phố Hoà Gộp vào Thành phố Hòa Gộp: 1 trường chuyển sang, 1 trường gộp vào trường cùng tên, 2 thí sinh, 2 giáo viên lớp (Trường Tiểu học Hoà Bình → Trường Tiểu học Hòa Bình)',
    );
    expect((await as('GET', `/districts?q=${encodeURIComponent('hoa gop')}`)).body.data.items).toEqual([{ id: into.id, name: 'Thành phố Hòa Gộp', schools: 2, former_province: '' }]);
    expect((await as('POST', `/districts/${from.id}/merge`, { into_id: into.id })).status).toBe(404);
    expect((await as('GET', `/districts/${into.id}/merge?into_id=${from.id}`)).status).toBe(422);
  });
});

describe('class groups and rooms', () => {
  it('refuses to delete a room with contestants, merges it into a room of the same group only, and moves its teachers', async () => {
    const group = await classGroupAt(server.db, 3);
    const other = await classGroupAt(server.db, 1);
    const room = await as('POST', '/class-rooms', { class_group_id: group.id, name: '5Z9', position: 50 });
    expect(room.status).toBe(200);
    expect((await as('POST', '/class-rooms', { class_group_id: group.id, name: '5Z9' })).status).toBe(409);
    const target = await as('POST', '/class-rooms', { class_group_id: group.id, name: '5Z8', position: 51 });
    const school = await newSchool('Trường Có Lớp 5Z9');
    const owner = await createParent(server);
    const pupil = await createContestant(server, owner, { schoolId: school.id });
    await server.db.updateTable('contestants').set({ class_room_id: room.body.data.id }).where('id', '=', pupil.id).execute();
    await server.db.insertInto('class_teachers').values({ school_id: school.id, class_name: '5Z9', teacher_name: 'Cô Mai' }).execute();

    const refused = await as('DELETE', `/class-rooms/${room.body.data.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('1 thí sinh');
    const wrongGroup = await as('POST', `/class-rooms/${room.body.data.id}/merge`, { into_id: (await as('GET', `/class-rooms?class_group_id=${other.id}`)).body.data.items[0].id });
    expect(wrongGroup.status).toBe(422);
    expect(wrongGroup.body.code).toBe('merge_invalid');
    expect((await as('GET', `/class-rooms/${room.body.data.id}/usage`)).body.data).toEqual({ contestants: 1, class_teachers: 1 });

    const merged = await as('POST', `/class-rooms/${room.body.data.id}/merge`, { into_id: target.body.data.id });
    expect(merged.status).toBe(200);
    expect(merged.body.data.moved.contestants).toBe(1);
    expect((await server.db.selectFrom('contestants').select('class_room_id').where('id', '=', pupil.id).executeTakeFirstOrThrow()).class_room_id).toBe(target.body.data.id);
    expect(await server.db.selectFrom('class_teachers').select('class_name').where('school_id', '=', school.id).execute()).toEqual([{ class_name: '5Z8' }]);

    // A rename carries the teachers' class key too; an unused room is deleted.
    const renamed = await as('PUT', `/class-rooms/${target.body.data.id}`, { class_group_id: group.id, name: '5Z7', position: 51 });
    expect(renamed.body.data.name).toBe('5Z7');
    expect(await server.db.selectFrom('class_teachers').select('class_name').where('school_id', '=', school.id).execute()).toEqual([{ class_name: '5Z7' }]);
    const spare = await as('POST', '/class-rooms', { class_group_id: group.id, name: '5Z6' });
    expect((await as('DELETE', `/class-rooms/${spare.body.data.id}`)).status).toBe(200);
    expect((await auditKinds()).map((e) => e.kind)).toEqual(expect.arrayContaining(['class_room.create', 'class_room.merge', 'class_room.update', 'class_room.delete']));
  });

  it('edits a class group and refuses to delete one in use', async () => {
    const groups = await as('GET', '/class-groups');
    expect(groups.body.data.items.map((g: { name: string }) => g.name)).toEqual(['Nhóm 1', 'Nhóm 2', 'Nhóm 3']);
    const first = groups.body.data.items[0];
    const edited = await as('PUT', `/class-groups/${first.id}`, { name: 'Nhóm 1', grades: '1 - 2', position: first.position });
    expect(edited.body.data.grades).toBe('1 - 2');
    const taken = await as('PUT', `/class-groups/${first.id}`, { name: 'Nhóm 2', grades: '1-2', position: first.position });
    expect(taken.status).toBe(409);
    const refused = await as('DELETE', `/class-groups/${first.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/lớp|sách/);
    const added = await as('POST', '/class-groups', { name: 'Nhóm thử', grades: '6', position: 99 });
    expect((await as('DELETE', `/class-groups/${added.body.data.id}`)).status).toBe(200);
    await as('PUT', `/class-groups/${first.id}`, { name: 'Nhóm 1', grades: '1-2', position: first.position });
  });
});

describe('class teachers', () => {
  it('adds, lists, edits and deletes a class teacher; the class is keyed in upper case', async () => {
    const school = await newSchool('Trường Giáo Viên');
    const created = await as('POST', '/class-teachers', { school_id: school.id, class_name: ' 4 b ', teacher_name: 'Nguyễn Thị Thu' });
    expect(created.body.data).toEqual({ school_id: school.id, class_name: '4 B', teacher_name: 'Nguyễn Thị Thu' });
    expect((await as('POST', '/class-teachers', { school_id: school.id, class_name: '4 b', teacher_name: 'Khác' })).status).toBe(409);
    const listed = await as('GET', `/class-teachers?school_id=${school.id}`);
    expect(listed.body.data.items).toMatchObject([{ school_name: 'Trường Giáo Viên', class_name: '4 B', teacher_name: 'Nguyễn Thị Thu' }]);
    const edited = await as('PUT', `/class-teachers/${school.id}/${encodeURIComponent('4 B')}`, { school_id: school.id, class_name: '4B', teacher_name: 'Trần Văn Hùng' });
    expect(edited.body.data).toMatchObject({ class_name: '4B', teacher_name: 'Trần Văn Hùng' });
    expect((await as('DELETE', `/class-teachers/${school.id}/4b`)).status).toBe(200);
    expect((await as('DELETE', `/class-teachers/${school.id}/4B`)).status).toBe(404);
  });
});

describe('POST /api/admin/schools/import', () => {
  it('previews without storing, stores in one go, and changes nothing the second time', async () => {
    const file = await schoolsFile([
      ['Huyện Nhập Khẩu', 'Trường Tiểu học Nhập 1', 'Thôn 1', 320],
      ['Huyện Nhập Khẩu', 'Trường Tiểu học Nhập 2', 'Thôn 2', '1.430'],
      ['Huyện Nhập Khẩu Hai', 'Trường Tiểu học Nhập 3', '', 0],
    ]);
    const before = { schools: await countRows('schools'), districts: await countRows('districts'), audit: await countRows('audit_log') };
    const preview = await importSchools(file, 'truong.xlsx', { dry_run: '1' });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ created: 3, updated: 0, unchanged: 0, districts_created: 2, dry_run: true, rows: 3, file_name: 'truong.xlsx' });
    expect({ schools: await countRows('schools'), districts: await countRows('districts'), audit: await countRows('audit_log') }).toEqual(before);

    const stored = await importSchools(file);
    expect(stored.body.data).toMatchObject({ created: 3, updated: 0, unchanged: 0, districts_created: 2, dry_run: false });
    expect(await countRows('schools')).toBe(before.schools + 3);
    const school = await server.db.selectFrom('schools').selectAll().where('name', '=', 'Trường Tiểu học Nhập 2').executeTakeFirstOrThrow();
    expect(school).toMatchObject({ address: 'Thôn 2', pupil_count: 1430 });

    const again = await importSchools(file);
    expect(again.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 3, districts_created: 0 });
    expect(await countRows('schools')).toBe(before.schools + 3);

    const changed = await importSchools(await schoolsFile([['huyện nhập khẩu', 'Trường Tiểu học Nhập 1', 'Thôn 9', 330]]));
    expect(changed.body.data).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    const entries = (await auditKinds()).filter((e) => e.kind === 'schools.import');
    expect(entries).toHaveLength(3);
    expect(entries[0]!.summary).toContain('truong.xlsx');
    expect(entries[0]!.details).toMatchObject({ file: 'truong.xlsx', counts: { created: 3, updated: 0, unchanged: 0 } });
  });

  it('lists each update with its fields before and after, in the preview, the answer and the audit entry', async () => {
    await importSchools(await schoolsFile([['Huyện Cập Nhật', 'Trường Cập Nhật', 'Thôn 1', 450], ['Huyện Cập Nhật', 'Trường Giữ Nguyên', 'Thôn 2', 100]]));
    const file = await schoolsFile([['Huyện Cập Nhật', 'Trường Cập Nhật', 'Thôn 5', '520'], ['Huyện Cập Nhật', 'Trường Giữ Nguyên', 'Thôn 2', 100]]);
    const expected = [
      {
        row: 2,
        key: 'Huyện Cập Nhật / Trường Cập Nhật',
        changes: [
          { field: 'Địa chỉ', before: 'Thôn 1', after: 'Thôn 5' },
          { field: 'Số học sinh', before: '450', after: '520' },
        ],
      },
    ];
    const preview = await importSchools(file, 'cap-nhat.xlsx', { dry_run: '1' });
    expect(preview.body.data).toMatchObject({ updated: 1, unchanged: 1, updates: expected, updates_total: 1 });
    const stored = await importSchools(file, 'cap-nhat.xlsx');
    expect(stored.body.data).toMatchObject({ updated: 1, updates: expected, updates_total: 1 });
    const entry = (await auditKinds()).filter((e) => e.kind === 'schools.import').at(-1);
    expect(entry?.details).toMatchObject({ file: 'cap-nhat.xlsx', updates: expected, updates_total: 1 });
  });

  it('matches districts and schools under one tone-mark placement and any case, and lists what it would create', async () => {
    await newSchool('Trường Tiểu học Hoà Bình', 'An Hoà');
    const districtsBefore = await countRows('districts');
    const file = await schoolsFile([
      ['an hòa', 'Trường tiểu học Hòa Bình', 'Số 1', 100],
      ['AN HÒA', 'Trường Tiểu học Thuỷ Tiên', 'Số 2', 200],
      ['Huyện Khoẻ Mạnh', 'Trường Tiểu học Mới', 'Số 3', 300],
    ]);
    const preview = await importSchools(file, 'hoa.xlsx', { dry_run: '1' });
    expect(preview.body.data).toMatchObject({ created: 2, updated: 0, unchanged: 1, districts_created: 1, creations_total: 3 });
    expect(preview.body.data.creations).toEqual([
      { kind: 'district', name: 'Huyện Khoẻ Mạnh' },
      { kind: 'school', name: 'Trường Tiểu học Thuỷ Tiên (An Hoà)' },
      { kind: 'school', name: 'Trường Tiểu học Mới (Huyện Khoẻ Mạnh)' },
    ]);
    await importSchools(file);
    expect(await countRows('districts')).toBe(districtsBefore + 1);
    const names = (await server.db.selectFrom('schools').innerJoin('districts', 'districts.id', 'schools.district_id').select('schools.name').where('districts.name', '=', 'An Hoà').orderBy('schools.id').execute()).map((r) => r.name);
    expect(names).toEqual(['Trường Tiểu học Hoà Bình', 'Trường Tiểu học Thuỷ Tiên']);

    // Adding or renaming to the other placement is refused with the name that is there.
    const taken = await as('POST', '/districts', { name: 'An Hòa' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('Đã có quận/huyện "An Hoà".');
    const other = await as('POST', '/districts', { name: 'Quận Tạm' });
    expect((await as('PUT', `/districts/${other.body.data.id}`, { name: 'an hoà' })).status).toBe(409);
    const district = await server.db.selectFrom('districts').select('id').where('name', '=', 'An Hoà').executeTakeFirstOrThrow();
    const school = await as('POST', '/schools', { district_id: district.id, name: 'TRƯỜNG TIỂU HỌC HÒA BÌNH', address: '', pupil_count: 1 });
    expect(school.status).toBe(409);
    expect(school.body.message).toContain('Trường Tiểu học Hoà Bình');
  });

  it('reports every bad row (one among 500) with its spreadsheet row and stores nothing, dry run or not', async () => {
    const rows: (string | number)[][] = Array.from({ length: 500 }, (_, i) => ['Huyện Năm Trăm', `Trường số ${i + 1}`, `Xóm ${i + 1}`, 100 + i]);
    rows[247]![3] = 'nhiều';
    const file = await schoolsFile(rows);
    const before = { schools: await countRows('schools'), districts: await countRows('districts'), audit: await countRows('audit_log') };
    for (const fields of [{ dry_run: '1' }, {}] as Record<string, string>[]) {
      const refused = await importSchools(file, 'truong.xlsx', fields);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ success: false, code: 'import_invalid' });
      expect(refused.body.errors).toEqual([{ row: 249, column: 'Số học sinh', message: expect.stringMatching(/^Dòng 249, cột Số học sinh: phải là số nguyên/) }]);
    }
    expect({ schools: await countRows('schools'), districts: await countRows('districts'), audit: await countRows('audit_log') }).toEqual(before);
  });

  it('reports duplicate rows, missing cells and too long names, all at once', async () => {
    const refused = await importSchools(
      await schoolsFile([
        ['Huyện Trùng', 'Trường Trùng', 'A', 1],
        ['Huyện Trùng', 'Trường Khác', 'B', ''],
        ['huyện trùng', 'TRƯỜNG TRÙNG', 'C', 3],
        ['', 'x'.repeat(201), '', 4],
      ]),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([
      [3, 'Số học sinh'],
      [4, 'Trường'],
      [5, 'Quận/Huyện'],
      [5, 'Trường'],
    ]);
    expect(refused.body.errors[1].message).toBe('Dòng 4, cột Trường: trùng với dòng 2');
  });

  it('refuses a file with wrong columns, an empty file, a non-UTF-8 CSV, an unknown format and an oversize file', async () => {
    const before = await countRows('schools');
    const wrong = await importSchools(await xlsx(['Trường', 'Tỉnh', 'Địa chỉ', 'Số học sinh'], [['a', 'b', 'c', 1]]));
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ code: 'import_invalid', message: expect.stringContaining('Quận/Huyện, Trường, Địa chỉ, Số học sinh') });
    expect(wrong.body.errors.map((e: { column: string }) => e.column)).toEqual(['Tỉnh', 'Quận/Huyện']);

    const empty = await importSchools(await schoolsFile([]));
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([]);
    expect(empty.body.message).toContain('không có dòng dữ liệu');

    // The header and a row saved by Excel on Vietnamese Windows (CP1258): "Trường" is 54 72 FD EC 6F 6E 67.
    const cp1258 = Buffer.concat([
      Buffer.from('Qu\xe2n/Huy\xean,Tr\xfd\xf5ng,\xd0i\xea\xf2a chi\xde,S\xf4\xec ho\xf2c sinh\r\n', 'latin1'),
      Buffer.from([0x48, 0x75, 0x79, 0xea, 0xd2, 0x6e, 0x2c, 0x54, 0x72, 0xfd, 0xec, 0x6f, 0x6e, 0x67, 0x2c, 0x2c, 0x31, 0x0d, 0x0a]),
    ]);
    const notUtf8 = await importSchools(cp1258, 'truong.csv');
    expect(notUtf8.status).toBe(422);
    expect(notUtf8.body.message).toContain('UTF-8');
    expect(notUtf8.body.errors).toEqual([]);

    const pdf = await importSchools(Buffer.from('%PDF-1.4\n\0\0binary'), 'truong.pdf');
    expect(pdf.status).toBe(422);

    const huge = await importSchools(Buffer.alloc(MAX_IMPORT_BYTES + 1024, 'a'), 'truong.csv');
    expect(huge.status).toBe(422);
    expect(huge.body.message).toContain('quá lớn');
    expect(await countRows('schools')).toBe(before);
  });

  it('accepts a UTF-8 CSV and reads a formula cell as its value', async () => {
    const csv = '\ufeffQuận/Huyện;Trường;Địa chỉ;Số học sinh\r\nHuyện CSV;Trường CSV;"Số 3; ngõ 5";1 200\r\n';
    const stored = await importSchools(csv, 'truong.csv');
    expect(stored.status).toBe(200);
    expect(await server.db.selectFrom('schools').select(['address', 'pupil_count']).where('name', '=', 'Trường CSV').executeTakeFirstOrThrow()).toEqual({
      address: 'Số 3; ngõ 5',
      pupil_count: 1200,
    });

    // write-excel-file writes a formula without its value; Excel stores both (<f> and the last <v>).
    const sheet = await xlsx(templateColumns.schools, [['Huyện Công Thức', 'Trường Công Thức', 'Số 1', 0]]);
    const files = unzipSync(new Uint8Array(sheet));
    const path = 'xl/worksheets/sheet1.xml';
    const xml = strFromU8(files[path]!);
    const withFormula = xml.replace(/<c r="D2"([^>]*)><v>0<\/v><\/c>/, '<c r="D2"$1><f>SUM(300,400)</f><v>700</v></c>');
    expect(withFormula).not.toBe(xml);
    files[path] = strToU8(withFormula);
    const formula = await importSchools(Buffer.from(zipSync(files)));
    expect(formula.status).toBe(200);
    expect((await server.db.selectFrom('schools').select('pupil_count').where('name', '=', 'Trường Công Thức').executeTakeFirstOrThrow()).pupil_count).toBe(700);
  });

  it('skips a last "Tổng cộng" row (a label and numbers) and says so in one line, in a sheet and a CSV alike', async () => {
    const file = await schoolsFile([
      ['Huyện Tổng', 'Trường Tổng Một', 'Số 1', 300],
      ['Huyện Tổng', 'Trường Tổng Hai', 'Số 2', 400],
      ['Tổng cộng', '', '', 700],
    ]);
    const preview = await importSchools(file, 'truong.xlsx', { dry_run: '1' });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data).toMatchObject({ rows: 2, created: 2, notes: ['Dòng 4 là dòng tổng cộng, không phải một bản ghi: đã bỏ qua.'] });
    const stored = await importSchools(file);
    expect(stored.body.data).toMatchObject({ rows: 2, created: 2, dry_run: false, notes: [expect.stringContaining('Dòng 4')] });
    expect(await server.db.selectFrom('schools').select('name').where('name', '=', 'Tổng cộng').executeTakeFirst()).toBeUndefined();

    // Any of the usual labels, in a CSV with the columns in another order; a file without one has no note.
    const csv = 'Trường,Quận/Huyện,Số học sinh,Địa chỉ\nTrường Tổng Ba,Huyện Tổng,500,\nCộng:,,500,\n';
    expect((await importSchools(csv, 'truong.csv', { dry_run: '1' })).body.data).toMatchObject({ rows: 1, created: 1, notes: [expect.stringContaining('Dòng 3')] });
    expect((await importSchools(csv.replace('Cộng:,,500,\n', ''), 'truong.csv', { dry_run: '1' })).body.data.notes).toEqual([]);
    // The same row elsewhere than last, or with a name beside it, is a record, checked as one.
    const middle = await importSchools(await schoolsFile([['Tổng', '', '', 1], ['Huyện Tổng', 'Trường Tổng Bốn', '', 2]]), 'truong.xlsx', { dry_run: '1' });
    expect(middle.status).toBe(422);
    expect(middle.body.errors).toEqual([expect.objectContaining({ row: 2, column: 'Trường' })]);
  });

  it('skips a total row in the other tabular imports too (class teachers, a question sheet)', async () => {
    const school = await newSchool('Trường Tổng Giáo Viên', 'Quận Tổng');
    const room = await classGroupAt(server.db, 2);
    const teachers = await importTeachers(await teachersFile([['Quận Tổng', school.name, room.classRoom.name, 'Cô Hoa'], ['Tổng', '', '', '']]), 'giao-vien.xlsx', { dry_run: '1' });
    expect(teachers.status, JSON.stringify(teachers.body)).toBe(200);
    expect(teachers.body.data).toMatchObject({ rows: 1, created: 1, notes: [expect.stringContaining('Dòng 3')] });
    const book = room.books[0]!;
    const questions = await server.request('POST', `/api/admin/books/${book.id}/questions/import`, {
      token: organiser.token,
      body: uploadForm('cau-hoi.xlsx', await xlsx(templateColumns.questions, [['Câu hỏi về tổng?', 'Một', 'Hai', '', '', 'A'], ['Tổng cộng', '', '', '', '', '']]), { dry_run: '1' }),
    });
    expect(questions.status, JSON.stringify(questions.body)).toBe(200);
    expect(questions.body.data).toMatchObject({ rows: 1, created: 1, notes: [expect.stringContaining('Dòng 3')] });
  });

  // Its speed is measured by npm run bench:imports (a 20,000-row schools sheet), not here.
  it('stores 600 schools in 12 new districts, and finds all of them unchanged the second time', async () => {
    const rows = Array.from({ length: 600 }, (_, i) => [`Huyện Lớn ${i % 12}`, `Trường Tiểu học số ${i + 1}`, `Địa chỉ ${i}`, 200 + i]);
    const file = await schoolsFile(rows);
    const stored = await importSchools(file);
    expect(stored.body.data).toMatchObject({ created: 600, districts_created: 12 });
    const again = await importSchools(file);
    expect(again.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 600 });
  });
});

describe('POST /api/admin/class-teachers/import', () => {
  it('needs the school to exist, keys classes in upper case, and is idempotent', async () => {
    const school = await newSchool('Trường Có Giáo Viên', 'Quận Giáo Viên');
    const before = await countRows('class_teachers');
    const refused = await importTeachers(
      await teachersFile([
        ['Quận Giáo Viên', 'Trường Có Giáo Viên', '3A1', 'Cô Lan'],
        ['Quận Giáo Viên', 'Trường Không Có', '3A2', 'Cô Huệ'],
        ['Quận Không Có', 'Trường Có Giáo Viên', '3A3', 'Cô Cúc'],
        ['Quận Giáo Viên', 'Trường Có Giáo Viên', '3a1', 'Cô Mai'],
        ['Quận Giáo Viên', 'Trường Có Giáo Viên', '3A4', ''],
        ['Quận Giáo Viên', 'Trường Có Giáo Viên', '9Z', 'Cô Đào'],
        ['Quận Giáo Viên', 'Trường Có Giáo Viên', 'Lớp 2A1', 'Cô Hồng'],
      ]),
      'gv.xlsx',
      { dry_run: '1' },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([
      [3, 'Trường'],
      [4, 'Quận/Huyện'],
      [5, 'Lớp'],
      [6, 'Giáo viên'],
      [7, 'Lớp'],
    ]);
    expect(refused.body.errors[0].message).toContain('Trường Không Có');
    expect(refused.body.errors[4].message).toContain('không có lớp "9Z" trong danh mục lớp');
    expect(await countRows('class_teachers')).toBe(before);

    const file = await teachersFile([
      ['Quận Giáo Viên', 'Trường Có Giáo Viên', '3a1', 'Cô Lan'],
      ['quận giáo viên', 'trường có giáo viên', ' lớp 3   a2 ', 'Thầy Minh'],
    ]);
    const preview = await importTeachers(file, 'gv.xlsx', { dry_run: 'true' });
    expect(preview.body.errors).toBeUndefined();
    expect(preview.body.data).toMatchObject({ created: 2, updated: 0, unchanged: 0, dry_run: true });
    expect(await countRows('class_teachers')).toBe(before);
    expect((await importTeachers(file)).body.data).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    const rows = await server.db.selectFrom('class_teachers').select(['class_name', 'teacher_name']).where('school_id', '=', school.id).orderBy('class_name').execute();
    expect(rows).toEqual([
      { class_name: '3A1', teacher_name: 'Cô Lan' },
      { class_name: '3A2', teacher_name: 'Thầy Minh' },
    ]);
    expect((await importTeachers(file)).body.data).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const respelled = await teachersFile([['Quận Giáo Viên', 'Trường Có Giáo Viên', '3A1', 'cô lan']]);
    expect((await importTeachers(respelled)).body.data).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    const changed = await importTeachers(await teachersFile([['Quận Giáo Viên', 'Trường Có Giáo Viên', '3A1', 'Cô Lan Anh']]));
    const update = { row: 2, key: 'Trường Có Giáo Viên / Lớp 3A1', changes: [{ field: 'Giáo viên', before: 'Cô Lan', after: 'Cô Lan Anh' }] };
    expect(changed.body.data).toMatchObject({ created: 0, updated: 1, unchanged: 0, updates: [update], updates_total: 1 });
    const entry = (await auditKinds()).filter((e) => e.kind === 'class_teachers.import').at(-1);
    expect(entry?.summary).toContain('cập nhật 1');
    expect(entry?.details).toMatchObject({ updates: [update] });
  });
});
