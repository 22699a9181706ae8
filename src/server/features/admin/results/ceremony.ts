// The prize ceremony's money: what the settings plan beside what the stored results give.
import { resultMessages } from '../../../../shared/messages';
import { prizeKinds } from '../../../../shared/schemas/admin-contest';
import type { Ceremony } from '../../../../shared/schemas/admin-results';
import type { Db } from '../../../db/client';
import { appError } from '../../../lib/errors';
import type { Services } from '../../../services';
import { seasonOrCurrent } from '../../../core/contest';
import { getResultRun } from '../../../core/ranking/repo';
import { loadPrizeSettings, type PrizeSettings } from '../../../core/ranking/settings';
import * as repo from './repo';

/**
 * The prize ceremony's money per tier: the settings' number of prizes × amount (for the spec's
 * settings: individual 41.000.000 đ, schools 18.000.000 đ, 2.100.000 đ of gifts per prized
 * school, teachers 6.000.000 đ) beside what the stored results give (a shared tie gives more).
 */
export async function ceremonyOf(db: Db, contestId: number, settings: PrizeSettings): Promise<Ceremony> {
  const counts = await repo.awardedCounts(db, contestId);
  const schoolPlaces = settings.tiers.school.reduce((sum, tier) => sum + tier.winners, 0);
  const tiers = prizeKinds.flatMap((kind) =>
    settings.tiers[kind].map((tier) => {
      const pupils = kind === 'school_pupils';
      const plannedWinners = pupils ? tier.winners * (settings.prizedSchoolsOnly ? schoolPlaces : counts.participatingSchools) : tier.winners;
      const winners = pupils ? (tier.position === 1 ? counts.schoolTop : 0) : (counts.byCode.get(tier.code) ?? 0);
      return {
        kind,
        code: tier.code,
        name: tier.name,
        amount: tier.amount,
        planned_winners: plannedWinners,
        planned_total: plannedWinners * tier.amount,
        winners,
        total: winners * tier.amount,
      };
    }),
  );
  return {
    tiers,
    planned_total: tiers.reduce((sum, tier) => sum + tier.planned_total, 0),
    total: tiers.reduce((sum, tier) => sum + tier.total, 0),
  };
}

/** The ceremony's money of the current season, or of an earlier one (`seasonId`, read-only). */
export async function ceremonyOfCurrent({ db }: Pick<Services, 'db'>, seasonId?: number) {
  const contest = await seasonOrCurrent(db, seasonId);
  if (!(await getResultRun(db, contest.id))) throw appError('results_not_computed', resultMessages.notComputed);
  return { contest, ceremony: await ceremonyOf(db, contest.id, await loadPrizeSettings(db, contest.id)) };
}
