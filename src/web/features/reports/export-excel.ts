// 'Xuất excel' (spec section 7): bao_cao_truong.xlsx made in the browser from the report already
// on screen. Three sheets, Vietnamese headings, numbers as numbers, no internal ids. The
// spreadsheet library is loaded only when the button is pressed.
import { EXPORT_FILE_NAME } from '../../../shared/rules';
import type { ReportSchoolResponse } from '../../../shared/schemas/reports';
// Types only: the library itself is imported on demand in exportReport().
import type { Cell, SheetData } from 'write-excel-file/browser';

export interface ExportSheet {
  sheet: string;
  data: SheetData;
  columns: { width: number }[];
  stickyRowsCount: number;
}

const heading = (value: string): Cell => ({ value, fontWeight: 'bold', wrap: true });
const text = (value: string): Cell => ({ value, type: String });
/** An empty cell for a missing number (no prediction; no average when nobody finished). */
const number = (value: number | null): Cell => (value === null ? null : { value, type: Number });
/** An average score with one decimal (the decimal comma is the viewer's Excel locale). */
const score = (value: number | null): Cell => (value === null ? null : { value, type: Number, format: '0.0' });

/** The workbook's sheets (pure, so a test can check every cell). */
export function buildReportSheets(data: ReportSchoolResponse['data']): ExportSheet[] {
  return [
    {
      sheet: 'Số lượng thí sinh',
      columns: [{ width: 12 }, { width: 22 }, { width: 22 }],
      stickyRowsCount: 1,
      data: [
        [heading('Lớp'), heading('Số học sinh đăng ký'), heading('Số học sinh đã thi')],
        ...data.quantity_students.map((row) => [text(row.class), number(row.total_register), number(row.total_done)]),
      ],
    },
    {
      sheet: 'Điểm thi',
      columns: [{ width: 30 }, { width: 34 }, { width: 10 }, { width: 12 }, { width: 10 }, { width: 22 }, { width: 12 }],
      stickyRowsCount: 1,
      data: [
        [heading('Họ và tên'), heading('Sách thi'), heading('Lớp'), heading('Số lần thi'), heading('Điểm'), heading('Thời gian làm bài (giây)'), heading('Dự đoán')],
        ...data.score.map((row) => [
          text(row.fullname),
          text(row.book),
          text(row.class),
          number(row.count_exam),
          number(row.points),
          number(row.duration_seconds),
          number(row.prediction),
        ]),
      ],
    },
    {
      sheet: 'Lớp',
      columns: [{ width: 12 }, { width: 22 }, { width: 18 }, { width: 30 }],
      stickyRowsCount: 1,
      data: [
        [heading('Lớp'), heading('Số học sinh dự thi'), heading('Điểm trung bình'), heading('Thời gian trung bình (giây)')],
        ...data.class.map((row) => [text(row.class), number(row.total_done), score(row.avg_score), number(row.avg_duration_seconds)]),
      ],
    },
  ];
}

/** Writes the file and starts its download. */
export async function exportReport(data: ReportSchoolResponse['data']): Promise<void> {
  const { default: writeExcelFile } = await import('write-excel-file/browser');
  await writeExcelFile(buildReportSheets(data)).toFile(EXPORT_FILE_NAME);
}
