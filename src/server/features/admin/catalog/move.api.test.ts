// The catalogue's move to a new map between seasons (issue 36, decision 038): the import's preview
// and commit with moves, renames, a merge, a closure, new units with their former province and a
// new school; the confirmation of a school matched by a name written otherwise; every earlier
// season's page unchanged after the move (school report, results export and prize list, certificate
// check, the parent's report of last season); the new season's profile telling the new school; a
// closed school refused for an enrolment; the former province in the catalogue and the exports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import readExcelFile from 'read-excel-file/node';
import { startTestServer, type TestServer } from '../../../test/harness';
import { computeResultsTask, createContestant, createOrganiser, createParent, createSchoolAdmin, uploadForm, type CreatedUser } from '../../../test/factories';
import { insertFinishedExams, sessionAt } from '../../../demo/finished-exams';
import { nextSeasonBody } from '../../../test/next-season';

let server: TestServer;
let organiser: CreatedUser;
let parent: CreatedUser;
let admin: CreatedUser & { schoolId: number };
let oldSeason: { id: number; name: string; exam_starts_at: Date; exam_ends_at: Date };
let newSeasonId = 0;
const ids = { leLoi: 0, nguyenTrai: 0, kimDong: 0, huongSon: 0 };
const children: Record<'leLoi' | 'kimDong' | 'huongSon', number> = { leLoi: 0, kimDong: 0, huongSon: 0 };
let certificateCode = '';
const DAY = 86_400_000;

