// The question quality report of a book: the counts of repo.ts through item-stats.ts, one row per
// question of the bank, flagged first; and the same rows as an .xlsx workbook.
import { booksMessages } from '../../../../shared/schemas/admin-books';
import { qualityFlagLabels, type BookQuality, type QualityQuestion } from '../../../../shared/schemas/admin-quality';
import { notFound } from '../../../lib/errors';
import type { Services } from '../../../services';
import { XlsxBuilder } from '../../../lib/xlsx-writer';
import { compareItems, itemStats, MIN_EXAMS, type Cell } from './item-stats';
import * as repo from './repo';

type Deps = Pick<Services, 'db' | 'clock'>;

/**
 * The book's counts: the stored ones (0042) for a view, counted for it alone when there are none
 * (a read never writes); counted and stored by the organiser's "Tính lại" (`refresh`). A regrade
 * forgets them (regrade/service.ts), so a view after it counts the new scoring.
 */
async function countsOf({ db, clock }: Deps, seasonId: number, bookId: number, refresh: boolean) {
  if (!refresh) {
    const stored = await repo.storedCounts(db, bookId);
    const examsNow = await repo.finishedExams(db, seasonId, bookId);
    // Stored counts: how many exams are finished now (the page tells the difference); just counted: the same.
    if (stored) return { ...stored, examsNow };
    return { exams: examsNow, computedAt: clock.now(), cells: await repo.qualityCells(db, seasonId, bookId), examsNow };
  }
  // One transaction: the count reads question_regrades, so a regrade (which locks that table) either
  // waits until these counts are stored and then forgets them, or commits first and is counted.
  return db.transaction().execute(async (trx) => {
    const computedAt = clock.now();
    const cells = await repo.qualityCells(trx, seasonId, bookId);
    const counts = { exams: await repo.finishedExams(trx, seasonId, bookId), computedAt, cells };
    await repo.storeCounts(trx, bookId, counts);
    return { ...counts, examsNow: counts.exams };
  });
}

export async function bookQuality(deps: Deps, bookId: number, { refresh = false } = {}): Promise<BookQuality> {
  const { db } = deps;
  const found = await repo.findBook(db, bookId);
  if (!found) throw notFound(booksMessages.bookNotFound);
  // Over the exams of the book's own season: an earlier season's book keeps its figures (read-only).
  const seasonId = found.contest_id;
  const book = { id: found.id, name: found.name, season: { name: found.season_name, is_current: found.season_is_current } };
  const [counts, bank] = await Promise.all([countsOf(deps, seasonId, bookId, refresh), repo.bankOf(db, bookId)]);
  const { cells } = counts;
  const byQuestion = new Map<number, Cell[]>();
  for (const cell of cells) {
    const list = byQuestion.get(cell.questionId) ?? [];
    list.push(cell);
    byQuestion.set(cell.questionId, list);
  }
  const rows = bank.map((question, index) => {
    const stats = itemStats(
      byQuestion.get(question.id) ?? [],
      question.answers.map((answer) => ({ id: answer.id, isKey: answer.is_correct })),
    );
    const row: QualityQuestion = {
      question,
      number: index + 1,
      exams: stats.exams,
      facility: stats.facility,
      discrimination: stats.discrimination,
      upper_lower_difference: stats.upperLowerDifference,
      answers: stats.answers,
      blank: stats.blank,
      suspected_answer_id: stats.suspectedAnswerId,
      flags: stats.flags,
    };
    return row;
  });
  rows.sort((a, b) => compareItems({ ...a, order: a.number }, { ...b, order: b.number }));
  // Each question counts only the exams that drew it: the book's own count is separate.
  return { book, exams: counts.exams, exams_now: counts.examsNow, computed_at: counts.computedAt.toISOString(), min_exams: MIN_EXAMS, questions: rows };
}

const letter = (index: number) => String.fromCharCode(65 + index);
/** Why a row of the workbook has no figure. */
const tooFew = (exams: number, min: number) => `Chưa đủ bài thi: mới có ${exams} bài thi rút câu này, cần ít nhất ${min} bài để tính.`;
const share = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 10);

/** The report as an .xlsx workbook: one row per question, the flags and their reasons, the shares per answer in %. */
export async function bookQualityXlsx(deps: Deps, bookId: number): Promise<{ fileName: string; bytes: Buffer }> {
  const report = await bookQuality(deps, bookId);
  const most = Math.max(4, ...report.questions.map((row) => row.question.answers.length));
  const answerColumns = Array.from({ length: most }, (_, i) => [`${letter(i)}: cả bài (%)`, `${letter(i)}: nhóm cao (%)`, `${letter(i)}: nhóm thấp (%)`]).flat();
  const xlsx = new XlsxBuilder();
  try {
    const headings = ['Câu', 'Câu hỏi', 'Đáp án đúng', 'Số bài thi', 'Độ dễ (%)', 'Độ phân biệt (hệ số điểm-nhị phân)', 'Chênh lệch nhóm cao - nhóm thấp (%)', 'Cảnh báo', 'Lý do', 'Đáp án nghi đúng', ...answerColumns, 'Bỏ trống (%)'];
    xlsx.sheet({
      name: 'Chất lượng câu hỏi',
      headings,
      kinds: headings.map((_, i) => (i === 1 || i === 2 || i === 7 || i === 8 || i === 9 ? 'text' : 'number')),
      widths: headings.map((_, i) => (i === 1 ? 50 : i === 8 ? 70 : 14)),
    });
    await xlsx.rows(
      report.questions.map((row) => {
        const answers = row.question.answers;
        const keyIndex = answers.findIndex((answer) => answer.is_correct);
        const suspect = answers.findIndex((answer) => answer.id === row.suspected_answer_id);
        const shares = Array.from({ length: most }, (_, i) => {
          const s = row.answers?.[i];
          return s ? [share(s.overall), share(s.upper), share(s.lower)] : [null, null, null];
        }).flat();
        return [
          row.number,
          row.question.value,
          keyIndex >= 0 ? letter(keyIndex) : null,
          row.exams,
          share(row.facility),
          row.discrimination === null ? null : Math.round(row.discrimination * 1000) / 1000,
          share(row.upper_lower_difference),
          row.flags.map((flag) => qualityFlagLabels[flag.kind]).join(', ') || null,
          row.exams < report.min_exams ? tooFew(row.exams, report.min_exams) : row.flags.map((flag) => flag.reason).join(' ') || null,
          suspect >= 0 ? letter(suspect) : null,
          ...shares,
          share(row.blank?.overall ?? null),
        ];
      }),
    );
    return { fileName: `chat-luong-cau-hoi-sach-${bookId}.xlsx`, bytes: await xlsx.finish() };
  } catch (error) {
    await xlsx.abandon();
    throw error;
  }
}
