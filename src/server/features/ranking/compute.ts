// Computes and stores the results of a contest: individual ranks and prizes, each school's best
// pupils, school prizes and teacher ('Giáo viên truyền lửa') prizes. Run after the exam window
// closes (npm run results:compute); re-running replaces the previous results in one transaction.
import { sql } from 'kysely';
import { resultMessages } from '../../../shared/messages';
import { formatDateTime } from '../../../shared/format';
import type { Db } from '../../db/client';
import type { Contest } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { getCurrentContest } from '../contest/repo';
import { finaliseOverdueExams } from '../exams/finalise';
import {
  classIdOf,
  awardTiers,
  bestAttempts,
  predictionDistance,
  rankAttempts,
  rankClasses,
  rankSchools,
  type ClassStat,
  type Ranked,
  type Tier,
} from './ranking';
import { countExamPapers, countExamsInProgress, insertInSlices, loadFinishedAttempts, type AttemptRow } from './repo';
import { loadPrizeSettings } from './settings';

export interface StoredTie {
  scope: 'individual' | 'school_pupils' | 'schools' | 'classes';
  school_id?: number;
  rank: number;
  size: number;
  crosses_prize: boolean;
  /** Contestant ids, school ids or "schoolId:class" keys of the tied entries. */
  ids: (number | string)[];
}

export interface ComputeSummary {
  contestId: number;
  examPapers: number;
  participants: number;
  forced: boolean;
  individualWinners: { contestantId: number; rank: number; tied: boolean; prize: string; amount: number }[];
  schoolWinners: { schoolId: number; rank: number; tied: boolean; score: number; prize: string; amount: number }[];
  schoolPupilWinners: number;
  classWinners: { schoolId: number; className: string; rank: number; tied: boolean; prize: string; amount: number }[];
  ties: StoredTie[];
}

export interface ComputeOptions {
  /** Compute before the window closes or while exams are still in progress (not final). */
  force?: boolean;
  contestId?: number;
}

const SLICE = 1000;

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

