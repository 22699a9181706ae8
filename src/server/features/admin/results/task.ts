// Computing the results from the back office, as a background task: its state in result_tasks, so
// that any app process answers its progress (the runner's rules: core/task-runner.ts). Starting one
// is written to the audit log in its transaction.
import { adminResultsMessages } from '../../../../shared/messages';
import type { ResultTaskView } from '../../../../shared/schemas/admin-results';
import type { ResultTask } from '../../../db/schema';
import { isUniqueViolation } from '../../../db/errors';
import { appError, AppError } from '../../../lib/errors';
import type { Services } from '../../../services';
import { requireCurrentContest } from '../../../core/contest';
import { assertExamWindowClosed, assertNoExamsInProgress } from '../../../core/results-rules';
import { isStale, startProgressWriter, STALE_MS } from '../../../core/task-runner';
import { finaliseOverdueExams } from '../../exams';
import { computeResults, type ComputeProgress } from '../../results';
import { recordAudit, type Actor } from '../kit/audit';
import * as repo from './repo';

export function taskView(task: ResultTask, now: Date): ResultTaskView {
  const dead = task.status === 'running' && isStale(task.heartbeat_at, now);
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
  if (!force) {
    assertExamWindowClosed(contest, now);
    await finaliseOverdueExams(db, clock);
    await assertNoExamsInProgress(db, contest.id);
  }
  const task = await db.transaction().execute(async (trx) => {
    await repo.failStaleTasks(trx, contest.id, new Date(now.getTime() - STALE_MS), now, adminResultsMessages.taskDied);
    let row: ResultTask;
    try {
      row = await repo.insertTask(trx, { contestId: contest.id, forced: force, startedBy: actor.id, now });
    } catch (error) {
      if (isUniqueViolation(error)) throw appError('results_computing', adminResultsMessages.computing);
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
 * Runs a task: computes (features/results) while writing the stage, the progress and a heartbeat
 * to the task's row, then its summary or its error. Progress writes go through the pool beside the
 * computation's transaction and never wait for each other (at most one in flight).
 */
export async function runComputeTask({ db, clock }: Pick<Services, 'db' | 'clock'>, task: { id: number; contestId: number; forced: boolean }) {
  let stage: ComputeProgress['stage'] | undefined;
  const progress = startProgressWriter<ComputeProgress>((current) => repo.updateTask(db, task.id, { ...(current ?? {}), heartbeat_at: clock.now() }));
  try {
    const summary = await computeResults(
      { db, clock },
      {
        force: task.forced,
        contestId: task.contestId,
        onProgress: (next) => {
          progress.report(next, { now: next.stage !== stage });
          stage = next.stage;
        },
      },
    );
    const last = await progress.stop();
    await repo.finishTask(db, task.id, {
      status: 'done',
      now: clock.now(),
      // The last progress (throttled writes may have skipped it): every row stored.
      progress: last ? { done: last.done, total: last.total } : undefined,
      summary: {
        participants: summary.participants,
        exam_papers: summary.examPapers,
        ties: summary.ties.length,
        crossing_ties: summary.ties.filter((tie) => tie.crosses_prize && !tie.decision).length,
      },
    });
  } catch (error) {
    await progress.stop();
    await repo.finishTask(db, task.id, { status: 'failed', now: clock.now(), error: error instanceof AppError ? error.message : adminResultsMessages.taskFailed });
    if (!(error instanceof AppError)) throw error;
  }
}
