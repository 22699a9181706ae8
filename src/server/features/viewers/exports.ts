// The education offices' exports (.xlsx, decision 039): the participation of the scope (sheets
// "Đơn vị" and "Trường") and its published results ("Giải thưởng", "Trường", "Đơn vị"). Written
// like the back office's exports (lib/xlsx-writer.ts: typed cells, never a formula, a bold frozen
// heading). What a school report shows and no more: no parent's phone, no contestant id, no
// withheld prize, no money.
import { relabelUnit, type UnitLevel } from '../../../shared/unit-level';
import type { ParticipationRow } from '../../../shared/schemas/viewers';
import { buildXlsx, type ColumnKind, type SheetHead } from '../../lib/xlsx-writer';
import type { Services } from '../../services';
import type { ViewerParticipationQuery } from '../../../shared/schemas/viewers';
import { participationLines, publishedResults, type Viewer } from './service';

type Deps = Pick<Services, 'db' | 'clock' | 'reads'>;

export const viewerExportFileNames = { participation: 'so_lieu_tham_gia.xlsx', results: 'ket_qua_cuoc_thi.xlsx' } as const;

/** A sheet head from [heading, kind, width] columns, the unit's heading as the season names it. */
const head = (name: string, level: UnitLevel, columns: [string, ColumnKind, number][]): SheetHead => ({
  name,
  headings: columns.map(([title]) => relabelUnit(title, level)),
  kinds: columns.map(([, kind]) => kind),
  widths: columns.map(([, , width]) => width),
});

const COUNT_COLUMNS: [string, ColumnKind, number][] = [
  ['Số học sinh', 'number', 12],
  ['Thí sinh đăng ký', 'number', 16],
  ['Tỉ lệ tham gia (%)', 'score', 16],
  ['Đang thi', 'number', 10],
  ['Bắt đầu thi hôm nay', 'number', 18],
  ['Nộp bài hôm nay', 'number', 16],
  ['Lượt thi từ khi mở', 'number', 18],
  ['Bài đã nộp từ khi mở', 'number', 20],
];
const countCells = (row: ParticipationRow) => [
  row.pupils,
  row.contestants,
  row.participation === null ? null : Math.round(row.participation * 1000) / 10,
  row.in_progress,
  row.started_today,
  row.finished_today,
  row.started_total,
  row.finished_total,
];

export async function participationXlsx(deps: Deps, viewer: Viewer, query: ViewerParticipationQuery): Promise<Buffer> {
  const lines = await participationLines(deps, viewer, query);
  const level = lines.contest?.unit_level ?? 'district';
  return buildXlsx(async (xlsx) => {
    xlsx.sheet(head('Đơn vị', level, [['Quận/Huyện', 'text', 30], ...COUNT_COLUMNS]));
    await xlsx.rows(lines.units.map((row) => [row.name, ...countCells(row)]));
    xlsx.sheet(head('Trường', level, [['Trường', 'text', 40], ['Quận/Huyện', 'text', 26], ...COUNT_COLUMNS]));
    await xlsx.rows(lines.schools.map((row) => [row.name, row.unit, ...countCells(row)]));
  });
}

export async function resultsXlsx(deps: Deps, viewer: Viewer): Promise<Buffer> {
  const results = await publishedResults(deps, viewer);
  const level = results.contest?.unit_level ?? 'district';
  const summary: [string, ColumnKind, number][] = [
    ['Số học sinh', 'number', 12],
    ['Thí sinh đăng ký', 'number', 16],
    ['Thí sinh hoàn thành', 'number', 18],
    ['Điểm trung bình', 'score', 16],
    ['Số giải', 'number', 10],
  ];
  return buildXlsx(async (xlsx) => {
    xlsx.sheet(
      head('Giải thưởng', level, [
        ['Loại giải', 'text', 30],
        ['Họ và tên', 'text', 30],
        ['Lớp', 'text', 8],
        ['Trường', 'text', 36],
        ['Quận/Huyện', 'text', 24],
        ['Điểm', 'score', 8],
        ['Thời gian (giây)', 'number', 14],
        ['Giải', 'text', 30],
      ]),
    );
    await xlsx.rows(results.prizes.map((p) => [p.tier, p.name, p.class_name, p.school, p.unit, p.points, p.duration_seconds, p.prize]));
    xlsx.sheet(head('Trường', level, [['Trường', 'text', 40], ['Quận/Huyện', 'text', 26], ...summary]));
    await xlsx.rows(results.schools.map((s) => [s.name, s.unit, s.pupils, s.contestants, s.finished, s.mean_points, s.prizes]));
    xlsx.sheet(head('Đơn vị', level, [['Quận/Huyện', 'text', 30], ...summary]));
    await xlsx.rows(results.units.map((u) => [u.name, u.pupils, u.contestants, u.finished, u.mean_points, u.prizes]));
  });
}