const schoolId = async (name: string) => (await server.db.selectFrom('schools').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

const HEADER = 'Mã trường,Tên trường cũ,Quận/Huyện cũ,Quận/Huyện,Trường,Tỉnh cũ';
/** The new season's list: Lê Lợi moves (by code), Nguyễn Trãi moves and is renamed (typed without accents: to confirm), Kim Đồng merges into it, Hương Sơn closes, Sao Mai is new. */
const moveFile = () =>
  [
    HEADER,
    `${ids.leLoi},,,Phường Minh Khai,Trường Tiểu học Lê Lợi,Tỉnh An Hoà`,
    ',Truong Tieu hoc Nguyen Trai,Thanh pho An Hoa,Phường Hoà Bình,Trường Tiểu học Hoà Bình,Tỉnh An Hoà',
    ',Trường Tiểu học Kim Đồng,,Phường Hòa Bình,Trường Tiểu học Hòa Bình,',
    ',,,Thành phố An Hoà,Trường Tiểu học Võ Thị Sáu,',
    ',,,Thành phố An Hoà,Trường Tiểu học Trần Quốc Toản,',
    ',Trường Tiểu học Thị trấn Sông Cầu,,Huyện Sông Cầu,Trường Tiểu học Thị trấn Sông Cầu,',
    ',Trường Tiểu học Xuân Lộc,,Huyện Sông Cầu,Trường Tiểu học Xuân Lộc,',
    ',Trường Tiểu học Phú Mỹ,,Huyện Sông Cầu,Trường Tiểu học Phú Mỹ,',
    // Another tone placement of the same name: no confirmation.
    ',Trường Tiểu học Hòa Thuận,,Huyện Sông Cầu,Trường Tiểu học Hòa Thuận,',
    ',,,Huyện Đồng Xanh,Trường Tiểu học Đồng Xanh,',
    ',,,Huyện Đồng Xanh,Trường Tiểu học Tân Lập,',
    ',,,Huyện Đồng Xanh,Trường Tiểu học Suối Ngọc,',
    ',,,Xã Ngọc Sơn,Trường Tiểu học Sao Mai,Tỉnh Đồng Xanh',
  ].join('\n');

const move = (fields: Record<string, string>, file = moveFile()) =>
  server.request('POST', '/api/admin/catalog/move', { token: organiser.token, body: uploadForm('ban-do-moi.csv', file, fields) });

async function download(path: string) {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${organiser.token}` } });
  expect(response.status).toBe(200);
  return readExcelFile(Buffer.from(await response.arrayBuffer()));
}

/** Everything an earlier season shows of its schools: read before the move and again after it. */
async function lastSeasonPages() {
  const report = await server.request('GET', `/api/report-school?season=${oldSeason.id}`, { token: admin.token });
  const family = await server.request('GET', `/api/report-parent?season=${oldSeason.id}`, { token: parent.token });
  const verified = await server.request('GET', `/api/certificates/verify/${certificateCode}`);
  const prizes = await server.request('GET', `/api/admin/results/prizes?kind=individual&per_page=100&season=${oldSeason.id}`, { token: organiser.token });
  const exported = await download(`/api/admin/results/exports/contestants.xlsx?season=${oldSeason.id}`);
  for (const answer of [report, family, verified, prizes]) expect(answer.status).toBe(200);
  return { report: report.body.data, family: family.body.data, verified: verified.body.data, prizes: prizes.body.data, exported: exported[0]!.data };
}

let before: Awaited<ReturnType<typeof lastSeasonPages>>;

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  parent = await createParent(server);
  oldSeason = await server.db.selectFrom('contests').select(['id', 'name', 'exam_starts_at', 'exam_ends_at']).where('is_current', '=', true).executeTakeFirstOrThrow();
  for (const [key, name] of [
    ['leLoi', 'Trường Tiểu học Lê Lợi'],
    ['nguyenTrai', 'Trường Tiểu học Nguyễn Trãi'],
    ['kimDong', 'Trường Tiểu học Kim Đồng'],
    ['huongSon', 'Trường Tiểu học Hương Sơn'],
  ] as const) {
    ids[key] = await schoolId(name);
  }
  admin = await createSchoolAdmin(server, ids.leLoi);
  // Last season: a child at each of three schools, each with a finished exam; results computed.
  const at = new Date(oldSeason.exam_starts_at.getTime() + 3_600_000);
  for (const [position, key] of [
    [1, 'leLoi'],
    [2, 'kimDong'],
    [3, 'huongSon'],
  ] as const) {
    const child = await createContestant(server, parent, { fullname: `Bé ${key}`, position, groupPosition: 1, schoolId: ids[key] });
    children[key] = child.id;
    await insertFinishedExams(server.db, [{ contestantId: child.id, bookId: child.books[0]!.id, attempt: 1, points: 90 - position, durationSeconds: 600, submittedAt: at, prediction: 5 }]);
  }
  const certificates = await server.request('GET', `/api/chilren-certificate?child_id=${children.leLoi}`, { token: parent.token });
  certificateCode = certificates.body.data.certificates[0].code;
  server.clock.set(new Date(oldSeason.exam_ends_at.getTime() + DAY));
  organiser.token = await sessionAt(server.db, organiser.id, server.clock.now());
  parent.token = await sessionAt(server.db, parent.id, server.clock.now());
  admin.token = await sessionAt(server.db, admin.id, server.clock.now());
  expect((await computeResultsTask(server, organiser.token)).status).toBe('done');

  // The switch to the new season (the school administrators kept).
  const group = await server.db.selectFrom('class_groups').select('id').orderBy('position').limit(1).executeTakeFirstOrThrow();
  const opened = await server.request('POST', '/api/admin/seasons', { token: organiser.token, body: nextSeasonBody(oldSeason.exam_ends_at, group.id) });
  expect(opened.status).toBe(200);
  newSeasonId = opened.body.data.id;
  // Last season's pages once it has ended, before the catalogue moves.
  before = await lastSeasonPages();
});

afterAll(() => server?.close());

describe('POST /api/admin/catalog/move', () => {
  it('keeps the ending season’s schools at the switch (a snapshot written by the switch, not by a read)', async () => {
    const kept = await server.db.selectFrom('school_snapshots').select(['school_id', 'name', 'district_name']).where('contest_id', '=', oldSeason.id).execute();
    expect(kept.find((s) => s.school_id === ids.leLoi)).toEqual({ school_id: ids.leLoi, name: 'Trường Tiểu học Lê Lợi', district_name: 'Thành phố An Hoà' });
    expect(await server.db.selectFrom('school_snapshots').select('school_id').where('contest_id', '=', newSeasonId).execute()).toEqual([]);
  });

  it('previews the units created, the schools moved, renamed, merged and closed, with counts, storing nothing', async () => {
    const preview = await move({ dry_run: '1' });
    expect(preview.status).toBe(200);
    const data = preview.body.data;
    expect(data).toMatchObject({ dry_run: true, rows: 13, created: 1, updated: 2, units_created: 3, moved: 2, renamed: 1, merged: 1, closed: 1, to_confirm: 1 });
    expect(data.moves).toEqual([
      { row: 2, school: 'Trường Tiểu học Lê Lợi', from: 'Thành phố An Hoà', to: 'Phường Minh Khai' },
      { row: 3, school: 'Trường Tiểu học Hoà Bình', from: 'Thành phố An Hoà', to: 'Phường Hoà Bình' },
    ]);
    expect(data.renames).toEqual([{ row: 3, from: 'Trường Tiểu học Nguyễn Trãi', to: 'Trường Tiểu học Hoà Bình', unit: 'Phường Hoà Bình' }]);
    expect(data.merges).toEqual([{ row: 4, from: 'Trường Tiểu học Kim Đồng', from_unit: 'Thành phố An Hoà', into: 'Trường Tiểu học Hoà Bình', unit: 'Phường Hoà Bình', contestants: 1 }]);
    expect(data.closures).toEqual([{ school: 'Trường Tiểu học Hương Sơn', unit: 'Huyện Đồng Xanh', contestants: 1 }]);
    expect(data.confirmations).toEqual([{ row: 3, typed: 'Truong Tieu hoc Nguyen Trai (Thanh pho An Hoa)', school: 'Trường Tiểu học Nguyễn Trãi', unit: 'Thành phố An Hoà' }]);
    expect(data.creations).toEqual(
      expect.arrayContaining([
        { kind: 'district', name: 'Phường Minh Khai (Tỉnh cũ: Tỉnh An Hoà)' },
        { kind: 'district', name: 'Xã Ngọc Sơn (Tỉnh cũ: Tỉnh Đồng Xanh)' },
        { kind: 'school', name: 'Trường Tiểu học Sao Mai (Xã Ngọc Sơn)' },
      ]),
    );
    expect(await server.db.selectFrom('districts').select('id').where('name', '=', 'Phường Minh Khai').execute()).toEqual([]);
    expect((await server.db.selectFrom('schools').select('name').where('id', '=', ids.nguyenTrai).executeTakeFirstOrThrow()).name).toBe('Trường Tiểu học Nguyễn Trãi');
  });

  it('refuses the commit while a school matched by a name written otherwise is not confirmed (409, nothing stored)', async () => {
    const refused = await move({ dry_run: '0' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('names_unconfirmed');
    expect(refused.body.message).toContain('Còn 1 trường được khớp theo tên viết khác chưa được xác nhận');
    expect(refused.body.message).toContain('dòng 3: "Truong Tieu hoc Nguyen Trai (Thanh pho An Hoa)" → Trường Tiểu học Nguyễn Trãi');
    // Another row confirmed is not this one.
    expect((await move({ dry_run: '0', confirm_rows: '2,4' })).status).toBe(409);
    expect(await server.db.selectFrom('audit_log').select('id').where('kind', '=', 'catalog.move').execute()).toEqual([]);
  });

  it('refuses a file whose old school is not found or named twice (422, by row)', async () => {
    const bad = [HEADER, ',Trường Không Có,,Phường Minh Khai,Trường A,', `${ids.leLoi},,,Phường Minh Khai,Trường B,`, `${ids.leLoi},,,Phường Minh Khai,Trường C,`].join('\n');
    const refused = await move({ dry_run: '1' }, bad);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((p: { message: string }) => p.message)).toEqual([
      'Dòng 2, cột Tên trường cũ: Không tìm thấy trường cũ "Trường Không Có" trong danh mục (các trường đang mở).',
      'Dòng 4, cột Mã trường: Trường "Trường Tiểu học Lê Lợi" đã có ở dòng 3: mỗi trường cũ chỉ ở một dòng.',
    ]);
  });

  it('commits the confirmed move in one transaction with one audit entry; schools keep their identity', async () => {
    const done = await move({ dry_run: '0', confirm_rows: '3' });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ dry_run: false, moved: 2, renamed: 1, merged: 1, closed: 1, created: 1, units_created: 3 });
    const schools = await server.db.selectFrom('schools').innerJoin('districts', 'districts.id', 'schools.district_id').select(['schools.id', 'schools.name', 'districts.name as unit', 'districts.former_province', 'closed_from_contest_id', 'merged_into_id']).execute();
    const byId = new Map(schools.map((s) => [s.id, s]));
    expect(byId.get(ids.leLoi)).toMatchObject({ name: 'Trường Tiểu học Lê Lợi', unit: 'Phường Minh Khai', former_province: 'Tỉnh An Hoà', closed_from_contest_id: null });
    expect(byId.get(ids.nguyenTrai)).toMatchObject({ name: 'Trường Tiểu học Hoà Bình', unit: 'Phường Hoà Bình', closed_from_contest_id: null });
    expect(byId.get(ids.kimDong)).toMatchObject({ closed_from_contest_id: newSeasonId, merged_into_id: ids.nguyenTrai });
    expect(byId.get(ids.huongSon)).toMatchObject({ closed_from_contest_id: newSeasonId, merged_into_id: null });
    expect(schools.find((s) => s.name === 'Trường Tiểu học Sao Mai')).toMatchObject({ unit: 'Xã Ngọc Sơn', former_province: 'Tỉnh Đồng Xanh' });
    // The school administrator of the moved school is still its administrator.
    expect((await server.db.selectFrom('users').select('school_id').where('id', '=', admin.id).executeTakeFirstOrThrow()).school_id).toBe(ids.leLoi);
    const audit = await server.request('GET', '/api/admin/audit?kind=catalog.move', { token: organiser.token });
    expect(audit.body.data.items).toHaveLength(1);
    expect(audit.body.data.items[0].summary).toBe(
      'Chuyển danh mục sang bản đồ mới từ tệp ban-do-moi.csv: đơn vị mới 3, trường mới 1, chuyển đơn vị 2, đổi tên 1, sáp nhập 1, đóng 1, giữ nguyên 9',
    );
    expect(audit.body.data.items[0].details).toMatchObject({ confirmed: [expect.objectContaining({ row: 3 })], counts: expect.objectContaining({ merged: 1, closed: 1 }) });
    // The same file again changes nothing more (the schools are where the file puts them).
    const again = await move({ dry_run: '1' });
    expect(again.body.data).toMatchObject({ moved: 0, renamed: 0, merged: 0, closed: 0, created: 0, units_created: 0 });
  });

  it('leaves every page of the earlier season as it was: school report, prize list, results export, certificate check, parent’s report', async () => {
    const after = await lastSeasonPages();
    expect(after).toEqual(before);
    expect(before.report.school.name).toBe('Trường Tiểu học Lê Lợi');
    const header = before.exported[0] as string[];
    const rows = before.exported.slice(1).map((row) => Object.fromEntries(header.map((title, i) => [title, row[i]])));
    expect(rows.map((row) => [row['Trường'], row['Quận/Huyện']])).toEqual(
      expect.arrayContaining([
        ['Trường Tiểu học Lê Lợi', 'Thành phố An Hoà'],
        ['Trường Tiểu học Kim Đồng', 'Thành phố An Hoà'],
        ['Trường Tiểu học Hương Sơn', 'Huyện Đồng Xanh'],
      ]),
    );
    expect(JSON.stringify(before.family)).toContain('Trường Tiểu học Kim Đồng');
  });

  it('shows this season the new schools: the carried children told of the move, the merge and the closure', async () => {
    const profile = await server.request('GET', '/api/profile', { token: parent.token });
    const byName = new Map(profile.body.data.childrens.map((c: { fullname: string }) => [c.fullname, c]));
    const leLoi = byName.get('Bé leLoi') as { school_id: number; school_notice: string; class_pending: boolean };
    expect(leLoi).toMatchObject({ school_id: ids.leLoi, class_pending: true });
    expect(leLoi.school_notice).toBe(
      'Theo danh mục mới, trường của bé nay là Trường Tiểu học Lê Lợi (Phường Minh Khai), trước đây là Trường Tiểu học Lê Lợi (Thành phố An Hoà). Vui lòng xác nhận lớp của bé rồi bấm Lưu.',
    );
    expect(byName.get('Bé kimDong')).toMatchObject({ school_id: ids.nguyenTrai, school: { name: 'Trường Tiểu học Hoà Bình' } });
    expect((byName.get('Bé kimDong') as { school_notice: string }).school_notice).toContain('Trường Tiểu học Kim Đồng đã được sáp nhập vào Trường Tiểu học Hoà Bình (Phường Hoà Bình)');
    expect((byName.get('Bé huongSon') as { school_notice: string }).school_notice).toContain('Trường Tiểu học Hương Sơn không còn trong danh mục');
    // Reading the profile wrote nothing.
    expect(await server.db.selectFrom('school_snapshots').select('school_id').where('contest_id', '=', newSeasonId).execute()).toEqual([]);
  });

  it('does not offer a closed school to parents and refuses it for an enrolment of the new season (400)', async () => {
    const huongSon = await server.db.selectFrom('schools').select(['district_id']).where('id', '=', ids.huongSon).executeTakeFirstOrThrow();
    const offered = await server.request('GET', `/api/schools?district_id=${huongSon.district_id}`);
    expect(offered.status).toBe(200);
    const listed = JSON.stringify(offered.body);
    expect(listed).not.toContain('Hương Sơn');
    expect(listed).toContain('Tân Lập');
    const other = await createParent(server);
    other.token = await sessionAt(server.db, other.id, server.clock.now());
    const group = await server.db.selectFrom('class_groups').select('id').orderBy('position').limit(1).executeTakeFirstOrThrow();
    const room = await server.db.selectFrom('class_rooms').select('id').where('class_group_id', '=', group.id).orderBy('position').limit(1).executeTakeFirstOrThrow();
    const saved = await server.request('POST', '/api/customer/profile', {
      token: other.token,
      body: { childrens: [{ fullname: 'Trần Thị Mai', district_id: huongSon.district_id, school_id: ids.huongSon, class_group_id: group.id, class_room_id: room.id, child_consent: true }] },
    });
    expect(saved.status).toBe(400);
    expect(saved.body.code).toBe('invalid_contestant');
    expect(saved.body.message).toBe('Trường này đã đóng từ mùa thi này (theo danh mục mới). Vui lòng chọn trường khác.');
    // The back office still lists it, marked closed from the new season; an open school is not.
    const list = await server.request('GET', '/api/admin/schools?per_page=100', { token: organiser.token });
    const byId = new Map((list.body.data.items as { id: number; closed_from: string | null }[]).map((row) => [row.id, row.closed_from]));
    expect(byId.get(ids.huongSon)).toBe('Mùa thi trên bản đồ mới');
    expect(byId.get(ids.leLoi)).toBeNull();
  });

  it('keeps the former province of each unit, and the exports can group by it', async () => {
    const units = await server.db.selectFrom('districts').select(['name', 'former_province']).where('former_province', '<>', '').orderBy('name').execute();
    expect(units).toEqual([
      { name: 'Phường Hoà Bình', former_province: 'Tỉnh An Hoà' },
      { name: 'Phường Minh Khai', former_province: 'Tỉnh An Hoà' },
      { name: 'Xã Ngọc Sơn', former_province: 'Tỉnh Đồng Xanh' },
    ]);
    // The exam-day dashboard adds the units up by former province: this season's children of Tỉnh An Hoà's wards.
    const ofAnHoa = await server.db
      .selectFrom('contestants')
      .innerJoin('districts', 'districts.id', 'contestants.district_id')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('contestants.contest_id', '=', newSeasonId)
      .where('districts.former_province', '=', 'Tỉnh An Hoà')
      .executeTakeFirstOrThrow();
    expect(Number(ofAnHoa.n)).toBeGreaterThanOrEqual(2);
    const dashboard = await server.request('GET', '/api/admin/exam-days/dashboard', { token: organiser.token });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.data.former_provinces).toEqual([expect.objectContaining({ name: 'Tỉnh An Hoà', contestants: Number(ofAnHoa.n) })]);
    const byProvince = await server.request('GET', '/api/admin/districts?per_page=100', { token: organiser.token });
    expect(byProvince.body.data.items.find((d: { name: string }) => d.name === 'Xã Ngọc Sơn')).toMatchObject({ former_province: 'Tỉnh Đồng Xanh' });
    // The current catalogue, in the move's template, names each open school with its code and former province.
    const current = (await download('/api/admin/catalog/move.xlsx'))[0]!.data;
    expect(current[0]).toEqual(['Mã trường', 'Tên trường cũ', 'Quận/Huyện cũ', 'Quận/Huyện', 'Trường', 'Tỉnh cũ']);
    expect(current).toContainEqual([String(ids.leLoi), 'Trường Tiểu học Lê Lợi', 'Phường Minh Khai', 'Phường Minh Khai', 'Trường Tiểu học Lê Lợi', 'Tỉnh An Hoà']);
    expect(current.some((row) => row[1] === 'Trường Tiểu học Hương Sơn')).toBe(false);
  });

  it('is the organiser’s only', async () => {
    const refused = await server.request('POST', '/api/admin/catalog/move', { token: parent.token, body: uploadForm('a.csv', moveFile(), { dry_run: '1' }) });
    expect(refused.status).toBe(403);
  });
});
