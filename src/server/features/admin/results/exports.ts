// The results' .xlsx exports (organiser only). The winners' list carries the parents' phones for
// the prize-giving calls: personal data, so every export is written to the audit log. Cells are
// text or numbers, never formulas; headings in Vietnamese; no internal ids. The workbook is
// written by a worker thread (lib/xlsx-writer.ts) while the rows are read page by page.
import { readFromReplica } from '../../../db/replicas';
import { resultMessages } from '../../../../shared/messages';
import { prizeKindLabels, prizeKinds, type PrizeKindName } from '../../../../shared/schemas/admin-contest';
import { resultExportFileNames, type ResultExportKind } from '../../../../shared/schemas/admin-results';
import { appError } from '../../../lib/errors';
import type { Services } from '../../../services';
import type { AuthUser } from '../../../core/guard';
import { getCurrentContest, seasonOrCurrent } from '../../../core/contest';
import { getResultRun } from '../../../core/ranking/repo';
import { recordAudit } from '../kit/audit';
import * as repo from './repo';
import { ceremonyOfCurrent } from './ceremony';
import { resultNote } from './review';
import { XlsxBuilder, type CellValue, type ColumnKind, type SheetHead } from '../../../lib/xlsx-writer';
import { relabelUnit, type UnitLevel } from '../../../../shared/unit-level';

type Actor = Pick<AuthUser, 'id' | 'phone'>;
type Filter = { district_id?: number; school_id?: number };
type Row = CellValue[] & { bold?: boolean };

const yes = (flag: boolean) => (flag ? 'Có' : null);

/** Builds a sheet's head from [heading, kind, width] columns. */
function head(name: string, columns: [string, ColumnKind, number][]): SheetHead {
  return { name, headings: columns.map(([title]) => title), kinds: columns.map(([, kind]) => kind), widths: columns.map(([, , width]) => width) };
}

/** A sheet of `xlsx` whose name and headings say the unit as the season exported names it (issue 36). */
const sheetOf = (xlsx: XlsxBuilder, level: UnitLevel) => (sheet: SheetHead) =>
  xlsx.sheet({ ...sheet, name: relabelUnit(sheet.name, level), headings: sheet.headings.map((title) => relabelUnit(title, level)) });

const pupilColumns = (rankTitle: string): [string, ColumnKind, number][] => [
  [rankTitle, 'number', 8],
  ['Đồng hạng', 'text', 10],
  ['Họ và tên', 'text', 30],
  ['Quận/Huyện', 'text', 24],
  ['Trường', 'text', 34],
  ['Lớp', 'text', 8],
  ['Điểm', 'score', 8],
  ['Thời gian (giây)', 'number', 14],
  ['Dự đoán', 'number', 10],
  ['Giải', 'text', 30],
  ['Tiền thưởng (đ)', 'money', 16],
  ['SĐT phụ huynh', 'text', 16],
  ['Ghi chú', 'text', 50],
];

/**
 * The winners of every tier (one sheet each), then the winners and money per school and per
 * district; with a tier, that tier's sheet alone.
 */
