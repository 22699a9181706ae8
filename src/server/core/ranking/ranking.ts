// The ranking rule of spec section 9, in one place: every report, export, certificate and the
// prize computation order contestants with these functions. Pure: no database, no clock.
//
// A contestant's result is their best finished attempt. Attempts (and so contestants) compare by
//   1. highest points,
//   2. then shortest duration (whole seconds),
//   3. then earliest submission, to the second (the precision a family sees: 08:00:01; two
//      submissions within the same second are equal here, decision 003),
//   4. then prediction closest to the real number of exam papers (no prediction ranks last).
// Contestants still equal after the four rules share a rank (competition ranking: 1, 1, 3) and are
// flagged `tied`; the order in which tied entries are listed (by id) is not a ranking.

export interface Attempt {
  examId: number;
  contestantId: number;
  /** 0..100 */
  points: number;
  /** Whole seconds from start to submission. */
  durationSeconds: number;
  submittedAt: Date;
  prediction: number | null;
}

/** |prediction - examPapers|; Infinity without a prediction (worse than any distance). */
export function predictionDistance(prediction: number | null, examPapers: number): number {
  return prediction === null ? Number.POSITIVE_INFINITY : Math.abs(prediction - examPapers);
}

/**
 * The second of a submission, the unit rule 3 compares: a difference finer than what a family is
 * shown (hh:mm:ss) is no fair tiebreak (issue 42: two siblings' prizes were decided by 16 ms).
 */
export function submissionSecond(submittedAt: Date): number {
  return Math.floor(submittedAt.getTime() / 1000);
}

/** < 0 when `a` ranks before `b`, > 0 after, 0 when the four rules cannot tell them apart. */
export function compareAttempts(a: Attempt, b: Attempt, examPapers: number): number {
  if (a.points !== b.points) return b.points - a.points;
  if (a.durationSeconds !== b.durationSeconds) return a.durationSeconds - b.durationSeconds;
  const submitted = submissionSecond(a.submittedAt) - submissionSecond(b.submittedAt);
  if (submitted !== 0) return submitted;
  const da = predictionDistance(a.prediction, examPapers);
  const db = predictionDistance(b.prediction, examPapers);
  if (da === db) return 0;
  return da < db ? -1 : 1;
}

/** Each contestant's best finished attempt (one entry per contestant, in no particular order). */
export function bestAttempts<T extends Attempt>(attempts: readonly T[], examPapers: number): T[] {
  const best = new Map<number, T>();
  for (const attempt of attempts) {
    const current = best.get(attempt.contestantId);
    // Equal attempts of one contestant cannot differ in what they show: keep the earlier exam.
    if (!current || compareAttempts(attempt, current, examPapers) < 0 || (compareAttempts(attempt, current, examPapers) === 0 && attempt.examId < current.examId)) {
      best.set(attempt.contestantId, attempt);
    }
  }
  return [...best.values()];
}

export interface Ranked<T> {
  item: T;
  /** 1-based competition rank: entries equal under the rule share the rank of the first. */
  rank: number;
  /** Another entry has the same rank. */
  tied: boolean;
}

/**
 * Sorts `items` by `compare` and gives competition ranks (1, 1, 3). `order` only decides how
 * entries of a tie are listed; it never changes a rank.
 */
export function rankBy<T>(items: readonly T[], compare: (a: T, b: T) => number, order: (a: T, b: T) => number): Ranked<T>[] {
  const sorted = [...items].sort((a, b) => compare(a, b) || order(a, b));
  const ranked: Ranked<T>[] = [];
  for (let i = 0; i < sorted.length; i += 1) {
    const item = sorted[i]!;
    const previous = ranked[i - 1];
    const sameAsPrevious = previous !== undefined && compare(previous.item, item) === 0;
    ranked.push({ item, rank: sameAsPrevious ? previous.rank : i + 1, tied: false });
    if (sameAsPrevious) {
      previous.tied = true;
      ranked[i]!.tied = true;
    }
  }
  return ranked;
}

/** Contestants (their best attempts) in ranking order. */
export function rankAttempts<T extends Attempt>(best: readonly T[], examPapers: number): Ranked<T>[] {
  return rankBy(best, (a, b) => compareAttempts(a, b, examPapers), (a, b) => a.contestantId - b.contestantId);
}

// Prize tiers ---------------------------------------------------------------------------------

export interface Tier {
  code: string;
  name: string;
  /** Order within its kind, 1 = highest. */
  position: number;
  winners: number;
  amount: number;
}

export interface TieGroup {
  rank: number;
  size: number;
  /** The tie spans the last prize place of a tier: every member gets the tier of `rank`, so
   *  the tier (or the prize list) has more winners than its setting. */
  crossesPrize: boolean;
}

/** The tier that place `place` (1-based) wins when `ordered` (by position, winners > 0) fill the places. */
function tierOfPlace(ordered: readonly Tier[], place: number): Tier | null {
  let last = 0;
  for (const tier of ordered) {
    last += tier.winners;
    if (place <= last) return tier;
  }
  return null;
}

/** The tier of a place among `tiers` (any order): 1 + 1 + 3 winners give places 1 | 2 | 3-5. */
export function tierAtPlace(tiers: readonly Tier[], place: number): Tier | null {
  return tierOfPlace([...tiers].filter((tier) => tier.winners > 0).sort((a, b) => a.position - b.position), place);
}

