// The results' .xlsx exports (organiser only). The winners' list carries the parents' phones for
// the prize-giving calls: personal data, so every export is written to the audit log. Cells are
// text or numbers, never formulas; headings in Vietnamese; no internal ids.
import writeExcelFile, { type Cell, type SheetData } from 'write-excel-file/node';
import { formatDateTime } from '../../../../shared/format';
import { prizeKindLabels, prizeKinds } from '../../../../shared/schemas/admin-contest';
import { resultExportFileNames, type ResultExportKind } from '../../../../shared/schemas/admin-results';
import type { Services } from '../../../services';
import type { AuthUser } from '../../auth/guard';
import { getCurrentContest } from '../../contest/repo';
import { getResultRun } from '../../ranking/repo';
import { conflict } from '../../../lib/errors';
import { resultMessages } from '../../../../shared/messages';
import { recordAudit } from '../audit';
import * as repo from './repo';
import { ceremonyOfCurrent } from './service';

type Actor = Pick<AuthUser, 'id' | 'phone'>;
type Filter = { district_id?: number; school_id?: number };

const heading = (value: string): Cell => ({ value, fontWeight: 'bold', wrap: true });
const text = (value: string | null): Cell => (value === null ? null : { value, type: String });
const number = (value: number | null): Cell => (value === null ? null : { value: Number(value), type: Number });

interface Sheet {
  sheet: string;
  data: SheetData;
  columns: { width: number }[];
  stickyRowsCount: number;
}

const pupilHeadings = ['Hạng', 'Đồng hạng', 'Họ và tên', 'Quận/Huyện', 'Trường', 'Lớp', 'Điểm', 'Thời gian (giây)', 'Dự đoán', 'Giải', 'Tiền thưởng (đ)', 'SĐT phụ huynh'];
const widths = (values: number[]) => values.map((width) => ({ width }));

/** The winners of every tier (one sheet each), then the winners and money per school and per district. */
async function winnersSheets(db: Services['db'], contestId: number, filter: Filter): Promise<{ sheets: Sheet[]; rows: number }> {
  const sheets: Sheet[] = [];
  const bySchool = new Map<string, { district: string; school: string; winners: number; amount: number }>();
  const byDistrict = new Map<string, { winners: number; amount: number }>();
  let rows = 0;
  const count = (district: string, school: string, amount: number) => {
    const s = bySchool.get(`${district}\u0000${school}`) ?? { district, school, winners: 0, amount: 0 };
    s.winners += 1;
    s.amount += amount;
    bySchool.set(`${district}\u0000${school}`, s);
    const d = byDistrict.get(district) ?? { winners: 0, amount: 0 };
    d.winners += 1;
    d.amount += amount;
    byDistrict.set(district, d);
  };
  for (const kind of prizeKinds) {
    const list = await repo.prizeRows(db, contestId, kind, filter);
    rows += list.length;
    for (const row of list) count(row.district, row.school ?? row.name, Number(row.amount));
    if (kind === 'school') {
      sheets.push({
        sheet: 'Giải tập thể trường',
        columns: widths([8, 10, 36, 24, 44, 22, 16]),
        stickyRowsCount: 1,
        data: [
          ['Hạng', 'Đồng hạng', 'Trường', 'Quận/Huyện', 'Tham gia', 'Giải', 'Tiền thưởng (đ)'].map(heading),
          ...list.map((row) => [number(row.rank), text(row.tied ? 'Có' : ''), text(row.name), text(row.district), text(row.detail), text(row.prize), number(row.amount)]),
        ],
      });
    } else if (kind === 'teacher') {
      sheets.push({
        sheet: 'Giáo viên truyền lửa',
        columns: widths([8, 10, 30, 24, 34, 10, 16, 22, 18, 30, 16]),
        stickyRowsCount: 1,
        data: [
          ['Hạng', 'Đồng hạng', 'Giáo viên', 'Quận/Huyện', 'Trường', 'Lớp', 'Điểm trung bình', 'Thời gian trung bình (giây)', 'Số học sinh dự thi', 'Giải', 'Tiền thưởng (đ)'].map(heading),
          ...list.map((row) => [
            number(row.rank),
            text(row.tied ? 'Có' : ''),
            text(row.name),
            text(row.district),
            text(row.school),
            text(row.class_name),
            number(row.points),
            number(row.duration_seconds),
            text(row.detail),
            text(row.prize),
            number(row.amount),
          ]),
        ],
      });
    } else {
      sheets.push({
        sheet: kind === 'individual' ? 'Giải cá nhân' : 'Học sinh tiêu biểu',
        columns: widths([8, 10, 30, 24, 34, 8, 8, 14, 14, 30, 16, 16]),
        stickyRowsCount: 1,
        data: [
          (kind === 'individual' ? pupilHeadings : pupilHeadings.map((title) => (title === 'Hạng' ? 'Hạng trong trường' : title))).map(heading),
          ...list.map((row) => [
            number(row.rank),
            text(row.tied ? 'Có' : ''),
            text(row.name),
            text(row.district),
            text(row.school),
            text(row.class_name),
            number(row.points),
            number(row.duration_seconds),
            number(row.prediction),
            text(row.prize),
            number(row.amount),
            text(row.parent_phone),
          ]),
        ],
      });
    }
  }
  const schools = [...bySchool.values()].sort((a, b) => a.district.localeCompare(b.district, 'vi') || a.school.localeCompare(b.school, 'vi'));
  sheets.push({
    sheet: 'Theo trường',
    columns: widths([24, 44, 14, 18]),
    stickyRowsCount: 1,
    data: [
      ['Quận/Huyện', 'Trường', 'Số giải', 'Tiền thưởng (đ)'].map(heading),
      ...schools.map((s) => [text(s.district), text(s.school), number(s.winners), number(s.amount)]),
    ],
  });
  const districts = [...byDistrict.entries()].sort(([a], [b]) => a.localeCompare(b, 'vi'));
  sheets.push({
    sheet: 'Theo quận, huyện',
    columns: widths([30, 14, 18]),
    stickyRowsCount: 1,
    data: [['Quận/Huyện', 'Số giải', 'Tiền thưởng (đ)'].map(heading), ...districts.map(([district, d]) => [text(district), number(d.winners), number(d.amount)])],
  });
  return { sheets, rows };
}

