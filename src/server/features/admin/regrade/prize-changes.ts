// What a regrade does to the prizes: the contest ranked twice in memory with the same pure
// rankContest and the stored prize settings, once with the points as they are and once with the
// points the regrade gives, then compared. School prizes depend on participation only (spec
// section 9), which a regrade does not change, so they are not compared.
import { classIdOf } from '../../../core/ranking/ranking';
import { rankContest, type ContestInput, type Standings } from '../../../core/ranking/standings';

export interface RawPrizeChange {
  kind: 'individual' | 'school_pupils' | 'teacher';
  change: 'gain' | 'lose' | 'change';
  /** Individual and school_pupils: the contestant; teacher: null. */
  contestantId: number | null;
  schoolId: number;
  /** Teacher prizes: the class key. */
  className: string | null;
  rankBefore: number | null;
  rankAfter: number | null;
  prizeBefore: string | null;
  prizeAfter: string | null;
}

/** The contest as rankContest takes it, without held prizes; the tie decisions so that the preview ranks as the computation will. */
export type RankingInput = Omit<ContestInput, 'held'>;

const changeOf = (before: string | null, after: string | null): RawPrizeChange['change'] | null =>
  before === after ? null : before === null ? 'gain' : after === null ? 'lose' : 'change';

/** Ranks the contest with the points as they are and with `newPoints` (exam id -> points), and lists every prize that differs. */
export function prizeChangesOf(input: RankingInput, newPoints: ReadonlyMap<number, number>): RawPrizeChange[] {
  const before = rankContest(input);
  const after = rankContest({ ...input, attempts: input.attempts.map((a) => (newPoints.has(a.examId) ? { ...a, points: newPoints.get(a.examId)! } : a)) });
  return comparePrizes(before, after, input.settings.tiers.school_pupils[0]?.name ?? null);
}

export function comparePrizes(before: Standings, after: Standings, schoolPupilsPrize: string | null): RawPrizeChange[] {
  const changes: RawPrizeChange[] = [];

  const individualAfter = new Map(after.individual.map((entry) => [entry.item.contestantId, entry]));
  for (const old of before.individual) {
    const now = individualAfter.get(old.item.contestantId)!;
    const change = changeOf(old.tier?.name ?? null, now.tier?.name ?? null);
    if (!change) continue;
    changes.push({
      kind: 'individual',
      change,
      contestantId: old.item.contestantId,
      schoolId: old.item.schoolId,
      className: null,
      rankBefore: old.rank,
      rankAfter: now.rank,
      prizeBefore: old.tier?.name ?? null,
      prizeAfter: now.tier?.name ?? null,
    });
  }

  for (const old of before.individual) {
    const id = old.item.contestantId;
    const change = changeOf(before.schoolTop.has(id) ? schoolPupilsPrize : null, after.schoolTop.has(id) ? schoolPupilsPrize : null);
    if (!change) continue;
    changes.push({
      kind: 'school_pupils',
      change,
      contestantId: id,
      schoolId: old.item.schoolId,
      className: null,
      rankBefore: before.schoolRank.get(id)?.rank ?? null,
      rankAfter: after.schoolRank.get(id)?.rank ?? null,
      prizeBefore: before.schoolTop.has(id) ? schoolPupilsPrize : null,
      prizeAfter: after.schoolTop.has(id) ? schoolPupilsPrize : null,
    });
  }

  // Classes: the same classes before and after (a regrade moves no pupil), ranked or not.
  const classAfter = new Map(after.classes.map((entry) => [classIdOf(entry.item), entry]));
  for (const old of before.classes) {
    const now = classAfter.get(classIdOf(old.item));
    const change = changeOf(old.tier?.name ?? null, now?.tier?.name ?? null);
    if (!change) continue;
    changes.push({
      kind: 'teacher',
      change,
      contestantId: null,
      schoolId: old.item.schoolId,
      className: old.item.className,
      rankBefore: old.rank,
      rankAfter: now?.rank ?? null,
      prizeBefore: old.tier?.name ?? null,
      prizeAfter: now?.tier?.name ?? null,
    });
  }
  return changes;
}
