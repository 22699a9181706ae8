// Reviewing the stored results in the back office: the prize winners, a page at a time.
import type { PrizeListQuery, PrizeRow } from '../../../../shared/schemas/admin-results';
import type { Page } from '../../../../shared/schemas/admin';
import type { Services } from '../../../services';
import { requireCurrentContest } from '../../../core/contest';
import * as repo from './repo';

export async function listPrizes({ db }: Pick<Services, 'db'>, query: PrizeListQuery): Promise<Page<PrizeRow>> {
  const contest = await requireCurrentContest(db);
  const [rows, total] = await Promise.all([
    repo.prizeRows(db, contest.id, query.kind, query, { limit: query.per_page, offset: (query.page - 1) * query.per_page }),
    repo.countPrizeRows(db, contest.id, query.kind, query),
  ]);
  return {
    items: rows.map(({ parent_phone: _phone, ...row }) => ({ ...row, amount: Number(row.amount), points: row.points === null ? null : Number(row.points) })),
    total,
    page: query.page,
    per_page: query.per_page,
  };
}
