// The results' overview in the back office (the run, the task, the ties, what stops publishing)
// and publishing them (written to the audit log in its transaction).
import { adminResultsMessages, resultMessages } from '../../../../shared/messages';
import { formatDateTime } from '../../../../shared/format';
import type { PublishRequest, ResultsOverview } from '../../../../shared/schemas/admin-results';
import type { Contest } from '../../../db/schema';
import { appError } from '../../../lib/errors';
import type { Services } from '../../../services';
import { requireCurrentContest } from '../../../core/contest';
import { changesSince, resultChangeCount } from '../../../core/ranking/changes';
import { getResultRun } from '../../../core/ranking/repo';
import { loadPrizeSettings } from '../../../core/ranking/settings';
import { tieGroupKey } from '../../../core/ranking/standings';
import { publishResults, storedTies } from '../../results';
import { recordAudit, type Actor } from '../kit/audit';
import { ceremonyOf } from './ceremony';
import * as repo from './repo';
import { taskView } from './task';
import { describeTies, undecidedTies } from './ties';
import { listWithdrawals } from './withdrawals';

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

export async function getOverview({ db, clock }: Pick<Services, 'db' | 'clock'>): Promise<ResultsOverview> {
  const contest = await requireCurrentContest(db);
  const now = clock.now();
  const [run, task, decisions, settings, openFlags] = await Promise.all([
    getResultRun(db, contest.id),
    repo.latestTask(db, contest.id),
    repo.listTieDecisions(db, contest.id),
    loadPrizeSettings(db, contest.id),
    repo.countOpenFlags(db, contest.id),
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
  const changes = run ? await changesSince(db, contest.id, run.result_changes_seen) : null;
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
          out_of_date: changes?.count
            ? // The contest row read above: what a publish confirms (publishing reads it again, locked).
              { count: changes.count, through: contest.result_changes, changes: changes.items }
            : null,
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
    withdrawals: await listWithdrawals(db, contest.id),
    open_flags: openFlags,
  };
}

/**
 * Publishes the computed results (ranking/compute.ts publishResults: on or after the results date,
 * not a draft, every crossing tie decided), refused as well while a computation runs or a tie
 * decision waits for one, and, when changes that can move a prize were made since the computation,
 * unless the organiser confirms those very changes with a reason (written to the audit entry).
 * Publishing is final: there is no unpublish (families may already have seen and downloaded their
 * prizes; a correction is a recompute, which keeps the publication).
 */
export async function publish({ db, clock }: Pick<Services, 'db' | 'clock'>, actor: Actor, input: PublishRequest = {}): Promise<{ published_at: string }> {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const contest = await requireCurrentContest(trx);
    const task = await repo.latestTask(trx, contest.id);
    if (task && taskView(task, now).status === 'running') throw appError('results_computing', adminResultsMessages.computing);
    const before = await getResultRun(trx, contest.id);
    if (before && !before.published_at && now >= contest.results_at && !before.forced) {
      const pending = undecidedTies(storedTies(before), await repo.listTieDecisions(trx, contest.id), before.computed_at);
      if (pending.length) throw appError('tie_undecided', adminResultsMessages.tieUndecided(pending.length));
    }
    // Read locked: a change being made is waited for, and none is made until this commits.
    const through = await resultChangeCount(trx, contest.id, true);
    const outOfDate = before && !before.published_at ? through - before.result_changes_seen : 0;
    const confirmed = outOfDate > 0 ? input.out_of_date : undefined;
    if (outOfDate > 0 && now >= contest.results_at && !before!.forced) {
      const computedAt = formatDateTime(before!.computed_at);
      if (!confirmed) throw appError('results_out_of_date', adminResultsMessages.outOfDatePublishRefused(outOfDate, computedAt));
      if (confirmed.changes !== through) throw appError('results_out_of_date', adminResultsMessages.outOfDateChangedAgain);
    }
    const run = await publishResults(trx, contest, now, actor.id);
    if (!before?.published_at) {
      const stale = confirmed ? `; kết quả đã cũ (${outOfDate} thay đổi sau lần tính), lý do công bố: ${confirmed.reason}` : '';
      await recordAudit(trx, actor, {
        kind: 'results.publish',
        summary: `Công bố kết quả ${contest.name} (${run.participants} thí sinh, tính lúc ${formatDateTime(run.computed_at)}${stale})`,
        details: {
          computed_at: run.computed_at.toISOString(),
          participants: run.participants,
          exam_papers: run.exam_papers,
          ...(confirmed ? { out_of_date: { changes: outOfDate, reason: confirmed.reason } } : {}),
        },
      });
    }
    return { published_at: run.published_at!.toISOString() };
  });
}
