// The results from the back office: computing as a background task (its state in result_tasks, so
// that any app process answers its progress), the ties that cross a prize boundary and the
// organiser's decisions on them, review, publishing and the overview's numbers. The exports are
// exports.ts. Every change is written to the audit log in its transaction.
import { adminResultsMessages, resultMessages } from '../../../../shared/messages';
import { formatDateTime } from '../../../../shared/format';
import { prizeKinds } from '../../../../shared/schemas/admin-contest';
import type {
  Ceremony,
  PrizeListQuery,
  PrizeRow,
  ResultsOverview,
  ResultTaskView,
  TieDecisionRequest,
  TieView,
} from '../../../../shared/schemas/admin-results';
import { tieScopeLabels } from '../../../../shared/schemas/admin-results';
import type { Page } from '../../../../shared/schemas/admin';
import type { Db } from '../../../db/client';
import type { Contest, ResultTask } from '../../../db/schema';
import { AppError, conflict, unprocessable } from '../../../lib/errors';
import type { Services } from '../../../services';
import type { AuthUser } from '../../../core/guard';
import { requireCurrentContest } from '../../../core/contest';
import { finaliseOverdueExams } from '../../exams';
import { computeResults, publishResults, storedTies, type ComputeProgress } from '../../results';
import { tierAtPlace, type Tier } from '../../../core/ranking/ranking';
import { countExamsInProgress, getResultRun } from '../../../core/ranking/repo';
import { loadPrizeSettings, type PrizeSettings } from '../../../core/ranking/settings';
import { tieGroupKey, type StoredTie } from '../../../core/ranking/standings';
import { recordAudit } from '../audit';
import * as repo from './repo';
import { isUniqueViolation } from '../../../db/errors';

type Actor = Pick<AuthUser, 'id' | 'phone'>;

/** The running process beats this often; a task without a beat for STALE_MS is taken as dead. */
const HEARTBEAT_MS = 5_000;
const STALE_MS = 30_000;
/** Progress is written at most this often (and at each new stage). */
const PROGRESS_MS = 500;



// The computation as a background task ------------------------------------------------------------

function taskView(task: ResultTask, now: Date): ResultTaskView {
  const dead = task.status === 'running' && now.getTime() - task.heartbeat_at.getTime() > STALE_MS;
  return {
    id: task.id,
    status: dead ? 'failed' : task.status,
    forced: task.forced,
    stage: task.stage,
    done: task.done,
    total: task.total,
    started_at: task.started_at.toISOString(),
    finished_at: task.finished_at?.toISOString() ?? null,
    error: dead ? adminResultsMessages.taskDied : task.error,
    summary: (task.summary as ResultTaskView['summary']) ?? null,
  };
}

export async function getTask({ db, clock }: Pick<Services, 'db' | 'clock'>): Promise<ResultTaskView | null> {
  const contest = await requireCurrentContest(db);
  const task = await repo.latestTask(db, contest.id);
  return task ? taskView(task, clock.now()) : null;
}

/**
 * Starts computing the current contest's results in the background of this process and answers
 * the task at once. Refused (409) before the exam window closes or while exams are in progress,
 * unless `force` (a draft, not publishable), and while another computation of the contest runs
 * in any process (the unique index on running tasks decides). A task whose process died is
 * marked failed first, so it never blocks a new one.
 */