export async function computeResults(db: Db, clock: Clock, options: ComputeOptions = {}): Promise<ComputeSummary> {
  const contest: Contest | undefined = options.contestId
    ? await db.selectFrom('contests').selectAll().where('id', '=', options.contestId).executeTakeFirst()
    : await getCurrentContest(db);
  if (!contest) throw new AppError(404, 'no_contest', resultMessages.noContest);
  const now = clock.now();
  const forced = Boolean(options.force);
  if (!forced && now < contest.exam_ends_at) {
    throw new AppError(409, 'results_too_early', resultMessages.resultsTooEarly(formatDateTime(contest.exam_ends_at)));
  }
  // Exams abandoned before the deadline are scored first, so that they count.
  await finaliseOverdueExams(db, clock);
  const inProgress = await countExamsInProgress(db, contest.id);
  if (inProgress > 0 && !forced) throw new AppError(409, 'exams_in_progress', resultMessages.examsStillInProgress(inProgress));

  const settings = await loadPrizeSettings(db, contest.id);

  return db.transaction().execute(async (trx) => {
    // One computation at a time per contest: a second run waits, then replaces this one.
    await sql`SELECT pg_advisory_xact_lock(731645, ${contest.id})`.execute(trx);
    const attempts = await loadFinishedAttempts(trx, contest.id);
    const examPapers = await countExamPapers(trx, contest.id);
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
    const sizes = bySchool.size
      ? await trx.selectFrom('schools').select(['id', 'pupil_count']).where('id', 'in', [...bySchool.keys()]).execute()
      : [];
    const rankedSchools = rankSchools(sizes.map((s) => ({ schoolId: s.id, participants: bySchool.get(s.id)?.length ?? 0, pupilCount: s.pupil_count })));
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

    // Store: replace the previous results of the contest.
    await trx.deleteFrom('individual_results').where('contest_id', '=', contest.id).execute();
    await trx.deleteFrom('school_results').where('contest_id', '=', contest.id).execute();
    await trx.deleteFrom('class_results').where('contest_id', '=', contest.id).execute();
    await trx.deleteFrom('result_runs').where('contest_id', '=', contest.id).execute();

    await insertInSlices(individual, SLICE, (slice) =>
      trx
        .insertInto('individual_results')
        .values(
          slice.map((entry) => {
            const a = entry.item;
            const inSchool = schoolRank.get(a.contestantId)!;
            const distance = predictionDistance(a.prediction, examPapers);
            return {
              contest_id: contest.id,
              contestant_id: a.contestantId,
              exam_id: a.examId,
              school_id: a.schoolId,
              class_name: a.className,
              points: a.points,
              duration_seconds: a.durationSeconds,
              submitted_at: a.submittedAt,
              prediction: a.prediction,
              prediction_distance: Number.isFinite(distance) ? distance : null,
              rank: entry.rank,
              tied: entry.tied,
              school_rank: inSchool.rank,
              school_tied: inSchool.tied,
              prize_code: entry.tier?.code ?? null,
              prize_name: entry.tier?.name ?? null,
              prize_amount: entry.tier?.amount ?? null,
              school_top: schoolTop.has(a.contestantId),
              school_top_amount: schoolTop.get(a.contestantId) ?? null,
            };
          }),
        )
        .execute(),
    );
    await insertInSlices(schools, SLICE, (slice) =>
      trx
        .insertInto('school_results')
        .values(
          slice.map((entry) => ({
            contest_id: contest.id,
            school_id: entry.item.schoolId,
            participants: entry.item.participants,
            pupil_count: entry.item.pupilCount,
            score: entry.item.score,
            rank: entry.rank,
            tied: entry.tied,
            prize_code: entry.tier?.code ?? null,
            prize_name: entry.tier?.name ?? null,
            prize_amount: entry.tier?.amount ?? null,
          })),
        )
        .execute(),
    );
    await insertInSlices([...classStats.values()], SLICE, (slice) =>
      trx
        .insertInto('class_results')
        .values(
          slice.map((stat) => {
            const entry = classByKey.get(classIdOf(stat));
            return {
              contest_id: contest.id,
              school_id: stat.schoolId,
              class_name: stat.className,
              participants: stat.participants,
              avg_points: stat.totalPoints / stat.participants,
              avg_duration_seconds: stat.totalDurationSeconds / stat.participants,
              rank: entry?.rank ?? null,
              tied: entry?.tied ?? false,
              prize_code: entry?.tier?.code ?? null,
              prize_name: entry?.tier?.name ?? null,
              prize_amount: entry?.tier?.amount ?? null,
            };
          }),
        )
        .execute(),
    );
    await trx
      .insertInto('result_runs')
      .values({ contest_id: contest.id, computed_at: now, exam_papers: examPapers, participants: best.length, forced, ties: JSON.stringify(ties) })
      .execute();

    return {
      contestId: contest.id,
      examPapers,
      participants: best.length,
      forced,
      individualWinners: individual
        .filter((entry) => entry.tier)
        .map((entry) => ({ contestantId: entry.item.contestantId, rank: entry.rank, tied: entry.tied, prize: entry.tier!.name, amount: entry.tier!.amount })),
      schoolWinners: schools
        .filter((entry) => entry.tier)
        .map((entry) => ({ schoolId: entry.item.schoolId, rank: entry.rank, tied: entry.tied, score: entry.item.score, prize: entry.tier!.name, amount: entry.tier!.amount })),
      schoolPupilWinners: schoolTop.size,
      classWinners: classes
        .filter((entry) => entry.tier)
        .map((entry) => ({ schoolId: entry.item.schoolId, className: entry.item.className, rank: entry.rank, tied: entry.tied, prize: entry.tier!.name, amount: entry.tier!.amount })),
      ties,
    };
  });
}

/** Results are shown to families (and schools) from the contest's results date, once computed. */
export function resultsVisible(contest: Pick<Contest, 'results_at'>, now: Date, computed: boolean): boolean {
  return computed && now.getTime() >= contest.results_at.getTime();
}
