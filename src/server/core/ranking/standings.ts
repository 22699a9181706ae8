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
  /** The organiser's decision applied to this group (tie_decisions), if any. */
  decision?: TieDecision['decision'];
}

/**
 * The organiser's decision on a tie group (by its members, whatever its rank now):
 * 'share' keeps the rule (every member gets the prize of the group's first place), 'order' gives
 * the members consecutive places in `order` (e.g. after a draw), so the tier keeps its number of
 * winners. Applied only while the ranking finds exactly the same group.
 */
export interface TieDecision {
  scope: StoredTie['scope'];
  school_id?: number | null;
  ids: readonly (number | string)[];
  decision: 'share' | 'order';
  /** Every member once, first place first ('order' only). */
  order?: readonly (number | string)[] | null;
}

/** One tie group whatever the order of its members: scope|school|sorted ids. */
export function tieGroupKey(tie: { scope: StoredTie['scope']; school_id?: number | null; ids: readonly (number | string)[] }): string {
  return `${tie.scope}|${tie.school_id ?? ''}|${tie.ids.map(String).sort().join(',')}`;
}

export interface ContestInput {
  attempts: readonly AttemptRow[];
  examPapers: number;
  /** Pupils of each school that has attempts (for the school ranking). */
  schoolSizes: readonly { schoolId: number; pupilCount: number }[];
  settings: PrizeSettings;
  /** The organiser's decisions on ties (optional: without them every tie shares its first place's prize). */
  tieDecisions?: readonly TieDecision[];
  /**
   * Contestants whose prize is withheld after an integrity review (prize_holds, decision 027):
   * ranked after every other contestant, individually and in their school, so the next pupil
   * takes the place; their class and school still count them.
   */
  held?: ReadonlySet<number>;
}

/** rankAttempts with the held contestants after all others (ranked among themselves, places continuing). */
function rankWithHeld(attempts: readonly AttemptRow[], examPapers: number, held: ReadonlySet<number>): Ranked<AttemptRow>[] {
  if (!held.size) return rankAttempts(attempts, examPapers);
  const free = attempts.filter((a) => !held.has(a.contestantId));
  const last = attempts.filter((a) => held.has(a.contestantId));
  return [...rankAttempts(free, examPapers), ...rankAttempts(last, examPapers).map((entry) => ({ ...entry, rank: entry.rank + free.length }))];
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

/**
 * Marks the ties that have a decision and applies the 'order' ones: the members of such a group
 * take the places rank, rank + 1, ... in the decided order and are no longer tied. Returns the
 * ranking to award prizes from (a new array when something was reordered).
 */
function applyDecisions<T>(ranked: Ranked<T>[], ties: StoredTie[], decisions: ReadonlyMap<string, TieDecision>, id: (item: T) => number | string): Ranked<T>[] {
  let result = ranked;
  for (const tie of ties) {
    const decision = decisions.get(tieGroupKey(tie));
    if (!decision) continue;
    tie.decision = decision.decision;
    if (decision.decision !== 'order' || !decision.order) continue;
    const place = new Map(decision.order.map((member, index) => [String(member), index]));
    if (result === ranked) result = ranked.map((entry) => ({ ...entry }));
    const start = result.findIndex((entry) => entry.rank === tie.rank);
    const group = result.slice(start, start + tie.size).sort((a, b) => place.get(String(id(a.item)))! - place.get(String(id(b.item)))!);
    group.forEach((entry, index) => {
      result[start + index] = { item: entry.item, rank: tie.rank + index, tied: false };
    });
  }
  return result;
}

export function rankContest({ attempts, examPapers, schoolSizes, settings, tieDecisions = [], held = new Set() }: ContestInput) {
  const best = bestAttempts(attempts, examPapers);
  const decisions = new Map(tieDecisions.map((decision) => [tieGroupKey(decision), decision]));

  // Individual ranking and prizes.
  const ties: StoredTie[] = [];
  const byRule = rankWithHeld(best, examPapers, held);
  const individualTies = tiesOf('individual', byRule, settings.tiers.individual, (a) => a.contestantId);
  const ranked = applyDecisions(byRule, individualTies, decisions, (a) => a.contestantId);
  const individual = awardTiers(ranked, settings.tiers.individual).awarded;
  ties.push(...individualTies);

  // Ranking inside each school.
  const bySchool = new Map<number, AttemptRow[]>();
  for (const attempt of best) {
    const list = bySchool.get(attempt.schoolId) ?? [];
    list.push(attempt);
    bySchool.set(attempt.schoolId, list);
  }
  const schoolRank = new Map<number, Ranked<AttemptRow>>();
  const rankedBySchool = new Map<number, Ranked<AttemptRow>[]>();
  const pupilsTier = settings.tiers.school_pupils[0];
  const pupilTies = new Map<number, StoredTie[]>();
  for (const [schoolId, list] of bySchool) {
    const byRuleInSchool = rankWithHeld(list, examPapers, held);
    const schoolTies = pupilsTier ? tiesOf('school_pupils', byRuleInSchool, [pupilsTier], (a) => a.contestantId, { school_id: schoolId }, true) : [];
    pupilTies.set(schoolId, schoolTies);
    const inSchool = applyDecisions(byRuleInSchool, schoolTies, decisions, (a) => a.contestantId);
    rankedBySchool.set(schoolId, inSchool);
    for (const entry of inSchool) schoolRank.set(entry.item.contestantId, entry);
  }

  // Schools: 50:50 participants and participation relative to size.
  const schoolsByRule = rankSchools(schoolSizes.filter((s) => bySchool.has(s.schoolId)).map((s) => ({ ...s, participants: bySchool.get(s.schoolId)!.length })));
  const schoolTies = tiesOf('schools', schoolsByRule, settings.tiers.school, (s) => s.schoolId);
  const rankedSchools = applyDecisions(schoolsByRule, schoolTies, decisions, (s) => s.schoolId);
  const schools = awardTiers(rankedSchools, settings.tiers.school).awarded;
  ties.push(...schoolTies);

  // The best pupils of each (prized) school.
  const schoolTop = new Map<number, number>();
  if (pupilsTier && pupilsTier.winners > 0) {
    const prizedSchools = new Set(schools.filter((s) => s.tier).map((s) => s.item.schoolId));
    for (const [schoolId, inSchool] of rankedBySchool) {
      if (settings.prizedSchoolsOnly && !prizedSchools.has(schoolId)) continue;
      for (const entry of awardTiers(inSchool, [pupilsTier]).awarded) if (entry.tier) schoolTop.set(entry.item.contestantId, entry.tier.amount);
      ties.push(...pupilTies.get(schoolId)!);
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
  const classesByRule = rankClasses([...classStats.values()], settings.classMinParticipants);
  const classTies = tiesOf('classes', classesByRule, settings.tiers.teacher, classIdOf);
  const rankedClasses = applyDecisions(classesByRule, classTies, decisions, classIdOf);
  const classes = awardTiers(rankedClasses, settings.tiers.teacher).awarded;
  const classByKey = new Map(classes.map((entry) => [classIdOf(entry.item), entry]));
  ties.push(...classTies);

  return { best, individual, schoolRank, schools, schoolTop, classStats: [...classStats.values()], classByKey, classes, ties };
}