export async function startCompute(
  deps: Pick<Services, 'db' | 'clock'>,
  actor: Actor,
  options: { force: boolean },
  onError: (error: unknown) => void = () => {},
): Promise<ResultTaskView> {
  const { db, clock } = deps;
  const contest = await requireCurrentContest(db);
  const now = clock.now();
  const { force } = options;
  if (!force && now < contest.exam_ends_at) {
    throw new AppError(409, 'results_too_early', resultMessages.resultsTooEarly(formatDateTime(contest.exam_ends_at)));
  }
  if (!force) {
    await finaliseOverdueExams(db, clock);
    const inProgress = await countExamsInProgress(db, contest.id);
    if (inProgress > 0) throw new AppError(409, 'exams_in_progress', resultMessages.examsStillInProgress(inProgress));
  }
  const task = await db.transaction().execute(async (trx) => {
    await repo.failStaleTasks(trx, contest.id, new Date(now.getTime() - STALE_MS), now, adminResultsMessages.taskDied);
    let row: ResultTask;
    try {
      row = await repo.insertTask(trx, { contestId: contest.id, forced: force, startedBy: actor.id, now });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(adminResultsMessages.computing, 'results_computing');
      throw error;
    }
    await recordAudit(trx, actor, {
      kind: 'results.compute',
      summary: force ? `Tính tạm kết quả ${contest.name} (chưa chính thức)` : `Tính kết quả ${contest.name}`,
      details: { task_id: row.id, forced: force },
    });
    return row;
  });
  void runComputeTask(deps, { id: task.id, contestId: contest.id, forced: force }).catch(onError);
  return taskView(task, now);
}

/**
 * Runs a task: computes (ranking/compute.ts) while writing the stage, the progress and a heartbeat
 * to the task's row, then its summary or its error. Progress writes go through the pool beside the
 * computation's transaction and never wait for each other (at most one in flight).
 */
export async function runComputeTask({ db, clock }: Pick<Services, 'db' | 'clock'>, task: { id: number; contestId: number; forced: boolean }) {
  let current: ComputeProgress | undefined;
  let inFlight: Promise<void> | undefined;
  let again = false;
  let lastWrite = 0;
  const flush = () => {
    if (inFlight) {
      again = true;
      return;
    }
    lastWrite = Date.now();
    inFlight = repo
      .updateTask(db, task.id, { ...(current ?? {}), heartbeat_at: clock.now() })
      .catch(() => {})
      .then(() => {
        inFlight = undefined;
        if (again) {
          again = false;
          flush();
        }
      });
  };
  const settled = async () => {
    while (inFlight) await inFlight;
  };
  const heartbeat = setInterval(flush, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    const summary = await computeResults(
      { db, clock },
      {
        force: task.forced,
        contestId: task.contestId,
        onProgress: (progress) => {
          const newStage = progress.stage !== current?.stage;
          current = progress;
          if (newStage || Date.now() - lastWrite >= PROGRESS_MS) flush();
        },
      },
    );
    clearInterval(heartbeat);
    await settled();
    await repo.finishTask(db, task.id, {
      status: 'done',
      now: clock.now(),
      // The last progress (throttled writes may have skipped it): every row stored.
      progress: current ? { done: current.done, total: current.total } : undefined,
      summary: {
        participants: summary.participants,
        exam_papers: summary.examPapers,
        ties: summary.ties.length,
        crossing_ties: summary.ties.filter((tie) => tie.crosses_prize && !tie.decision).length,
      },
    });
  } catch (error) {
    clearInterval(heartbeat);
    await settled();
    await repo.finishTask(db, task.id, { status: 'failed', now: clock.now(), error: error instanceof AppError ? error.message : adminResultsMessages.taskFailed });
    if (!(error instanceof AppError)) throw error;
  }
}

// Ties ----------------------------------------------------------------------------------------------

function tiersOfScope(settings: PrizeSettings, scope: StoredTie['scope']): Tier[] {
  if (scope === 'individual') return settings.tiers.individual;
  if (scope === 'schools') return settings.tiers.school;
  if (scope === 'classes') return settings.tiers.teacher;
  return settings.tiers.school_pupils.slice(0, 1);
}

/** Prize money of a tie when its members share the first place's prize, beyond giving the places one by one. */
function extraAmount(tie: StoredTie, tiers: Tier[]): number {
  const shared = tierAtPlace(tiers, tie.rank)?.amount ?? 0;
  let extra = 0;
  for (let place = tie.rank; place < tie.rank + tie.size; place += 1) extra += shared - (tierAtPlace(tiers, place)?.amount ?? 0);
  return extra;
}