/** Every contestant's best result, in rank order (read in pages: 200,000 rows stay a few hundred MB). */
async function contestantsSheet(db: Services['db'], contestId: number, filter: Filter): Promise<{ sheets: Sheet[]; rows: number }> {
  const data: SheetData = [
    ['Hạng', 'Đồng hạng', 'Họ và tên', 'Quận/Huyện', 'Trường', 'Lớp', 'Sách thi', 'Điểm', 'Thời gian (giây)', 'Nộp bài lúc', 'Dự đoán', 'Hạng trong trường', 'Học sinh tiêu biểu', 'Giải', 'Tiền thưởng (đ)'].map(heading),
  ];
  for await (const page of repo.bestResults(db, contestId, filter)) {
    for (const row of page) {
      data.push([
        number(row.rank),
        text(row.tied ? 'Có' : ''),
        text(row.fullname),
        text(row.district),
        text(row.school),
        text(row.class_name),
        text(row.book),
        number(row.points),
        number(row.duration_seconds),
        text(formatDateTime(row.submitted_at)),
        number(row.prediction),
        number(row.school_rank),
        text(row.school_top ? 'Có' : ''),
        text(row.prize_name),
        number(row.prize_amount),
      ]);
    }
  }
  return {
    sheets: [{ sheet: 'Kết quả thí sinh', data, columns: widths([8, 10, 30, 24, 34, 8, 34, 8, 14, 18, 10, 12, 12, 24, 16]), stickyRowsCount: 1 }],
    rows: data.length - 1,
  };
}

async function ceremonySheet(deps: Pick<Services, 'db'>): Promise<{ sheets: Sheet[]; rows: number }> {
  const { ceremony } = await ceremonyOfCurrent(deps);
  const data: SheetData = [
    ['Loại giải', 'Giải', 'Giá trị một giải (đ)', 'Số giải theo cài đặt', 'Thành tiền theo cài đặt (đ)', 'Số giải trao', 'Thành tiền (đ)'].map(heading),
    ...ceremony.tiers.map((tier) => [
      text(prizeKindLabels[tier.kind]),
      text(tier.name),
      number(tier.amount),
      number(tier.planned_winners),
      number(tier.planned_total),
      number(tier.winners),
      number(tier.total),
    ]),
    [heading('Tổng cộng'), null, null, null, number(ceremony.planned_total), null, number(ceremony.total)],
  ];
  return { sheets: [{ sheet: 'Kinh phí trao giải', data, columns: widths([30, 44, 18, 18, 22, 14, 18]), stickyRowsCount: 1 }], rows: ceremony.tiers.length };
}

const exportTitles: Record<ResultExportKind, string> = {
  winners: 'danh sách đoạt giải (có số điện thoại phụ huynh)',
  contestants: 'kết quả của mọi thí sinh',
  ceremony: 'kinh phí trao giải',
};

/** Builds an export of the current contest's stored results and records who took it. */
export async function exportResults(
  { db }: Pick<Services, 'db'>,
  actor: Actor,
  kind: ResultExportKind,
  filter: Filter,
): Promise<{ fileName: string; bytes: Buffer }> {
  const contest = await getCurrentContest(db);
  if (!contest || !(await getResultRun(db, contest.id))) throw conflict(resultMessages.notComputed, 'results_not_computed');
  const { sheets, rows } =
    kind === 'winners' ? await winnersSheets(db, contest.id, filter) : kind === 'contestants' ? await contestantsSheet(db, contest.id, filter) : await ceremonySheet({ db });
  const bytes = Buffer.from(await writeExcelFile(sheets).toBuffer());
  const fileName = resultExportFileNames[kind];
  await recordAudit(db, actor, {
    kind: 'results.export',
    summary: `Xuất ${exportTitles[kind]}: ${fileName}, ${rows} dòng`,
    details: { file: fileName, rows, filter },
  });
  return { fileName, bytes };
}
