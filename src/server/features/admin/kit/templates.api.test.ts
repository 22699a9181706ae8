// The import templates as the organiser gets them (GET /api/admin/templates/{kind}.xlsx): read by
// an independent reader (read-excel-file), a named first sheet with the template's columns and a
// typed example row, a frozen header, a "Hướng dẫn" sheet describing every column; and each
// template, sent back as it is, accepted by its own import.
import { unzipSync, strFromU8 } from 'fflate';
import readExcelFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateColumns, templateKinds, type TemplateKind } from '../../../../shared/schemas/admin';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createEveryRole, createOrganiser, uploadForm, type CreatedUser } from '../../../test/factories';

let server: TestServer;
let organiser: CreatedUser;

beforeAll(async () => {
  server = await startTestServer();
  ({ organiser } = await createEveryRole(server));
});
afterAll(() => server.close());

async function download(kind: TemplateKind): Promise<Buffer> {
  const response = await fetch(`${server.url}/api/admin/templates/${kind}.xlsx`, { headers: { authorization: `Bearer ${organiser.token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('spreadsheetml');
  expect(response.headers.get('content-disposition')).toBe(`attachment; filename="mau-${kind}.xlsx"`);
  return Buffer.from(await response.arrayBuffer());
}

const sheetNames: Record<TemplateKind, string> = {
  questions: 'Mẫu nhập câu hỏi',
  schools: 'Mẫu nhập trường',
  'class-teachers': 'Mẫu nhập giáo viên',
  'school-admins': 'Mẫu nhập quản trị trường',
  'class-rooms': 'Mẫu nhập lớp',
  'catalog-move': 'Mẫu chuyển danh mục',
  viewers: 'Mẫu nhập tài khoản xem',
};

describe('GET /api/admin/templates/{kind}.xlsx', () => {
  it.each(templateKinds)('%s: a named sheet with the columns and an example, then a guide to every column', async (kind) => {
    const bytes = await download(kind);
    const sheets = await readExcelFile(bytes);
    expect(sheets.map((sheet) => sheet.sheet)).toEqual([sheetNames[kind], 'Hướng dẫn']);
    const [template, guide] = sheets as [(typeof sheets)[0], (typeof sheets)[0]];
    expect(template.data[0]).toEqual(templateColumns[kind]);
    expect(template.data).toHaveLength(2);
    expect(template.data[1]!.every((cell) => cell !== null && cell !== '')).toBe(true);

    expect(guide.data[0]).toEqual(['Cột', 'Bắt buộc', 'Ví dụ', 'Nội dung', 'Giá trị được chấp nhận']);
    const described = guide.data.slice(1, 1 + templateColumns[kind].length);
    expect(described.map((row) => row[0])).toEqual(templateColumns[kind]);
    for (const [title, required, example, content, allowed] of described) {
      expect(['Có', 'Không'], String(title)).toContain(required);
      expect(String(example)).toBe(String(template.data[1]![templateColumns[kind].indexOf(String(title))]));
      expect(String(content).length, String(title)).toBeGreaterThan(5);
      expect(String(allowed).length, String(title)).toBeGreaterThan(5);
    }
    // Then what holds for the whole file.
    const notes = guide.data.slice(1 + templateColumns[kind].length);
    expect(notes.length).toBeGreaterThan(2);
    expect(notes.every((row) => row[0] === 'Cả tệp' && typeof row[3] === 'string')).toBe(true);

    // The header row of both sheets stays in view (a frozen pane).
    const files = unzipSync(new Uint8Array(bytes));
    for (const sheet of ['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml']) expect(strFromU8(files[sheet]!)).toContain('state="frozen"');
  });

  it('writes cells with their types: a pupil count is a number, a phone number is text', async () => {
    const [schools] = await readExcelFile(await download('schools'));
    expect(schools!.data[1]).toEqual(['Thành phố An Hoà', 'Trường Tiểu học Kim Đồng', 'Số 2 phố Kim Đồng, phường Quang Trung, thành phố An Hoà', 1430]);
    const [admins] = await readExcelFile(await download('school-admins'));
    expect(admins!.data[1]![0]).toBe('0912345678');
    const guide = (await readExcelFile(await download('schools')))[1]!;
    expect(guide.data.find((row) => row[0] === 'Số học sinh')).toEqual(['Số học sinh', 'Có', '1430', 'Số học sinh của trường.', 'Số nguyên từ 0 đến 100.000 (1430, 1.430 hoặc 1,430 đều được).']);
    expect(guide.data.find((row) => row[0] === 'Địa chỉ')![1]).toBe('Không');
  });

  it('answers 400 for an unknown template', async () => {
    expect((await server.request('GET', '/api/admin/templates/other.xlsx', { token: organiser.token })).status).toBe(400);
  });
});

describe('a template sent back as it is', () => {
  const send = async (path: string, kind: TemplateKind, fields: Record<string, string>) =>
    server.request('POST', path, { token: organiser.token, body: uploadForm(`mau-${kind}.xlsx`, await download(kind), fields) });

  it('is accepted by its import: the school and the class stored, then the teacher, the school administrator and the question checked', async () => {
    const schools = await send('/api/admin/schools/import', 'schools', {});
    expect(schools.status).toBe(200);
    // The demo catalogue may have that school already: added, updated or left, it is one school.
    expect(schools.body.data).toMatchObject({ rows: 1, dry_run: false });
    expect(schools.body.data.created + schools.body.data.updated + schools.body.data.unchanged).toBe(1);
    const school = await server.db.selectFrom('schools').select(['name', 'pupil_count']).where('name', '=', 'Trường Tiểu học Kim Đồng').executeTakeFirstOrThrow();
    expect(school.pupil_count).toBe(1430);

    // The class of the example, in the class group of the example (one of the demo's).
    const rooms = await send('/api/admin/class-rooms/import', 'class-rooms', {});
    expect(rooms.status, JSON.stringify(rooms.body)).toBe(200);
    expect(rooms.body.data).toMatchObject({ created: 1, dry_run: false });

    // The other examples name that school and that class.
    const teachers = await send('/api/admin/class-teachers/import', 'class-teachers', { dry_run: '1' });
    expect(teachers.status, JSON.stringify(teachers.body)).toBe(200);
    expect(teachers.body.data).toMatchObject({ created: 1, dry_run: true });
    const admins = await send('/api/admin/school-admins/import', 'school-admins', { dry_run: '1' });
    expect(admins.status, JSON.stringify(admins.body)).toBe(200);
    expect(admins.body.data).toMatchObject({ created: 1, dry_run: true });

    const book = await server.db.selectFrom('books').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
    const questions = await send(`/api/admin/books/${book.id}/questions/import`, 'questions', { dry_run: '1' });
    expect(questions.status, JSON.stringify(questions.body)).toBe(200);
    expect(questions.body.data).toMatchObject({ created: 1, dry_run: true, questions: [{ value: 'Nhân vật chính của truyện tên là gì?', answers: ['Dế Mèn', 'Dế Trũi', 'Chị Cốc', 'Xiến Tóc'], correct: 0 }] });
  });
});

// Issue 42: every template imports as it is downloaded, each one stored for real, in a catalogue
// whose class groups are named the organiser's way (the class-rooms example is the catalogue's group).
describe('every template, downloaded and imported unchanged', () => {
  let own: TestServer;
  let token: string;
  const ownGroups = ['Nhóm Búp Măng', 'Nhóm Hoa Phượng', 'Nhóm Sao Mai'];

  beforeAll(async () => {
    own = await startTestServer();
    ({ token } = await createOrganiser(own));
    for (const [i, name] of ownGroups.entries()) await own.db.updateTable('class_groups').set({ name }).where('position', '=', i + 1).execute();
  });
  afterAll(() => own.close());

  const importTemplate = async (kind: TemplateKind, path: string) => {
    const response = await fetch(`${own.url}/api/admin/templates/${kind}.xlsx`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    const answer = await own.request('POST', path, { token, body: uploadForm(`mau-${kind}.xlsx`, bytes) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({ rows: 1, dry_run: false });
    return { data: answer.body.data, sheets: await readExcelFile(bytes) };
  };

  it('schools: the example school stored with its pupil count', async () => {
    const { data } = await importTemplate('schools', '/api/admin/schools/import');
    expect(data.created + data.updated + data.unchanged).toBe(1);
    expect((await own.db.selectFrom('schools').select('pupil_count').where('name', '=', 'Trường Tiểu học Kim Đồng').executeTakeFirstOrThrow()).pupil_count).toBe(1430);
  });

  it("class-rooms: the example names the catalogue's own group of grade 3, and its class is stored there", async () => {
    const { data, sheets } = await importTemplate('class-rooms', '/api/admin/class-rooms/import');
    expect(sheets[0]!.data[1]).toEqual(['Nhóm Hoa Phượng', '3A']);
    expect(data).toMatchObject({ created: 1 });
    const room = await own.db
      .selectFrom('class_rooms')
      .innerJoin('class_groups', 'class_groups.id', 'class_rooms.class_group_id')
      .select('class_groups.name')
      .where('class_rooms.name', '=', '3A')
      .executeTakeFirstOrThrow();
    expect(room.name).toBe('Nhóm Hoa Phượng');
  });

  it("class-teachers: the example's teacher stored for that school and class", async () => {
    expect((await importTemplate('class-teachers', '/api/admin/class-teachers/import')).data).toMatchObject({ created: 1 });
    const teacher = await own.db.selectFrom('class_teachers').select(['class_name', 'teacher_name']).where('teacher_name', '=', 'Nguyễn Thị Lan').executeTakeFirstOrThrow();
    expect(teacher.class_name).toBe('3A');
  });

  it("school-admins: the example's administrator stored for that school", async () => {
    expect((await importTemplate('school-admins', '/api/admin/school-admins/import')).data).toMatchObject({ created: 1 });
    const admin = await own.db.selectFrom('users').select(['role', 'name']).where('phone', '=', '0912345678').executeTakeFirstOrThrow();
    expect(admin).toEqual({ role: 'school_admin', name: 'Trần Văn Bình' });
  });

  it("questions: the example question added to the book's bank", async () => {
    const book = await own.db.selectFrom('books').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
    expect((await importTemplate('questions', `/api/admin/books/${book.id}/questions/import`)).data).toMatchObject({ created: 1 });
    await own.db.selectFrom('questions').select('id').where('book_id', '=', book.id).where('value', '=', 'Nhân vật chính của truyện tên là gì?').executeTakeFirstOrThrow();
  });

  it('class-rooms: a group named by the grades it covers, as the book covers print them ("Lớp 3-4", "3 - 4"), is that group', async () => {
    const csv = 'Nhóm lớp,Lớp\nLớp 3-4,3Q1\n3 - 4,4Q1\nKhối 1-2,2Q1\nLớp 1-4,1Q1\n';
    const answer = await own.request('POST', '/api/admin/class-rooms/import', { token, body: uploadForm('lop.csv', csv, { dry_run: '1' }) });
    expect(answer.status).toBe(422);
    // Only the range no group covers is refused.
    expect(answer.body.errors).toEqual([expect.objectContaining({ row: 5, column: 'Nhóm lớp' })]);
    const fixed = await own.request('POST', '/api/admin/class-rooms/import', { token, body: uploadForm('lop.csv', csv.replace('Lớp 1-4,1Q1\n', ''), { dry_run: '1' }) });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.data.creations.map((c: { name: string }) => c.name)).toEqual(['3Q1 (Nhóm Hoa Phượng)', '4Q1 (Nhóm Hoa Phượng)', '2Q1 (Nhóm Búp Măng)']);
  });
});