async function describeTies(
  db: Db,
  contestId: number,
  ties: StoredTie[],
  settings: PrizeSettings,
  decisionState: (tie: StoredTie) => Pick<TieView, 'decision' | 'decision_state'>,
): Promise<TieView[]> {
  const pupilIds = ties.filter((tie) => tie.scope === 'individual' || tie.scope === 'school_pupils').flatMap((tie) => tie.ids.map(Number));
  const schoolIds = ties.filter((tie) => tie.scope === 'schools').flatMap((tie) => tie.ids.map(Number));
  const classSchoolIds = ties.filter((tie) => tie.scope === 'classes').flatMap((tie) => tie.ids.map((id) => Number(String(id).split(':')[0])));
  const pupilSchools = ties.flatMap((tie) => (tie.school_id ? [tie.school_id] : []));
  const [pupils, schools, classes] = await Promise.all([
    repo.pupilsOfResults(db, contestId, [...new Set(pupilIds)]),
    repo.schoolsOfResults(db, contestId, [...new Set([...schoolIds, ...pupilSchools])]),
    repo.classesOfResults(db, contestId, [...new Set(classSchoolIds)]),
  ]);
  const pupilById = new Map(pupils.map((row) => [row.contestant_id, row]));
  const schoolById = new Map(schools.map((row) => [row.id, row]));
  const classById = new Map(classes.map((row) => [`${row.school_id}:${row.class_name}`, row]));
  return ties.map((tie) => {
    const tiers = tiersOfScope(settings, tie.scope);
    const members = tie.ids.map((id) => {
      if (tie.scope === 'schools') {
        const school = schoolById.get(Number(id));
        return {
          id,
          name: school?.name ?? `#${id}`,
          school: null,
          class_name: null,
          points: null,
          duration_seconds: null,
          submitted_at: null,
          prediction: null,
          detail: school?.participants != null ? `${school.participants} học sinh dự thi / ${school.pupil_count} học sinh; điểm ${school.score!.toFixed(4)}` : null,
        };
      }
      if (tie.scope === 'classes') {
        const row = classById.get(String(id));
        return {
          id,
          name: `Lớp ${row?.class_name ?? String(id).split(':')[1]}${row?.teacher_name ? ` — GV ${row.teacher_name}` : ''}`,
          school: row?.school ?? null,
          class_name: row?.class_name ?? null,
          points: row ? Math.round(row.avg_points * 100) / 100 : null,
          duration_seconds: row ? Math.round(row.avg_duration_seconds) : null,
          submitted_at: null,
          prediction: null,
          detail: row ? `${row.participants} học sinh dự thi` : null,
        };
      }
      const pupil = pupilById.get(Number(id));
      return {
        id,
        name: pupil?.fullname ?? `#${id}`,
        school: pupil?.school ?? null,
        class_name: pupil?.class_name ?? null,
        points: pupil?.points ?? null,
        duration_seconds: pupil?.duration_seconds ?? null,
        submitted_at: pupil?.submitted_at.toISOString() ?? null,
        prediction: pupil?.prediction ?? null,
        detail: null,
      };
    });
    return {
      key: tieGroupKey(tie),
      scope: tie.scope,
      school_id: tie.school_id ?? null,
      school_name: tie.school_id ? (schoolById.get(tie.school_id)?.name ?? null) : null,
      rank: tie.rank,
      size: tie.size,
      crosses_prize: tie.crosses_prize,
      shared_prize: tierAtPlace(tiers, tie.rank)?.name ?? null,
      extra_amount: extraAmount(tie, tiers),
      ...decisionState(tie),
      members,
    };
  });
}

/**
 * Records the organiser's decision on a tie of the last computation (deciding again replaces it).
 * It takes effect at the next computation, and keeps applying while that group is found again.
 */
