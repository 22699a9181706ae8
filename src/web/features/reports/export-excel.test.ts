// The workbook of 'Xuất excel', written and read back (Node builds of the same libraries).
import { describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import readExcelFile from 'read-excel-file/node';
import type { ReportSchoolResponse } from '../../../shared/schemas/reports';
import { buildReportSheets } from './export-excel';

const data: ReportSchoolResponse['data'] = {
  school: { name: 'Trường Tiểu học Lê Lợi', address: 'Số 5' },
  contest: { name: 'Cuộc thi' },
  total_register: 3,
  total_done: 2,
  quantity_students: [
    { class: '2A1', total_register: 1, total_done: 1 },
    { class: '5A1', total_register: 2, total_done: 1 },
  ],
  score: [
    { rank: 1, tied: false, fullname: 'Hoàng Tiến Dũng', class: '5A1', count_exam: 2, points: 95, duration: '11 phút 40 giây', duration_seconds: 700, book: 'Sự tích Hồ Gươm', prediction: 1234 },
    { rank: 2, tied: false, fullname: 'Vũ Ngọc Ánh', class: '2A1', count_exam: 1, points: 90, duration: '8 phút 20 giây', duration_seconds: 500, book: 'Tấm Cám', prediction: null },
  ],
  class: [
    { class: '2A1', total_register: 1, total_done: 1, avg_score: 90, avg_duration_format: '8 phút 20 giây', avg_duration_seconds: 500 },
    { class: '5A1', total_register: 2, total_done: 1, avg_score: 92.5, avg_duration_format: '11 phút 40 giây', avg_duration_seconds: 700 },
    // Nobody has finished: no average, empty cells (not 0).
    { class: '3A2', total_register: 1, total_done: 0, avg_score: null, avg_duration_format: '—', avg_duration_seconds: null },
  ],
};

describe('buildReportSheets', () => {
  it('three sheets with Vietnamese headings, numbers as numbers and no ids', async () => {
    const buffer = await writeExcelFile(buildReportSheets(data)).toBuffer();
    const sheets = await readExcelFile(buffer);
    expect(sheets.map((s) => s.sheet)).toEqual(['Số lượng thí sinh', 'Điểm thi', 'Lớp']);
    expect(sheets[0]!.data).toEqual([
      ['Lớp', 'Số học sinh đăng ký', 'Số học sinh đã thi'],
      ['2A1', 1, 1],
      ['5A1', 2, 1],
    ]);
    expect(sheets[1]!.data).toEqual([
      ['Họ và tên', 'Sách thi', 'Lớp', 'Số lần thi', 'Điểm', 'Thời gian làm bài (giây)', 'Dự đoán'],
      ['Hoàng Tiến Dũng', 'Sự tích Hồ Gươm', '5A1', 2, 95, 700, 1234],
      ['Vũ Ngọc Ánh', 'Tấm Cám', '2A1', 1, 90, 500, null],
    ]);
    expect(sheets[2]!.data).toEqual([
      ['Lớp', 'Số học sinh dự thi', 'Điểm trung bình', 'Thời gian trung bình (giây)'],
      ['2A1', 1, 90, 500],
      ['5A1', 1, 92.5, 700],
      ['3A2', 0, null, null],
    ]);
    // The average score has one decimal (a decimal comma in a Vietnamese Excel).
    const { unzipSync, strFromU8 } = await import('fflate');
    expect(strFromU8(unzipSync(new Uint8Array(Buffer.from(buffer)))['xl/styles.xml']!)).toContain('formatCode="0.0"');
  });
});

describe('text that looks like a formula', () => {
  it('is written as text, never as a formula (=, +, - and @ at the start of a name)', async () => {
    const names = ['=HYPERLINK("http://x.invalid","bấm")', '+1+2', '-3+4', '@SUM(A1)'];
    const risky = { ...data, score: names.map((fullname, i) => ({ ...data.score[0]!, rank: i + 1, fullname })) };
    const buffer = Buffer.from(await writeExcelFile(buildReportSheets(risky)).toBuffer());
    const { unzipSync, strFromU8 } = await import('fflate');
    const files = unzipSync(new Uint8Array(buffer));
    const sheetXml = Object.entries(files)
      .filter(([name]) => name.startsWith('xl/worksheets/'))
      .map(([, bytes]) => strFromU8(bytes))
      .join('');
    expect(sheetXml).not.toMatch(/<f[ >]/);
    const sheets = await readExcelFile(buffer);
    expect(sheets[1]!.data.slice(1).map((row) => row[0])).toEqual(names);
  });
});