async function winnersWorkbook(db: Services['db'], contestId: number, filter: Filter, xlsx: XlsxBuilder, level: UnitLevel, tier?: PrizeKindName): Promise<number> {
  const sheet = sheetOf(xlsx, level);
  const bySchool = new Map<string, { district: string; school: string; winners: number; amount: number }>();
  const byDistrict = new Map<string, { winners: number; amount: number }>();
  let total = 0;
  for (const kind of tier ? [tier] : prizeKinds) {
    const list = await repo.prizeRows(db, contestId, kind, filter);
    total += list.length;
    for (const row of list) {
      const school = row.school ?? row.name;
      const key = `${row.district}\u0000${school}`;
      const s = bySchool.get(key) ?? { district: row.district, school, winners: 0, amount: 0 };
      s.winners += 1;
      s.amount += Number(row.amount);
      bySchool.set(key, s);
      const d = byDistrict.get(row.district) ?? { winners: 0, amount: 0 };
      d.winners += 1;
      d.amount += Number(row.amount);
      byDistrict.set(row.district, d);
    }
    if (kind === 'school') {
      sheet(
        head('Giải tập thể trường', [
          ['Hạng', 'number', 8],
          ['Đồng hạng', 'text', 10],
          ['Trường', 'text', 36],
          ['Quận/Huyện', 'text', 24],
          ['Tham gia', 'text', 44],
          ['Giải', 'text', 22],
          ['Tiền thưởng (đ)', 'money', 16],
        ]),
      );
      await xlsx.rows(list.map((row) => [row.rank, yes(row.tied), row.name, row.district, row.detail, row.prize, row.amount]));
    } else if (kind === 'teacher') {
      sheet(
        head('Giáo viên truyền lửa', [
          ['Hạng', 'number', 8],
          ['Đồng hạng', 'text', 10],
          ['Giáo viên', 'text', 30],
          ['Quận/Huyện', 'text', 24],
          ['Trường', 'text', 34],
          ['Lớp', 'text', 10],
          ['Điểm trung bình', 'score', 16],
          ['Thời gian trung bình (giây)', 'number', 22],
          ['Số học sinh dự thi', 'text', 18],
          ['Giải', 'text', 30],
          ['Tiền thưởng (đ)', 'money', 16],
        ]),
      );
      await xlsx.rows(
        list.map((row) => [row.rank, yes(row.tied), row.name, row.district, row.school, row.class_name, row.points, row.duration_seconds, row.detail, row.prize, row.amount]),
      );
    } else {
      sheet(head(kind === 'individual' ? 'Giải cá nhân' : 'Học sinh tiêu biểu', pupilColumns(kind === 'individual' ? 'Hạng' : 'Hạng trong trường')));
      await xlsx.rows(
        list.map((row) => [
          row.rank,
          yes(row.tied),
          row.name,
          row.district,
          row.school,
          row.class_name,
          row.points,
          row.duration_seconds,
          row.prediction,
          row.prize,
          row.amount,
          row.parent_phone,
          resultNote(row),
        ]),
      );
    }
  }
  if (tier) return total;
  const schools = [...bySchool.values()].sort((a, b) => a.district.localeCompare(b.district, 'vi') || a.school.localeCompare(b.school, 'vi'));
  sheet(
    head('Theo trường', [
      ['Quận/Huyện', 'text', 24],
      ['Trường', 'text', 44],
      ['Số giải', 'number', 14],
      ['Tiền thưởng (đ)', 'money', 18],
    ]),
  );
  await xlsx.rows(schools.map((s) => [s.district, s.school, s.winners, s.amount]));
  sheet(
    head('Theo quận, huyện', [
      ['Quận/Huyện', 'text', 30],
      ['Số giải', 'number', 14],
      ['Tiền thưởng (đ)', 'money', 18],
    ]),
  );
  await xlsx.rows([...byDistrict.entries()].sort(([a], [b]) => a.localeCompare(b, 'vi')).map(([district, d]) => [district, d.winners, d.amount]));
  return total;
}

/** Every contestant's best result, in rank order, read and written page by page. */
async function contestantsWorkbook(db: Services['db'], contestId: number, filter: Filter, xlsx: XlsxBuilder, level: UnitLevel): Promise<number> {
  const sheet = sheetOf(xlsx, level);
  sheet(
    head('Kết quả thí sinh', [
      ['Hạng', 'number', 8],
      ['Đồng hạng', 'text', 10],
      ['Họ và tên', 'text', 30],
      ['Quận/Huyện', 'text', 24],
      // The unit's former province (decision 038), empty when the catalogue has none.
      ['Tỉnh cũ', 'text', 20],
      ['Trường', 'text', 34],
      ['Lớp', 'text', 8],
      ['Sách thi', 'text', 34],
      ['Điểm', 'score', 8],
      ['Thời gian (giây)', 'number', 14],
      ['Nộp bài lúc', 'date', 18],
      ['Dự đoán', 'number', 10],
      ['Hạng trong trường', 'number', 12],
      ['Học sinh tiêu biểu', 'text', 12],
      ['Giải', 'text', 24],
      ['Tiền thưởng (đ)', 'money', 16],
      // Why a pupil is ranked last or has no prize (withheld, withdrawn), an erased holder.
      ['Ghi chú', 'text', 60],
    ]),
  );
  let total = 0;
  for await (const page of repo.bestResults(db, contestId, filter)) {
    total += page.length;
    await xlsx.rows(
      page.map((row) => [
        row.rank,
        yes(row.tied),
        row.fullname,
        row.district,
        row.former_province,
        row.school,
        row.class_name,
        row.book,
        row.points,
        row.duration_seconds,
        row.submitted_at,
        row.prediction,
        row.school_rank,
        yes(row.school_top),
        row.prize_name,
        row.prize_amount,
        resultNote(row),
      ]),
    );
  }
  return total;
}

