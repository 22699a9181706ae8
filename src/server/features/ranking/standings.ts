// The results of a contest from its finished attempts: individual ranks and prizes, each school's
// best pupils, school prizes and teacher ('Giáo viên truyền lửa') prizes. Pure (no database, no
// clock): compute.ts loads the attempts and the settings, calls rankContest and stores what it gives.
import {
  awardTiers,
  bestAttempts,
  classIdOf,
  rankAttempts,
  rankClasses,
  rankSchools,
  type ClassStat,
  type Ranked,
  type Tier,
} from './ranking';
import type { AttemptRow } from './repo';
import type { PrizeSettings } from './settings';

export interface StoredTie {
  scope: 'individual' | 'school_pupils' | 'schools' | 'classes';
  school_id?: number;
  rank: number;
  size: number;
  crosses_prize: boolean;
  /** Contestant ids, school ids or "schoolId:class" keys of the tied entries. */
  ids: (number | string)[];
}

export interface ContestInput {
  attempts: readonly AttemptRow[];
  examPapers: number;
  /** Pupils of each school that has attempts (for the school ranking). */
  schoolSizes: readonly { schoolId: number; pupilCount: number }[];
  settings: PrizeSettings;
}

export type Standings = ReturnType<typeof rankContest>;

function tiesOf<T>(scope: StoredTie['scope'], ranked: Ranked<T>[], tiers: Tier[], id: (item: T) => number | string, extra: Partial<StoredTie> = {}, onlyWithinPrizes = false): StoredTie[] {
  const placesWithPrize = tiers.reduce((sum, tier) => sum + tier.winners, 0);
  return awardTiers(ranked, tiers)
    .ties.filter((tie) => !onlyWithinPrizes || tie.rank <= placesWithPrize)
    .map((tie) => ({
      scope,
      ...extra,
      rank: tie.rank,
      size: tie.size,
      crosses_prize: tie.crossesPrize,
      ids: ranked.filter((entry) => entry.rank === tie.rank).map((entry) => id(entry.item)),
    }));
}

export function rankContest({ attempts, examPapers, schoolSizes, settings }: ContestInput) {
  const best = bestAttempts(attempts, examPapers);

  // Individual ranking and prizes.
  const ranked = rankAttempts(best, examPapers);
  const individual = awardTiers(ranked, settings.tiers.individual).awarded;
  const ties: StoredTie[] = tiesOf('individual', ranked, settings.tiers.individual, (a) => a.contestantId);

  // Ranking inside each school.
  const bySchool = new Map<number, AttemptRow[]>();
  for (const attempt of best) {
    const list = bySchool.get(attempt.schoolId) ?? [];
    list.push(attempt);
    bySchool.set(attempt.schoolId, list);
  }
  const schoolRank = new Map<number, Ranked<AttemptRow>>();
  const rankedBySchool = new Map<number, Ranked<AttemptRow>[]>();
  for (const [schoolId, list] of bySchool) {
    const inSchool = rankAttempts(list, examPapers);
    rankedBySchool.set(schoolId, inSchool);
    for (const entry of inSchool) schoolRank.set(entry.item.contestantId, entry);
  }

  // Schools: 50:50 participants and participation relative to size.
  const rankedSchools = rankSchools(schoolSizes.filter((s) => bySchool.has(s.schoolId)).map((s) => ({ ...s, participants: bySchool.get(s.schoolId)!.length })));
  const schools = awardTiers(rankedSchools, settings.tiers.school).awarded;
  ties.push(...tiesOf('schools', rankedSchools, settings.tiers.school, (s) => s.schoolId));

  // The best pupils of each (prized) school.
  const pupilsTier = settings.tiers.school_pupils[0];
  const schoolTop = new Map<number, number>();
  if (pupilsTier && pupilsTier.winners > 0) {
    for (const [schoolId, inSchool] of rankedBySchool) {
      const school = schools.find((s) => s.item.schoolId === schoolId);
      if (settings.prizedSchoolsOnly && !school?.tier) continue;
      for (const entry of awardTiers(inSchool, [pupilsTier]).awarded) if (entry.tier) schoolTop.set(entry.item.contestantId, entry.tier.amount);
      ties.push(...tiesOf('school_pupils', inSchool, [pupilsTier], (a) => a.contestantId, { school_id: schoolId }, true));
    }
  }

  // Classes for the teacher prizes.
  const classStats = new Map<string, ClassStat>();
  for (const attempt of best) {
    const key = classIdOf(attempt);
    const stat = classStats.get(key) ?? { schoolId: attempt.schoolId, className: attempt.className, participants: 0, totalPoints: 0, totalDurationSeconds: 0 };
    stat.participants += 1;
    stat.totalPoints += attempt.points;
    stat.totalDurationSeconds += attempt.durationSeconds;
    classStats.set(key, stat);
  }
  const rankedClasses = rankClasses([...classStats.values()], settings.classMinParticipants);
  const classes = awardTiers(rankedClasses, settings.tiers.teacher).awarded;
  const classByKey = new Map(classes.map((entry) => [classIdOf(entry.item), entry]));
  ties.push(...tiesOf('classes', rankedClasses, settings.tiers.teacher, classIdOf));

  return { best, individual, schoolRank, schools, schoolTop, classStats: [...classStats.values()], classByKey, classes, ties };
}
