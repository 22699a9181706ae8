// GET /api/admin/templates/{kind}.xlsx: each import's template, a header row and one example row.
// Cells are written as text, so an example (or anything else) starting with "=" is never a formula.
import writeExcelFile from 'write-excel-file/node';
import { templateColumns, type TemplateKind } from '../../../shared/schemas/admin';

const examples: Record<TemplateKind, string[]> = {
  questions: ['Nhân vật chính của truyện tên là gì?', 'Dế Mèn', 'Dế Trũi', 'Chị Cốc', 'Xiến Tóc', 'A'],
  schools: ['Thành phố An Hoà', 'Trường Tiểu học Kim Đồng', 'Số 2 phố Kim Đồng, phường Quang Trung, thành phố An Hoà', '1430'],
  'class-teachers': ['Thành phố An Hoà', 'Trường Tiểu học Kim Đồng', '3A', 'Nguyễn Thị Lan'],
  'school-admins': ['0912345678', 'Trần Văn Bình', 'Thành phố An Hoà', 'Trường Tiểu học Kim Đồng'],
  'class-rooms': ['Lớp 3-4', '3C'],
};

export async function templateXlsx(kind: TemplateKind): Promise<Buffer> {
  const columns = templateColumns[kind];
  const data = [
    columns.map((value) => ({ value, fontWeight: 'bold' as const, type: String })),
    examples[kind].map((value) => ({ value, type: String })),
  ];
  const buffer = await writeExcelFile(data, { columns: columns.map((title) => ({ width: Math.max(14, title.length + 4) })) }).toBuffer();
  return Buffer.from(buffer);
}