async function ceremonyWorkbook(deps: Pick<Services, 'db'>, xlsx: XlsxBuilder, seasonId: number): Promise<number> {
  const { ceremony } = await ceremonyOfCurrent(deps, seasonId);
  xlsx.sheet(
    head('Kinh phí trao giải', [
      ['Loại giải', 'text', 30],
      ['Giải', 'text', 44],
      ['Giá trị một giải (đ)', 'money', 18],
      ['Số giải theo cài đặt', 'number', 18],
      ['Thành tiền theo cài đặt (đ)', 'money', 22],
      ['Số giải trao', 'number', 14],
      ['Thành tiền (đ)', 'money', 18],
    ]),
  );
  const total: Row = Object.assign(['Tổng cộng', null, null, null, ceremony.planned_total, null, ceremony.total], { bold: true });
  await xlsx.rows([
    ...ceremony.tiers.map((tier) => [prizeKindLabels[tier.kind], tier.name, tier.amount, tier.planned_winners, tier.planned_total, tier.winners, tier.total]),
    total,
  ]);
  return ceremony.tiers.length;
}

const exportTitles: Record<ResultExportKind, string> = {
  winners: 'danh sách đoạt giải (có số điện thoại phụ huynh)',
  contestants: 'kết quả của mọi thí sinh',
  ceremony: 'kinh phí trao giải',
};

/** Builds an export of the current contest's stored results and records who took it. */
export async function exportResults(
  services: Pick<Services, 'db' | 'reads'>,
  actor: Actor,
  kind: ResultExportKind,
  { tier, season, ...filter }: Filter & { tier?: PrizeKindName; season?: number },
): Promise<{ fileName: string; bytes: Buffer }> {
  const { db } = services;
  // An earlier season's results can be exported too (issue 26): they are read, never changed.
  const contest = season === undefined ? await getCurrentContest(db) : await seasonOrCurrent(db, season);
  if (!contest || !(await getResultRun(db, contest.id))) throw appError('results_not_computed', resultMessages.notComputed);
  // From a replica only once it has every write the primary has (an export right after a recompute
  // or a withdrawal must not give the previous results): db/replicas.ts.
  // A workbook per try: one that a failing replica left half written is dropped, the primary's kept.
  const { rows, bytes } = await readFromReplica(
    services,
    async (source) => {
      const xlsx = new XlsxBuilder();
      try {
        const rows =
          kind === 'winners'
            ? await winnersWorkbook(source, contest.id, filter, xlsx, contest.unit_level, tier)
            : kind === 'contestants'
              ? await contestantsWorkbook(source, contest.id, filter, xlsx, contest.unit_level)
              : await ceremonyWorkbook({ db: source }, xlsx, contest.id);
        return { rows, bytes: await xlsx.finish() };
      } catch (error) {
        await xlsx.abandon();
        throw error;
      }
    },
    { caughtUp: true },
  );
  const fileName = resultExportFileNames[kind];
  await recordAudit(db, actor, {
    kind: 'results.export',
    summary: `Xuất ${exportTitles[kind]}${tier && kind === 'winners' ? ` (${prizeKindLabels[tier]})` : ''}: ${fileName}, ${rows} dòng`,
    details: { file: fileName, rows, filter, ...(tier && kind === 'winners' ? { tier } : {}) },
  });
  return { fileName, bytes };
}