/**
 * The tier each rank wins. Tiers fill places in position order: with 1 + 1 + 3 winners, places
 * 1 | 2 | 3-5. An entry takes the tier of the place equal to its rank, so a tie takes the tier of
 * its first place for all its members (reported in `ties` with crossesPrize when it reaches past
 * that tier's last place, so the organiser decides, never a silent draw).
 */
export function awardTiers<T>(ranked: readonly Ranked<T>[], tiers: readonly Tier[]): { awarded: (Ranked<T> & { tier: Tier | null })[]; ties: TieGroup[] } {
  const ordered = [...tiers].filter((tier) => tier.winners > 0).sort((a, b) => a.position - b.position);
  const tierAtPlace = (place: number) => tierOfPlace(ordered, place);
  const awarded = ranked.map((entry) => ({ ...entry, tier: tierAtPlace(entry.rank) }));
  const ties: TieGroup[] = [];
  for (let i = 0; i < ranked.length; ) {
    let j = i;
    while (j + 1 < ranked.length && ranked[j + 1]!.rank === ranked[i]!.rank) j += 1;
    const size = j - i + 1;
    if (size > 1) {
      const rank = ranked[i]!.rank;
      ties.push({ rank, size, crossesPrize: tierAtPlace(rank) !== null && tierAtPlace(rank) !== tierAtPlace(rank + size - 1) });
    }
    i = j + 1;
  }
  return { awarded, ties };
}

// Schools ---------------------------------------------------------------------------------------

export interface SchoolParticipation {
  schoolId: number;
  /** Distinct contestants of the school with at least one finished exam. */
  participants: number;
  /** schools.pupil_count: the size of the school. */
  pupilCount: number;
}

/** Participation relative to size as an exact fraction, capped at 1; 0 when the size is unknown. */
function participationRate(school: SchoolParticipation): { num: bigint; den: bigint } {
  if (school.pupilCount <= 0) return { num: 0n, den: 1n };
  return { num: BigInt(Math.min(school.participants, school.pupilCount)), den: BigInt(school.pupilCount) };
}

export interface ScoredSchool extends SchoolParticipation {
  /** 0..1 for display; the ranking uses the exact fraction. */
  score: number;
  /** score = num / den exactly. */
  exact: { num: bigint; den: bigint };
}

/**
 * score = 0.5 × participants / (largest participants of any school)
 *       + 0.5 × rate / (largest rate of any school),  rate = min(1, participants / pupil_count)
 * (see SCHOOL_SCORE_FORMULA in src/shared/prizes.ts). Only schools with participants are scored.
 * Computed as an exact fraction so that equal scores are equal, not float-noise apart.
 */
export function scoreSchools(schools: readonly SchoolParticipation[]): ScoredSchool[] {
  const taking = schools.filter((school) => school.participants > 0);
  if (taking.length === 0) return [];
  const maxParticipants = BigInt(Math.max(...taking.map((school) => school.participants)));
  let maxRate = { num: 0n, den: 1n };
  for (const school of taking) {
    const rate = participationRate(school);
    if (rate.num * maxRate.den > maxRate.num * rate.den) maxRate = rate;
  }
  return taking.map((school) => {
    const p = BigInt(school.participants);
    const rate = participationRate(school);
    // 0.5·p/P + 0.5·(a/b)/(A/B) = (p·b·A + a·B·P) / (2·P·b·A); without rates the second term is 0.
    const exact =
      maxRate.num === 0n
        ? { num: p, den: 2n * maxParticipants }
        : { num: p * rate.den * maxRate.num + rate.num * maxRate.den * maxParticipants, den: 2n * maxParticipants * rate.den * maxRate.num };
    return { ...school, exact, score: Number((exact.num * 1_000_000n) / exact.den) / 1_000_000 };
  });
}

export function compareSchools(a: ScoredSchool, b: ScoredSchool): number {
  const left = a.exact.num * b.exact.den;
  const right = b.exact.num * a.exact.den;
  return left === right ? 0 : left > right ? -1 : 1;
}

export function rankSchools(schools: readonly SchoolParticipation[]): Ranked<ScoredSchool>[] {
  return rankBy(scoreSchools(schools), compareSchools, (a, b) => a.schoolId - b.schoolId);
}

// Classes ('Giáo viên truyền lửa') -------------------------------------------------------------

export interface ClassStat {
  schoolId: number;
  className: string;
  participants: number;
  /** Sums over the participants' best attempts. */
  totalPoints: number;
  totalDurationSeconds: number;
}

/**
 * Teacher prizes go to classes with at least `minParticipants` participants, ranked by
 * 1. highest average points of the participants' best attempts,
 * 2. then more participants,
 * 3. then shortest average duration of those attempts;
 * classes equal on all three share a rank (flagged). Averages compare as exact fractions.
 */
export function compareClasses(a: ClassStat, b: ClassStat): number {
  const points = b.totalPoints * a.participants - a.totalPoints * b.participants;
  if (points !== 0) return points;
  if (a.participants !== b.participants) return b.participants - a.participants;
  return a.totalDurationSeconds * b.participants - b.totalDurationSeconds * a.participants;
}

export function rankClasses(classes: readonly ClassStat[], minParticipants: number): Ranked<ClassStat>[] {
  return rankBy(
    classes.filter((stat) => stat.participants >= minParticipants),
    compareClasses,
    (a, b) => a.schoolId - b.schoolId || a.className.localeCompare(b.className),
  );
}

/** One class of one school (class names are already class keys: db/class-key.ts). */
export const classIdOf = (item: { schoolId: number; className: string }) => `${item.schoolId}:${item.className}`;
