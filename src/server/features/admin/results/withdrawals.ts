// Withdrawing a pupil's prize (issue 23.6, decision 020): not the same act as revoking a
// certificate. The withdrawal is kept (prize_withdrawals, so every later computation stores the
// results without the prize), the stored result loses the prize at once, the prize's certificate
// is revoked, and the audit log records who, what and why, all in one transaction. The prize list,
// the ceremony's money, the exports and the family page all read the stored result: they agree.
import { sql } from 'kysely';
import { formatMoney } from '../../../../shared/format';
import { adminResultsMessages } from '../../../../shared/messages';
import type { PrizeWithdrawal, PrizeWithdrawalRequest } from '../../../../shared/schemas/admin-results';
import type { Db } from '../../../db/client';
import { placedContestants } from '../../../db/contestants';
import { appError } from '../../../lib/errors';
import type { Services } from '../../../services';
import { requireCurrentContest } from '../../../core/contest';
import { lockContestResults } from '../../results';
import { recordAudit, type Actor } from '../kit/audit';

const certificateKindOf = { individual: 'prize', school_pupils: 'top30' } as const;
const SCHOOL_PUPILS_PRIZE = 'Quà cho học sinh tiêu biểu của trường';

function withdrawalsQuery(db: Db, contestId: number) {
  return db
    .selectFrom('prize_withdrawals as w')
    .innerJoin(placedContestants(db).as('c'), 'c.id', 'w.contestant_id')
    .leftJoin('users as u', 'u.id', 'w.withdrawn_by')
    .select([
      'w.contestant_id',
      'c.fullname',
      'c.school',
      'w.kind',
      'w.prize_name',
      'w.amount',
      'w.reason',
      'w.withdrawn_at',
      sql<string>`coalesce(nullif(btrim(u.name), ''), u.phone, '')`.as('withdrawn_by'),
    ])
    .where('w.contest_id', '=', contestId);
}

const toView = (row: Awaited<ReturnType<ReturnType<typeof withdrawalsQuery>['execute']>>[number]): PrizeWithdrawal => ({
  ...row,
  withdrawn_at: row.withdrawn_at.toISOString(),
});

/** The contest's withdrawn prizes, newest first (the results page lists them). */
export async function listWithdrawals(db: Db, contestId: number): Promise<PrizeWithdrawal[]> {
  const rows = await withdrawalsQuery(db, contestId).orderBy('w.withdrawn_at', 'desc').orderBy('w.contestant_id').execute();
  return rows.map(toView);
}

/** POST /api/admin/results/withdrawals. 409 when the stored results give no such prize. */
export async function withdrawPrize({ db, clock }: Pick<Services, 'db' | 'clock'>, actor: Actor, input: PrizeWithdrawalRequest): Promise<PrizeWithdrawal> {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const contest = await requireCurrentContest(trx);
    // Waits for a computation that is storing results (it holds this lock), then sees its rows.
    await lockContestResults(trx, contest.id);
    const result = await trx
      .selectFrom('individual_results')
      .select(['prize_name', 'prize_amount', 'school_top', 'school_top_amount'])
      .where('contest_id', '=', contest.id)
      .where('contestant_id', '=', input.contestant_id)
      .forUpdate()
      .executeTakeFirst();
    const individual = input.kind === 'individual';
    const prize = individual
      ? result?.prize_name && { name: result.prize_name, amount: result.prize_amount ?? 0 }
      : result?.school_top && { name: SCHOOL_PUPILS_PRIZE, amount: result.school_top_amount ?? 0 };
    if (!prize) throw appError('no_prize_to_withdraw', adminResultsMessages.noPrizeToWithdraw);

    await trx
      .insertInto('prize_withdrawals')
      .values({ contest_id: contest.id, contestant_id: input.contestant_id, kind: input.kind, prize_name: prize.name, amount: prize.amount, reason: input.reason, withdrawn_by: actor.id, withdrawn_at: now })
      .execute();
    await trx
      .updateTable('individual_results')
      .set(individual ? { prize_code: null, prize_name: null, prize_amount: null } : { school_top: false, school_top_amount: null })
      .where('contest_id', '=', contest.id)
      .where('contestant_id', '=', input.contestant_id)
      .execute();
    // Its certificate no longer stands for anything: void, and never issued again (not entitled).
    const revoked = await trx
      .updateTable('certificates')
      .set({ revoked_at: now, revoked_by: actor.id, revoked_reason: `Rút giải: ${input.reason}` })
      .where('contest_id', '=', contest.id)
      .where('contestant_id', '=', input.contestant_id)
      .where('kind', '=', certificateKindOf[input.kind])
      .where('revoked_at', 'is', null)
      .returning('code')
      .execute();

    const view = toView(await withdrawalsQuery(trx, contest.id).where('w.contestant_id', '=', input.contestant_id).where('w.kind', '=', input.kind).executeTakeFirstOrThrow());
    await recordAudit(trx, actor, {
      kind: 'prize.withdraw',
      summary: `Rút ${prize.name} (${formatMoney(prize.amount)}) của ${view.fullname} – ${view.school}`,
      details: {
        contestant_id: input.contestant_id,
        contestant: view.fullname,
        kind: input.kind,
        prize: prize.name,
        amount: prize.amount,
        reason: input.reason,
        certificates_revoked: revoked.map((row) => row.code),
      },
    });
    return view;
  });
}
