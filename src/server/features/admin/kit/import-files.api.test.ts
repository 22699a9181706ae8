// Issue 23, items 9, 11 and 12: an office worker's own spreadsheet (columns in another order,
// common titles), the full list of a file's errors as an .xlsx beside its rows, and the import of
// classes with one rule for class names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { importMessages, templateColumns } from '../../../../shared/schemas/admin';
import { readFirstSheet } from '../../../lib/xlsx-reader';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createOrganiser, uploadForm, type CreatedUser } from '../../../test/factories';

let server: TestServer;
let organiser: CreatedUser;

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
});
afterAll(() => server?.close());

async function xlsx(columns: readonly string[], rows: (string | number)[][]): Promise<Buffer> {
  const data = [columns.map((value) => ({ value })), ...rows.map((row) => row.map((value) => ({ value, type: typeof value === 'number' ? Number : String })))];
  return Buffer.from(await writeExcelFile(data as never).toBuffer());
}
const importFile = (path: string, file: Buffer | string, name = 'tep.xlsx', fields: Record<string, string> = {}) =>
  server.request('POST', `/api/admin${path}`, { token: organiser.token, body: uploadForm(name, file, fields) });

/** The full list of errors as the organiser downloads it: the workbook's rows as text. */
async function errorsFile(path: string, file: Buffer | string, name = 'tep.xlsx', fields: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/admin${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${organiser.token}` },
    body: uploadForm(name, file, { ...fields, errors: 'xlsx' }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('spreadsheetml');
  const rows: string[][] = [];
  for await (const { values } of readFirstSheet(Buffer.from(await response.arrayBuffer()))) rows.push(Array.from(values, (v) => (v === null || v === undefined ? '' : String(v))));
  return rows;
}

const count = async (table: 'schools' | 'class_rooms' | 'class_teachers') =>
  Number((await server.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('headers: any order, common titles, unknown columns named', () => {
  it('imports schools whose columns are in another order under other titles', async () => {
    const file = await xlsx(['Số HS', 'Tên trường', 'quan/huyen', 'Địa chỉ trường'], [[320, 'Trường Tiểu học Cột Đảo', 'Huyện Cột Đảo', 'Thôn 1']]);
    const stored = await importFile('/schools/import', file);
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({ created: 1, districts_created: 1 });
    const school = await server.db.selectFrom('schools').select(['name', 'address', 'pupil_count']).where('name', '=', 'Trường Tiểu học Cột Đảo').executeTakeFirstOrThrow();
    expect(school).toEqual({ name: 'Trường Tiểu học Cột Đảo', address: 'Thôn 1', pupil_count: 320 });
  });

  it('takes "Giáo viên chủ nhiệm" for "Giáo viên" and refuses an unknown column by its name, and a repeated one', async () => {
    const teacherRow = ['Nguyễn Thị Mai', '3A1', 'Trường Tiểu học Lê Lợi', 'Thành phố An Hoà'];
    const ok = await importFile('/class-teachers/import', await xlsx(['Giáo viên chủ nhiệm', 'Lớp', 'Trường', 'Quận/Huyện'], [teacherRow]), 'gv.xlsx', { dry_run: '1' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.rows).toBe(1);

    const unknown = await importFile('/class-teachers/import', await xlsx(['Giáo viên chủ nhiệm', 'Lớp', 'Trường', 'Quận/Huyện', 'Ghi chú'], [[...teacherRow, 'x']]));
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe(importMessages.wrongColumns(templateColumns['class-teachers']));
    expect(unknown.body.errors).toEqual([{ row: 1, column: 'Ghi chú', message: importMessages.unknownColumn('Ghi chú', templateColumns['class-teachers']) }]);

    const twice = await importFile('/class-teachers/import', await xlsx(['Giáo viên', 'GVCN', 'Lớp', 'Trường', 'Quận/Huyện'], [['A', ...teacherRow]]));
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual([{ row: 1, column: 'GVCN', message: importMessages.repeatedColumn('GVCN', 'Giáo viên') }]);
  });

  it('takes "SĐT" and "Họ tên" for the school administrators, in another order', async () => {
    const file = await xlsx(['Trường', 'Quận/Huyện', 'Họ tên', 'SĐT'], [['Trường Tiểu học Lê Lợi', 'Thành phố An Hoà', 'Phạm Văn Cột', '0912888777']]);
    const preview = await importFile('/school-admins/import', file, 'qt.xlsx', { dry_run: '1' });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ created: 1, rows: 1 });
  });
});

describe('the full list of errors', () => {
  it('says how many more problems there are, and gives every one of them beside its row in an .xlsx', async () => {
    // 260 rows, each with two problems (no school name, a pupil count that is not a number): 520.
    const rows = Array.from({ length: 260 }, (_, i) => ['Quận Lỗi', '', `Số ${i}`, `nhiều${i}`]);
    const before = await count('schools');
    const refused = await importFile('/schools/import', await xlsx(templateColumns.schools, rows), 'truong.xlsx', { dry_run: '1' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toHaveLength(200);
    expect(refused.body.errors_total).toBe(520);
    expect(refused.body.message).toContain('còn 320 lỗi khác');

    const sheet = await errorsFile('/schools/import', await xlsx(templateColumns.schools, rows), 'truong.xlsx');
    expect(sheet[0]).toEqual(['Dòng', ...templateColumns.schools, 'Lỗi']);
    expect(sheet).toHaveLength(1 + 260);
    expect(sheet[1]).toEqual(['2', 'Quận Lỗi', '', 'Số 0', 'nhiều0', 'Cột Trường: không được để trống\nCột Số học sinh: phải là số nguyên từ 0 đến 100.000 (đang là "nhiều0")']);
    expect(sheet[260]![0]).toBe('261');
    expect(await count('schools')).toBe(before);
  });

  it('lists the problems found against the catalogue too, and a question file\'s rows in the template\'s order', async () => {
    const teachers = await errorsFile(
      '/class-teachers/import',
      await xlsx(templateColumns['class-teachers'], [
        ['Thành phố An Hoà', 'Trường Tiểu học Lê Lợi', '3A1', 'Cô Hà'],
        ['Quận Không Có', 'Trường X', '9Z', 'Thầy Nam'],
      ]),
    );
    expect(teachers).toEqual([
      ['Dòng', ...templateColumns['class-teachers'], 'Lỗi'],
      ['3', 'Quận Không Có', 'Trường X', '9Z', 'Thầy Nam', 'Cột Quận/Huyện: không có quận/huyện "Quận Không Có" trong danh mục\nCột Lớp: không có lớp "9Z" trong danh mục lớp'],
    ]);

    const book = await server.db.selectFrom('books').select('id').orderBy('id').executeTakeFirstOrThrow();
    const questions = await errorsFile(
      `/books/${book.id}/questions/import`,
      await xlsx(['Đáp án đúng', 'Câu hỏi', 'Đáp án A', 'Đáp án B'], [
        ['A', 'Câu đúng?', 'Có', 'Không'],
        ['C', 'Câu sai?', 'Có', 'Không'],
      ]),
      'cau-hoi.xlsx',
    );
    expect(questions).toEqual([
      ['Dòng', ...templateColumns.questions, 'Lỗi'],
      ['3', 'Câu sai?', 'Có', 'Không', '', '', 'C', 'Cột Đáp án đúng: phải là A hoặc B (một đáp án đã điền)'],
    ]);

    // A text file has no cells: its line and its problems.
    const gift = await errorsFile(`/books/${book.id}/questions/import`, 'Câu một? {=A ~A}\n\nCâu hai? {=Có ~Không}\n\nCâu ba? {~x ~y}', 'gift.txt');
    expect(gift).toEqual([
      ['Dòng', 'Lỗi'],
      ['1', 'Cột GIFT: trùng với đáp án A'],
      ['5', 'Cột GIFT: câu hỏi không có đáp án đúng (bắt đầu bằng "=")'],
    ]);
  });
});

describe('POST /api/admin/class-rooms/import', () => {
  const file = (rows: string[][]) => xlsx(templateColumns['class-rooms'], rows);

  it('previews then adds classes under one spelling (" 3c " is "3C"), by group name or grade, and the same file twice changes nothing', async () => {
    const rows = [
      ['Nhóm 2', ' 3c '],
      ['3', 'Lớp 3d'],
      ['Khối 5', '5b'],
      ['Nhóm 1', '1a1'], // already in the catalogue as "1A1"
    ];
    const before = await count('class_rooms');
    const preview = await importFile('/class-rooms/import', await file(rows), 'lop.xlsx', { dry_run: '1' });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ created: 3, updated: 0, unchanged: 1, creations_total: 3 });
    expect(preview.body.data.creations).toEqual([
      { kind: 'class', name: '3C (Nhóm 2)' },
      { kind: 'class', name: '3D (Nhóm 2)' },
      { kind: 'class', name: '5B (Nhóm 3)' },
    ]);
    expect(await count('class_rooms')).toBe(before);

    const stored = await importFile('/class-rooms/import', await file(rows), 'lop.xlsx');
    expect(stored.status).toBe(200);
    expect(await count('class_rooms')).toBe(before + 3);
    const added = await server.db
      .selectFrom('class_rooms')
      .innerJoin('class_groups', 'class_groups.id', 'class_rooms.class_group_id')
      .select(['class_rooms.name', 'class_groups.name as group'])
      .where('class_rooms.name', 'in', ['3C', '3D', '5B'])
      .orderBy('class_rooms.name')
      .execute();
    expect(added).toEqual([
      { name: '3C', group: 'Nhóm 2' },
      { name: '3D', group: 'Nhóm 2' },
      { name: '5B', group: 'Nhóm 3' },
    ]);
    const audit = await server.db.selectFrom('audit_log').select(['kind', 'summary']).where('kind', '=', 'class_rooms.import').execute();
    expect(audit).toEqual([{ kind: 'class_rooms.import', summary: 'Nhập lớp từ tệp lop.xlsx: thêm 3, giữ nguyên 1' }]);

    const again = await importFile('/class-rooms/import', await file(rows), 'lop.xlsx');
    expect(again.body.data).toMatchObject({ created: 0, unchanged: 4 });
    expect(await count('class_rooms')).toBe(before + 3);
  });

  it('refuses an unknown group, a class of another group, a repeated class and an empty name, row by row', async () => {
    const refused = await importFile(
      '/class-rooms/import',
      await file([
        ['Nhóm 9', '9A'],
        ['Nhóm 3', '1A2'],
        ['Nhóm 2', '4x'],
        ['Nhóm 2', ' 4 X'],
        ['Nhóm 2', ''],
      ]),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { row: number; column: string; message: string }) => [e.row, e.column, e.message])).toEqual([
      [2, 'Nhóm lớp', 'Dòng 2, cột Nhóm lớp: không có nhóm lớp "Nhóm 9" (hãy ghi tên nhóm lớp, ví dụ "Nhóm 1", hoặc khối lớp, ví dụ "3")'],
      [3, 'Lớp', 'Dòng 3, cột Lớp: lớp "1A2" đã có trong Nhóm 1'],
      [5, 'Lớp', 'Dòng 5, cột Lớp: trùng với dòng 4'],
      [6, 'Lớp', 'Dòng 6, cột Lớp: không được để trống'],
    ]);
  });

  it('names a class added in the dialog by the same rule', async () => {
    const group = await server.db.selectFrom('class_groups').select('id').where('name', '=', 'Nhóm 3').executeTakeFirstOrThrow();
    const created = await server.request('POST', '/api/admin/class-rooms', { token: organiser.token, body: { class_group_id: group.id, name: ' lớp 5 e ', position: 50 } });
    expect(created.status).toBe(200);
    expect(created.body.data.name).toBe('5E');
  });
});
