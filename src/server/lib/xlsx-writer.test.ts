// The streaming .xlsx writer: a workbook of a few thousand rows read back by read-excel-file (the
// library the exports were checked with before) and by the import reader, headings frozen, text
// that looks like a formula kept as text, and XML 1.0's forbidden characters dropped.
import { describe, expect, it } from 'vitest';
import readExcelFile from 'read-excel-file/node';
import { strFromU8, unzipSync } from 'fflate';
import { readFirstSheet } from './xlsx-reader';
import { XlsxBuilder } from './xlsx-writer';

async function workbook(rows: number) {
  const xlsx = new XlsxBuilder();
  xlsx.sheet({ name: 'Kết quả thí sinh', headings: ['Hạng', 'Họ và tên', 'Điểm'], kinds: ['number', 'text', 'number'], widths: [8, 30, 8] });
  const data = Array.from({ length: rows }, (_, i) => [i + 1, `Học sinh ${i + 1}`, (i * 7) % 101]);
  await xlsx.rows(data);
  xlsx.sheet({ name: 'Công thức?', headings: ['Giá trị', 'Số'], kinds: ['text', 'number'], widths: [20, 8] });
  await xlsx.rows([
    ['=1+1', 1],
    ['+84 912 000 000', null],
    ['-2', 2],
    ['@SUM(A1)', 3],
    ['=HYPERLINK("http://x","y")', 4],
    ['a\u0000b\u0007c <&> "d"', 5],
    Object.assign(['Tổng cộng', 15], { bold: true }),
  ]);
  return xlsx.finish();
}

describe('XlsxBuilder', { timeout: 20_000 }, () => {
  it('writes a valid workbook of 5,000 rows, read back the same by read-excel-file and the import reader', async () => {
    const bytes = await workbook(5000);
    const sheets = await readExcelFile(bytes);
    expect(sheets.map((s) => s.sheet)).toEqual(['Kết quả thí sinh', 'Công thức ']);
    expect(sheets[0]!.data).toHaveLength(5001);
    expect(sheets[0]!.data[0]).toEqual(['Hạng', 'Họ và tên', 'Điểm']);
    expect(sheets[0]!.data[5000]).toEqual([5000, 'Học sinh 5000', (4999 * 7) % 101]);

    let count = 0;
    for await (const row of readFirstSheet(bytes)) {
      count++;
      if (row.row === 2) expect(row.values).toEqual([1, 'Học sinh 1', 0]);
    }
    expect(count).toBe(5001);

    const files = unzipSync(new Uint8Array(bytes));
    const sheet1 = strFromU8(files['xl/worksheets/sheet1.xml']!);
    expect(sheet1).toContain('state="frozen"');
    expect(files['xl/sharedStrings.xml']).toBeUndefined();
  });

  it('keeps text that starts with = + - @ as text, never a formula, and drops characters XML cannot carry', async () => {
    const bytes = await workbook(1);
    const sheet2 = strFromU8(unzipSync(new Uint8Array(bytes))['xl/worksheets/sheet2.xml']!);
    expect(sheet2).not.toContain('<f>');
    const [, formulas] = await readExcelFile(bytes);
    expect(formulas!.data.slice(1).map((row) => row[0])).toEqual(['=1+1', '+84 912 000 000', '-2', '@SUM(A1)', '=HYPERLINK("http://x","y")', 'abc <&> "d"', 'Tổng cộng']);
    expect(formulas!.data[7]![1]).toBe(15);
  });
});