export async function decideTie({ db, clock }: Pick<Services, 'db' | 'clock'>, actor: Actor, input: TieDecisionRequest) {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const contest = await requireCurrentContest(trx);
    const run = await getResultRun(trx, contest.id);
    if (!run) throw conflict(resultMessages.notComputed, 'results_not_computed');
    const groupKey = tieGroupKey({ scope: input.scope, school_id: input.school_id, ids: input.ids });
    const tie = storedTies(run).find((candidate) => tieGroupKey(candidate) === groupKey);
    if (!tie) throw new AppError(404, 'tie_not_found', adminResultsMessages.tieNotFound);
    let ordered: (number | string)[] | null = null;
    if (input.decision === 'order') {
      const members = tie.ids.map(String).sort();
      const given = (input.order ?? []).map(String);
      if (given.length !== members.length || [...given].sort().some((id, index) => id !== members[index])) {
        throw unprocessable(adminResultsMessages.orderMustListMembers, 'invalid_input', { order: adminResultsMessages.orderMustListMembers });
      }
      // Kept with the members' own types (contestant ids are numbers, classes "schoolId:CLASS").
      const byText = new Map(tie.ids.map((id) => [String(id), id]));
      ordered = given.map((id) => byText.get(id)!);
    }
    const before = await repo.findTieDecision(trx, contest.id, groupKey);
    const saved = await repo.saveTieDecision(trx, {
      contest_id: contest.id,
      scope: tie.scope,
      school_id: tie.school_id ?? null,
      group_key: groupKey,
      member_ids: JSON.stringify(tie.ids),
      decision: input.decision,
      ordered_ids: ordered ? JSON.stringify(ordered) : null,
      reason: input.reason,
      decided_by: actor.id,
      decided_at: now,
    });
    const what = input.decision === 'share' ? 'cùng nhận giải cao hơn' : `xếp thứ tự ${ordered!.join(', ')}`;
    await recordAudit(trx, actor, {
      kind: 'results.tie_decision',
      summary: `Quyết định nhóm đồng hạng ${tie.rank} (${tieScopeLabels[tie.scope].toLowerCase()}, ${tie.size} bên): ${what}. Lý do: ${input.reason}`,
      details: {
        scope: tie.scope,
        school_id: tie.school_id ?? null,
        rank: tie.rank,
        members: tie.ids,
        before: before ? { decision: before.decision, order: before.ordered_ids, reason: before.reason } : null,
        after: { decision: input.decision, order: ordered, reason: input.reason },
      },
    });
    return {
      id: saved.id,
      key: saved.group_key,
      scope: saved.scope,
      decision: saved.decision,
      ordered_ids: saved.ordered_ids,
      member_ids: saved.member_ids,
      reason: saved.reason,
      decided_at: saved.decided_at.toISOString(),
      applicable: true,
    };
  });
}

// Overview and publishing ---------------------------------------------------------------------------

/** Why the results cannot be published now (empty when they can, or already are). */
function publishProblems(
  contest: Contest,
  run: Awaited<ReturnType<typeof getResultRun>>,
  undecided: number,
  running: boolean,
  now: Date,
): string[] {
  if (!run) return [resultMessages.notComputed];
  if (run.published_at) return [];
  const reasons: string[] = [];
  if (running) reasons.push(adminResultsMessages.computing);
  if (run.forced) reasons.push(resultMessages.notFinal);
  if (now < contest.results_at) reasons.push(resultMessages.publishTooEarly(formatDateTime(contest.results_at)));
  if (undecided) reasons.push(adminResultsMessages.tieUndecided(undecided));
  return reasons;
}

/** Crossing ties without a decision in the stored results, or with one taken after them. */
function undecidedTies(ties: StoredTie[], decisions: Awaited<ReturnType<typeof repo.listTieDecisions>>, computedAt: Date) {
  const byKey = new Map(decisions.map((decision) => [decision.group_key, decision]));
  return ties.filter((tie) => {
    if (!tie.crosses_prize) return false;
    const decision = byKey.get(tieGroupKey(tie));
    return !tie.decision || !decision || decision.decided_at > computedAt;
  });
}

