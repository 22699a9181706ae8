// Computes and stores the results of a contest (the ranking itself is standings.ts, pure). Run
// after the exam window closes, from the back office (a background task: admin/results) or the
// CLI (npm run results:compute); re-running replaces the previous results in one transaction and
// applies the organiser's tie decisions (tie_decisions).
import { sql } from 'kysely';
import { adminResultsMessages, resultMessages } from '../../../shared/messages';
import { formatDateTime } from '../../../shared/format';
import type { Db } from '../../db/client';
import type { Contest, PrizeWithdrawalTable, ResultRun } from '../../db/schema';
import { appError } from '../../lib/errors';
import type { Services } from '../../services';
import { requireCurrentContest } from '../../core/contest';
import { assertExamWindowClosed, assertNoExamsInProgress } from '../../core/results-rules';
import { finaliseOverdueExams } from '../exams';
import { classIdOf, predictionDistance } from '../../core/ranking/ranking';
import { resultChangeCount } from '../../core/ranking/changes';
import { countExamPapers, insertInSlices, loadFinishedAttempts, loadTieDecisions } from '../../core/ranking/repo';
import { loadPrizeSettings } from '../../core/ranking/settings';
import { rankContest, type Standings, type StoredTie } from '../../core/ranking/standings';


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
  /** Told of each stage and, while storing, of the rows written so far (a background task shows it). */
  onProgress?: (progress: ComputeProgress) => void;
}

export interface ComputeProgress {
  stage: 'finalising' | 'loading' | 'ranking' | 'storing';
  done: number;
  total: number;
}

const SLICE = 1000;

/** What computeResults reads. */
export type ComputeDeps = Pick<Services, 'db' | 'clock'>;

export async function computeResults({ db, clock }: ComputeDeps, options: ComputeOptions = {}): Promise<ComputeSummary> {
  // A contest named by id is one the caller has (a task's, the CLI's): its absence is a fault.
  const contest: Contest = options.contestId
    ? await db.selectFrom('contests').selectAll().where('id', '=', options.contestId).executeTakeFirstOrThrow()
    : await requireCurrentContest(db);
  const now = clock.now();
  const forced = Boolean(options.force);
  if (!forced) assertExamWindowClosed(contest, now);
  // Before anything is read: a change committed after this count marks these results out of date.
  const resultChangesSeen = await resultChangeCount(db, contest.id);
  const progress = options.onProgress ?? (() => {});
  // Exams abandoned before the deadline are scored first, so that they count.
  progress({ stage: 'finalising', done: 0, total: 0 });
  await finaliseOverdueExams(db, clock);
  if (!forced) await assertNoExamsInProgress(db, contest.id);

  const settings = await loadPrizeSettings(db, contest.id);

  return db.transaction().execute(async (trx) => {
    // One computation at a time per contest: a second run waits, then replaces this one.
    await lockContestResults(trx, contest.id);
    progress({ stage: 'loading', done: 0, total: 0 });
    const attempts = await loadFinishedAttempts(trx, contest.id);
    const examPapers = await countExamPapers(trx, contest.id);
    const schoolIds = [...new Set(attempts.map((a) => a.schoolId))];
    const sizes = schoolIds.length ? await trx.selectFrom('schools').select(['id', 'pupil_count']).where('id', 'in', schoolIds).execute() : [];
    const tieDecisions = await loadTieDecisions(trx, contest.id);
    const withdrawn = await withdrawnPrizes(trx, contest.id);
    const held = await heldContestants(trx, contest.id);
    progress({ stage: 'ranking', done: 0, total: attempts.length });
    const standings = rankContest({
      attempts,
      examPapers,
      settings,
      schoolSizes: sizes.map((row) => ({ schoolId: row.id, pupilCount: row.pupil_count })),
      tieDecisions,
      held,
    });
    await storeResults(trx, { contestId: contest.id, computedAt: now, forced, examPapers, resultChangesSeen }, standings, withdrawn, held, progress);
    const { best, individual, schools, schoolTop, classes, ties } = standings;
    return {
      contestId: contest.id,
      examPapers,
      participants: best.length,
      forced,
      individualWinners: individual
        .filter((entry) => entry.tier && !held.has(entry.item.contestantId) && !withdrawn.has(withdrawalKey(entry.item.contestantId, 'individual')))
        .map((entry) => ({ contestantId: entry.item.contestantId, rank: entry.rank, tied: entry.tied, prize: entry.tier!.name, amount: entry.tier!.amount })),
      schoolWinners: schools
        .filter((entry) => entry.tier)
        .map((entry) => ({ schoolId: entry.item.schoolId, rank: entry.rank, tied: entry.tied, score: entry.item.score, prize: entry.tier!.name, amount: entry.tier!.amount })),
      schoolPupilWinners: [...schoolTop.keys()].filter((id) => !held.has(id) && !withdrawn.has(withdrawalKey(id, 'school_pupils'))).length,
      classWinners: classes
        .filter((entry) => entry.tier)
        .map((entry) => ({ schoolId: entry.item.schoolId, className: entry.item.className, rank: entry.rank, tied: entry.tied, prize: entry.tier!.name, amount: entry.tier!.amount })),
      ties,
    };
  });
}

const withdrawalKey = (contestantId: number, kind: PrizeWithdrawalTable['kind']) => `${contestantId}:${kind}`;

/** The prizes the organiser withdrew (prize_withdrawals), as withdrawalKey()s. */
async function withdrawnPrizes(db: Db, contestId: number): Promise<Set<string>> {
  const rows = await db.selectFrom('prize_withdrawals').select(['contestant_id', 'kind']).where('contest_id', '=', contestId).execute();
  return new Set(rows.map((row) => withdrawalKey(row.contestant_id, row.kind)));
}

