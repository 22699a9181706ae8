// Issue 36.1: the level under the province is a setting of each season. The specification's
// districts by default (its texts exactly), or communes and wards; the API keeps its names
// (district_id, /api/districts) and says the level; the parents' form's refusals, the templates and
// the exports say the season's unit, an export of an earlier season its own; the schools import
// takes the usual titles of either level.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import readExcelFile from 'read-excel-file/node';
import writeExcelFile from 'write-excel-file/node';
import { startTestServer, type TestServer } from '../../../test/harness';
import { computeResultsTask, createOrganiser, createParent, uploadForm, type CreatedUser } from '../../../test/factories';
import { bookForClassRoom, insertFinishedExams, insertPupils } from '../../../demo/finished-exams';

let server: TestServer;
let organiser: CreatedUser;

const setLevel = (value: unknown) => server.request('PUT', '/api/admin/contest', { token: organiser.token, body: { unit_level: value } });

async function xlsxFile(path: string) {
  const response = await fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${organiser.token}` } });
  expect(response.status).toBe(200);
  return readExcelFile(Buffer.from(await response.arrayBuffer()));
}

async function schoolsFile(unitTitle: string, unit: string, school: string): Promise<Buffer> {
  const rows = [['Số HS', 'Tên trường', unitTitle, 'Địa chỉ'], [250, school, unit, 'Thôn 2']];
  const data = rows.map((row) => row.map((value) => ({ value, type: typeof value === 'number' ? Number : String })));
  return Buffer.from(await writeExcelFile(data as never).toBuffer());
}

/** A parent's contestant with no unit chosen: the schema's 400. */
async function missingUnit() {
  const parent = await createParent(server);
  const answer = await server.request('POST', '/api/customer/profile', {
    token: parent.token,
    body: { childrens: [{ fullname: 'Lê Văn Tí', district_id: '', school_id: '', class_group_id: '', class_room_id: '', child_consent: true }] },
  });
  expect(answer.status).toBe(400);
  return answer.body;
}

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
});
afterAll(() => server?.close());

describe('the season’s unit level', () => {
  it('is districts by default, in the settings, the site, the districts answer and the parents’ refusals', async () => {
    const settings = await server.request('GET', '/api/admin/contest', { token: organiser.token });
    expect(settings.body.data.unit_level).toBe('district');
    const site = await server.request('GET', '/api/site');
    expect(site.body.data.contest).toMatchObject({ unit_level: 'district', unit_label: 'Quận/Huyện' });
    const districts = await server.request('GET', '/api/districts');
    expect(districts.body).toMatchObject({ success: true, unit_level: 'district', unit_label: 'Quận/Huyện' });
    expect(districts.body.data.length).toBeGreaterThan(0);
    const refused = await missingUnit();
    expect(refused.errors['childrens.0.district_id']).toBe('Huyện là bắt buộc.');
  });

  it('refuses any other value with the stable error shape, changing nothing', async () => {
    for (const value of ['ward', '', null, 2]) {
      const refused = await setLevel(value);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ success: false, code: 'invalid_input', errors: { unit_level: 'Hãy chọn Quận/Huyện hoặc Xã/Phường.' } });
    }
    expect((await server.request('GET', '/api/admin/contest', { token: organiser.token })).body.data.unit_level).toBe('district');
  });

  it('set to communes: saved and audited, said by the site and the districts answer, the refusals in its words', async () => {
    const saved = await setLevel('commune');
    expect(saved.status).toBe(200);
    expect(saved.body.data.unit_level).toBe('commune');
    const audit = await server.db.selectFrom('audit_log').select(['kind', 'summary']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit).toEqual({ kind: 'contest.update', summary: 'Sửa cài đặt cuộc thi: cấp hành chính dưới tỉnh' });

    expect((await server.request('GET', '/api/site')).body.data.contest).toMatchObject({ unit_level: 'commune', unit_label: 'Xã/Phường' });
    // The API's names stay the specification's.
    const districts = await server.request('GET', '/api/districts');
    expect(districts.body).toMatchObject({ unit_level: 'commune', unit_label: 'Xã/Phường' });
    expect(Object.keys(districts.body.data[0])).toEqual(['id', 'name']);

    const refused = await missingUnit();
    expect(refused.errors['childrens.0.district_id']).toBe('Xã/Phường là bắt buộc.');
    expect(refused.errors['childrens.0.school_id']).toBe('Trường học là bắt buộc.');
    // A back-office refusal too: a school with no unit chosen.
    const school = await server.request('POST', '/api/admin/schools', { token: organiser.token, body: { district_id: '', name: 'Trường X', address: '', pupil_count: '10' } });
    expect(school.status).toBe(400);
    expect(school.body.errors.district_id).toBe('Vui lòng chọn xã/phường.');
  });

  it('names the schools template’s unit column and example in the season’s words', async () => {
    const [sheet, guide] = await xlsxFile('/admin/templates/schools.xlsx');
    expect(sheet!.data[0]).toEqual(['Xã/Phường', 'Trường', 'Địa chỉ', 'Số học sinh']);
    expect(sheet!.data[1]![0]).toBe('Phường An Hoà');
    expect(guide!.data[1]).toEqual(expect.arrayContaining(['Xã/Phường', 'Xã/phường của trường.']));
    expect(JSON.stringify(guide!.data)).not.toMatch(/quận|huyện/i);
  });
});

describe('the schools import', () => {
  it.each([
    ['Xã/Phường', 'Phường Hoà Bình'],
    ['Phường/Xã', 'Phường Tân An'],
    ['Xã', 'Xã Đức Thịnh'],
    ['phường', 'Phường Bến Thủy'],
    ['Đơn vị hành chính cấp xã', 'Xã Nghi Lộc'],
    ['XA/PHUONG', 'Xã Hưng Nguyên'],
    ['Quận/Huyện', 'Huyện Cũ'],
  ])('takes "%s" for the unit column', async (title, unit) => {
    const school = `Trường Tiểu học ${unit}`;
    const stored = await server.request('POST', '/api/admin/schools/import', { token: organiser.token, body: uploadForm('truong.xlsx', await schoolsFile(title, unit, school)) });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    expect(stored.body.data).toMatchObject({ created: 1, districts_created: 1 });
    const row = await server.db
      .selectFrom('schools')
      .innerJoin('districts', 'districts.id', 'schools.district_id')
      .select(['districts.name as unit', 'schools.pupil_count'])
      .where('schools.name', '=', school)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ unit, pupil_count: 250 });
  });

  it('says a missing unit cell in the season’s words', async () => {
    const refused = await server.request('POST', '/api/admin/schools/import', { token: organiser.token, body: uploadForm('truong.xlsx', await schoolsFile('Xã/Phường', '', 'Trường Tiểu học Không Xã')) });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).not.toMatch(/quận|huyện/i);
    expect(refused.body.errors[0]).toMatchObject({ row: 2, column: 'Xã/Phường' });
  });
});

describe('the results exports', () => {
  it('name the unit as the season they describe does, an earlier season its own', async () => {
    const school = await server.db.selectFrom('schools').select('id').where('name', '=', 'Trường Tiểu học Lê Lợi').executeTakeFirstOrThrow();
    const pupils = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 3, fullname: (i) => `Học Sinh ${i + 1}` });
    const book = (await bookForClassRoom(server.db, '5A1')).id;
    const start = (await server.db.selectFrom('contests').select('exam_starts_at').where('is_current', '=', true).executeTakeFirstOrThrow()).exam_starts_at;
    await insertFinishedExams(
      server.db,
      pupils.map((pupil, i) => ({ contestantId: pupil.id, bookId: book, attempt: 1, points: 90 - i, durationSeconds: 500, submittedAt: new Date(start.getTime() + 3_600_000 + i * 1000), prediction: 3 })),
    );
    await computeResultsTask(server, organiser.token, true);

    const commune = await xlsxFile('/admin/results/exports/contestants.xlsx');
    expect(commune[0]!.data[0]![3]).toBe('Xã/Phường');
    const winners = await xlsxFile('/admin/results/exports/winners.xlsx');
    expect(winners.map((sheet) => sheet.sheet)).toContain('Theo xã, phường');
    expect(winners.find((sheet) => sheet.sheet === 'Theo trường')!.data[0]![0]).toBe('Xã/Phường');

    // A new season on the specification's districts: the earlier season's export keeps communes.
    const earlier = await server.db.selectFrom('contests').selectAll().where('is_current', '=', true).executeTakeFirstOrThrow();
    const { id: _id, ...values } = earlier;
    await server.db.updateTable('contests').set({ is_current: false }).where('id', '=', earlier.id).execute();
    await server.db.insertInto('contests').values({ ...values, name: `${earlier.name} (mùa sau)`, is_current: true, unit_level: 'district' }).execute();
    const [template] = await xlsxFile('/admin/templates/schools.xlsx');
    expect(template!.data[0]![0]).toBe('Quận/Huyện');
    const kept = await xlsxFile(`/admin/results/exports/contestants.xlsx?season=${earlier.id}`);
    expect(kept[0]!.data[0]![3]).toBe('Xã/Phường');
  });
});
