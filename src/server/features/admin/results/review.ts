// Reviewing the stored results in the back office: the prize winners, a page at a time, each pupil
// with what decided the place against the pupil above when score and time look the same.
import { readFromReplica } from '../../../db/replicas';
import type { Db } from '../../../db/client';
import { formatInstant, formatNumber } from '../../../../shared/format';
import { adminResultsMessages as m } from '../../../../shared/messages';
import { submissionSecond } from '../../../core/ranking/ranking';
import type { PrizeListQuery, PrizeRow } from '../../../../shared/schemas/admin-results';
import type { Page } from '../../../../shared/schemas/admin';
import type { Services } from '../../../services';
import { seasonOrCurrent } from '../../../core/contest';
import * as repo from './repo';

const num = (value: string | number | null | undefined) => (value === null || value === undefined ? null : Number(value));

/**
 * What separated a pupil from the pupil above when the score and the time are equal (the rules
 * that follow them, decision 003): the submission to the second, the prediction,
 * the organiser's decision on a tie, or a shared rank. Null when the score or time differs (shown
 * in their own columns) or for the first of the list.
 */
export function deciding(row: repo.PrizeDbRow): string | null {
  if (!row.submitted_at || row.above_points === null || row.above_points === undefined) return null;
  if (Number(row.points) !== Number(row.above_points) || row.duration_seconds !== row.above_duration_seconds) return null;
  const late = submissionSecond(row.submitted_at) - submissionSecond(row.above_submitted_at ?? row.submitted_at);
  if (late > 0) return `Nộp bài muộn hơn người xếp trên ${formatNumber(late)} giây`;
  const distance = num(row.prediction_distance);
  const above = num(row.above_prediction_distance);
  if (distance !== above) {
    return distance === null ? 'Nộp bài trong cùng một giây; không có câu dự đoán' : `Nộp bài trong cùng một giây; dự đoán lệch ${formatNumber(distance)} (người xếp trên lệch ${formatNumber(above ?? 0)})`;
  }
  return row.rank_tied ? 'Đồng hạng: bằng nhau cả bốn tiêu chí' : 'Bằng nhau cả bốn tiêu chí: theo quyết định của Ban tổ chức về đồng hạng';
}

/**
 * What a pupil's row says besides its figures (the exports' and the prize list's "Ghi chú"): a
 * withheld prize and why (the pupil ranked last), a withdrawn prize and why, a holder whose
 * personal data was erased (the name a placeholder). Null when there is nothing to say.
 */
export function resultNote(row: { held?: boolean; held_reason?: string | null; withdrawn_reasons?: string | null; anonymised_at?: Date | null }): string | null {
  const notes = [row.held ? m.noteHeld(row.held_reason ?? null) : null, row.withdrawn_reasons ? m.noteWithdrawn(row.withdrawn_reasons) : null, row.anonymised_at ? m.noteErased : null];
  const said = notes.filter((note) => note !== null);
  return said.length ? said.join('; ') : null;
}

export async function listPrizes(services: Pick<Services, 'db' | 'reads'>, query: PrizeListQuery): Promise<Page<PrizeRow>> {
  // The organiser reads the list right after a withdrawal: a replica only once it has applied it.
  return readFromReplica(services, (db) => prizePage(db, query), { caughtUp: true });
}

async function prizePage(db: Db, query: PrizeListQuery): Promise<Page<PrizeRow>> {
  const contest = await seasonOrCurrent(db, query.season);
  const [rows, total] = await Promise.all([
    repo.prizeRows(db, contest.id, query.kind, query, { limit: query.per_page, offset: (query.page - 1) * query.per_page }),
    repo.countPrizeRows(db, contest.id, query.kind, query),
  ]);
  return {
    items: rows.map((row) => ({
      contestant_id: row.contestant_id,
      rank: row.rank,
      tied: row.tied,
      name: row.name,
      school: row.school,
      district: row.district,
      class_name: row.class_name,
      points: row.points === null ? null : Number(row.points),
      duration_seconds: row.duration_seconds,
      detail: row.detail,
      prediction: row.prediction,
      prize: row.prize,
      amount: Number(row.amount),
      submitted_at: row.submitted_at ? formatInstant(row.submitted_at) : null,
      decided_by: deciding(row),
      note: resultNote(row),
    })),
    total,
    page: query.page,
    per_page: query.per_page,
  };
}