export async function getOverview({ db, clock }: Pick<Services, 'db' | 'clock'>): Promise<ResultsOverview> {
  const contest = await requireCurrentContest(db);
  const now = clock.now();
  const [run, task, decisions, settings] = await Promise.all([
    getResultRun(db, contest.id),
    repo.latestTask(db, contest.id),
    repo.listTieDecisions(db, contest.id),
    loadPrizeSettings(db, contest.id),
  ]);
  const ties = run ? storedTies(run) : [];
  const keys = new Set(ties.map(tieGroupKey));
  const decisionByKey = new Map(decisions.map((decision) => [decision.group_key, decision]));
  const crossing = ties.filter((tie) => tie.crosses_prize);
  const tieViews = await describeTies(db, contest.id, crossing, settings, (tie) => {
    const decision = decisionByKey.get(tieGroupKey(tie));
    if (!decision) return { decision: null, decision_state: 'none' };
    const applied = tie.decision === decision.decision && decision.decided_at <= run!.computed_at;
    return { decision: decision.decision, decision_state: applied ? 'applied' : 'pending' };
  });
  const view = task ? taskView(task, now) : null;
  const undecided = run ? undecidedTies(ties, decisions, run.computed_at).length : 0;
  const reasons = publishProblems(contest, run, undecided, view?.status === 'running', now);
  return {
    contest: {
      id: contest.id,
      name: contest.name,
      exam_ends_at: contest.exam_ends_at.toISOString(),
      results_at: contest.results_at.toISOString(),
      window_closed: now >= contest.exam_ends_at,
    },
    run: run
      ? {
          computed_at: run.computed_at.toISOString(),
          forced: run.forced,
          participants: run.participants,
          exam_papers: run.exam_papers,
          published_at: run.published_at?.toISOString() ?? null,
        }
      : null,
    task: view,
    ties: tieViews,
    other_ties: ties.length - crossing.length,
    decisions: decisions.map((decision) => ({
      id: decision.id,
      key: decision.group_key,
      scope: decision.scope,
      decision: decision.decision,
      ordered_ids: decision.ordered_ids,
      member_ids: decision.member_ids,
      reason: decision.reason,
      decided_at: decision.decided_at.toISOString(),
      applicable: keys.has(decision.group_key),
    })),
    publish: { allowed: Boolean(run && !run.published_at) && reasons.length === 0, reasons },
    ceremony: run ? await ceremonyOf(db, contest.id, settings) : null,
  };
}

/**
 * Publishes the computed results (ranking/compute.ts publishResults: on or after the results date,
 * not a draft, every crossing tie decided), refused as well while a computation runs or a tie
 * decision waits for one. Publishing is final: there is no unpublish (families may already have
 * seen and downloaded their prizes; a correction is a recompute, which keeps the publication).
 */
export async function publish({ db, clock }: Pick<Services, 'db' | 'clock'>, actor: Actor): Promise<{ published_at: string }> {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const contest = await requireCurrentContest(trx);
    const task = await repo.latestTask(trx, contest.id);
    if (task && taskView(task, now).status === 'running') throw conflict(adminResultsMessages.computing, 'results_computing');
    const before = await getResultRun(trx, contest.id);
    if (before && !before.published_at && now >= contest.results_at && !before.forced) {
      const pending = undecidedTies(storedTies(before), await repo.listTieDecisions(trx, contest.id), before.computed_at);
      if (pending.length) throw conflict(adminResultsMessages.tieUndecided(pending.length), 'tie_undecided');
    }
    const run = await publishResults(trx, contest, now, actor.id);
    if (!before?.published_at) {
      await recordAudit(trx, actor, {
        kind: 'results.publish',
        summary: `Công bố kết quả ${contest.name} (${run.participants} thí sinh, tính lúc ${formatDateTime(run.computed_at)})`,
        details: { computed_at: run.computed_at.toISOString(), participants: run.participants, exam_papers: run.exam_papers },
      });
    }
    return { published_at: run.published_at!.toISOString() };
  });
}

// Review ------------------------------------------------------------------------------------------------

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

export async function ceremonyOfCurrent({ db }: Pick<Services, 'db'>) {
  const contest = await requireCurrentContest(db);
  if (!(await getResultRun(db, contest.id))) throw conflict(resultMessages.notComputed, 'results_not_computed');
  return { contest, ceremony: await ceremonyOf(db, contest.id, await loadPrizeSettings(db, contest.id)) };
}