/**
 * The contestants whose prize is withheld after an integrity review (prize_holds, decision 027):
 * rankContest ranks them after all others, so the next pupil takes the place (a withdrawal keeps
 * the places). Read under the results lock, as the withdrawals.
 */
async function heldContestants(db: Db, contestId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('prize_holds').select('contestant_id').where('contest_id', '=', contestId).execute();
  return new Set(rows.map((row) => row.contestant_id));
}

/**
 * Replaces the stored results of a contest with `standings` (inside the caller's transaction),
 * without the withdrawn prizes: the contestant keeps the rank, nobody else gets the prize.
 */
async function storeResults(
  trx: Db,
  run: { contestId: number; computedAt: Date; forced: boolean; examPapers: number; resultChangesSeen: number },
  standings: Standings,
  withdrawn: Set<string>,
  held: ReadonlySet<number>,
  progress: (progress: ComputeProgress) => void,
) {
  const { contestId, examPapers } = run;
  const { best, individual, schoolRank, schools, schoolTop, classStats, classByKey, ties } = standings;
  const total = individual.length + schools.length + classStats.length;
  let done = 0;
  const stored = (rows: number) => progress({ stage: 'storing', done: (done += rows), total });
  stored(0);
  // Store: replace the previous results of the contest.
  await trx.deleteFrom('individual_results').where('contest_id', '=', contestId).execute();
  await trx.deleteFrom('school_results').where('contest_id', '=', contestId).execute();
  await trx.deleteFrom('class_results').where('contest_id', '=', contestId).execute();

  await insertInSlices(individual, SLICE, (slice) =>
    trx
      .insertInto('individual_results')
      .values(
        slice.map((entry) => {
          const a = entry.item;
          const inSchool = schoolRank.get(a.contestantId)!;
          const distance = predictionDistance(a.prediction, examPapers);
          // A held contestant is ranked last (rankContest); in a contest with more prizes than pupils it still gets none.
          const tier = withdrawn.has(withdrawalKey(a.contestantId, 'individual')) || held.has(a.contestantId) ? undefined : entry.tier;
          const schoolTopAmount = withdrawn.has(withdrawalKey(a.contestantId, 'school_pupils')) || held.has(a.contestantId) ? undefined : schoolTop.get(a.contestantId);
          return {
            contest_id: contestId,
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
            prize_code: tier?.code ?? null,
            prize_name: tier?.name ?? null,
            prize_amount: tier?.amount ?? null,
            school_top: schoolTopAmount !== undefined,
            school_top_amount: schoolTopAmount ?? null,
            held: held.has(a.contestantId),
          };
        }),
      )
      .execute()
      .then(() => stored(slice.length)),
  );
  await insertInSlices(schools, SLICE, (slice) =>
    trx
      .insertInto('school_results')
      .values(
        slice.map((entry) => ({
          contest_id: contestId,
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
      .execute()
      .then(() => stored(slice.length)),
  );
  await insertInSlices(classStats, SLICE, (slice) =>
    trx
      .insertInto('class_results')
      .values(
        slice.map((stat) => {
          const entry = classByKey.get(classIdOf(stat));
          return {
            contest_id: contestId,
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
      .execute()
      .then(() => stored(slice.length)),
  );
  // The run is replaced, its publication kept: published results stay public when recomputed.
  const values = {
    computed_at: run.computedAt,
    exam_papers: examPapers,
    participants: best.length,
    forced: run.forced,
    ties: JSON.stringify(ties),
    result_changes_seen: run.resultChangesSeen,
  };
  await trx
    .insertInto('result_runs')
    .values({ contest_id: contestId, ...values })
    .onConflict((oc) => oc.column('contest_id').doUpdateSet(values))
    .execute();

}

/** Held by whoever writes a contest's stored results (a computation, a prize withdrawal) until its transaction ends. */
export async function lockContestResults(trx: Db, contestId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(731645, ${contestId})`.execute(trx);
}

/** The ties stored with a computation (result_runs.ties). */
export function storedTies(run: Pick<ResultRun, 'ties'>): StoredTie[] {
  return Array.isArray(run.ties) ? (run.ties as StoredTie[]) : [];
}

/** Results (prizes, prize certificates) are shown to families and schools once published. */
export function resultsPublished(run: Pick<ResultRun, 'published_at'> | undefined): boolean {
  return Boolean(run?.published_at);
}

/**
 * Publishes the computed results of a contest (in the caller's transaction, so that the caller can
 * write the audit entry with it): on or after the results date, and only results computed after
 * the exam window closed. Publishing again changes nothing.
 */
export async function publishResults(trx: Db, contest: Contest, now: Date, userId: number | null): Promise<ResultRun> {
  const run = await trx.selectFrom('result_runs').selectAll().where('contest_id', '=', contest.id).forUpdate().executeTakeFirst();
  if (!run) throw appError('results_not_computed', resultMessages.notComputed);
  if (now < contest.results_at) throw appError('results_too_early', resultMessages.publishTooEarly(formatDateTime(contest.results_at)));
  if (run.forced) throw appError('results_not_final', resultMessages.notFinal);
  if (run.published_at) return run;
  // A tie that crosses a prize boundary is published only once the organiser's decision on it is
  // in the stored results (a decision taken after the computation needs a recompute).
  const undecided = storedTies(run).filter((tie) => tie.crosses_prize && !tie.decision);
  if (undecided.length) throw appError('tie_undecided', adminResultsMessages.tieUndecided(undecided.length));
  return trx
    .updateTable('result_runs')
    .set({ published_at: now, published_by: userId })
    .where('contest_id', '=', contest.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
