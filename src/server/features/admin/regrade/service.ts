// Regrading a question of the current contest after a wrong answer key (issue 13). The organiser
// chooses a rule (new key, accept both answers, everyone gets the point), sees a dry run (the
// exams whose points change and the prizes that move), then commits: the rule is stored, the
// finished exams that drew the question are scored again in one transaction with the audit entry,
// exams still in progress are scored with the rule when they finish (the scoring SQL reads the
// rules in force), and stored results are computed again.
import { sql } from 'kysely';
import { regradeMessages } from '../../../../shared/messages';
import type { RegradeMode } from '../../../../shared/regrade-rules';
import { REGRADE_PER_PAGE, type PrizeChange, type RegradeCommitInput, type RegradePreviewInput } from '../../../../shared/schemas/admin-regrade';
import type { Db } from '../../../db/client';
import type { Contest } from '../../../db/schema';
import { appError, AppError, notFound } from '../../../lib/errors';
import type { Services } from '../../../services';
import type { AuthUser } from '../../../core/guard';
import { assertCurrentSeason, getCurrentContest, requireCurrentContest } from '../../../core/contest';
import { computeResults } from '../../results';
import { countExamPapers, getResultRun, loadFinishedAttempts, loadTieDecisions } from '../../../core/ranking/repo';
import { loadPrizeSettings } from '../../../core/ranking/settings';
import { recordAudit } from '../kit/audit';
import { prizeChangesOf } from './prize-changes';
import * as repo from './repo';
import { forgetCounts } from '../quality';

export type RegradeDeps = Pick<Services, 'db' | 'clock'>;
type Actor = Pick<AuthUser, 'id' | 'phone'>;
type RuleInput = { question_id: number; mode: RegradeMode; answer_id?: number };

interface Context {
  contest: Contest;
  question: repo.RegradeQuestion;
  rule: repo.ProposedRule;
  previousKey: number | null;
  current: { mode: RegradeMode; accepted_answer_ids: number[]; previous_key_answer_id: number | null } | null;
}

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && [...a].sort().every((id, i) => id === [...b].sort()[i]);

/** The rule the input asks for, checked against the question, its bank key and the rule in force. */
async function contextOf(db: Db, input: RuleInput): Promise<Context> {
  const contest = await requireCurrentContest(db);
  const question = await repo.findQuestion(db, input.question_id);
  if (!question) throw notFound(regradeMessages.questionNotFound);
  // A question of an earlier season's book: that season is read-only (its results are history).
  await assertCurrentSeason(db, question.season_id);
  const previousKey = question.answers.find((answer) => answer.is_correct)?.id ?? null;
  const current = (await repo.ruleInForce(db, contest.id, question.id)) ?? null;

  let accepted: number[] = [];
  if (input.mode !== 'everyone') {
    const answerId = input.answer_id!;
    if (!question.answers.some((answer) => answer.id === answerId)) {
      throw appError('input_refused', regradeMessages.answerNotOfQuestion, { answer_id: regradeMessages.answerNotOfQuestion });
    }
    // Accepting the key "as well", or moving the key where it already is without a rule to undo, changes nothing.
    if (answerId === previousKey && (input.mode === 'accept_both' || !current)) {
      throw appError('input_refused', regradeMessages.answerIsKey, { answer_id: regradeMessages.answerIsKey });
    }
    accepted = input.mode === 'accept_both' && previousKey !== null ? [previousKey, answerId] : [answerId];
    if (input.mode === 'accept_both' && previousKey === null) {
      throw appError('input_refused', regradeMessages.answerIsKey, { answer_id: regradeMessages.answerIsKey });
    }
  }
  if (current && current.mode === input.mode && sameIds(current.accepted_answer_ids, accepted)) {
    throw appError('input_refused', regradeMessages.sameRule, { mode: regradeMessages.sameRule });
  }
  return {
    contest,
    question,
    previousKey,
    current: current ? { mode: current.mode, accepted_answer_ids: current.accepted_answer_ids, previous_key_answer_id: current.previous_key_answer_id } : null,
    rule: { contestId: contest.id, questionId: question.id, bookId: question.book_id, mode: input.mode, acceptedAnswerIds: accepted },
  };
}

function summarise(scored: readonly repo.ScoredExam[], inProgress: number) {
  let gained = 0;
  let lost = 0;
  for (const exam of scored) {
    if (exam.points_after > exam.points_before) gained += 1;
    else if (exam.points_after < exam.points_before) lost += 1;
  }
  return { exams_affected: scored.length, exams_gained: gained, exams_lost: lost, exams_unchanged: scored.length - gained - lost, exams_in_progress: inProgress };
}

/** The finished exams that drew the question scored under the proposed rule; 409 when no exam drew it. */
async function scoreAll(db: Db, context: Context) {
  const [scored, inProgress] = await Promise.all([repo.scoreUnderRule(db, context.rule), repo.countInProgress(db, context.rule)]);
  if (scored.length === 0 && inProgress === 0) throw appError('question_not_used', regradeMessages.questionNotUsed);
  return { scored, summary: summarise(scored, inProgress) };
}

/** Prize changes when results have been computed: null otherwise (there is no prize to move yet). */
async function rankingChanges(db: Db, contestId: number, changed: readonly repo.ScoredExam[]) {
  const run = await getResultRun(db, contestId);
  if (!run) return null;
  const [attempts, examPapers, settings, tieDecisions] = await Promise.all([
    loadFinishedAttempts(db, contestId),
    countExamPapers(db, contestId),
    loadPrizeSettings(db, contestId),
    loadTieDecisions(db, contestId),
  ]);
  const schoolIds = [...new Set(attempts.map((a) => a.schoolId))];
  const sizes = schoolIds.length ? await db.selectFrom('schools').select(['id', 'pupil_count']).where('id', 'in', schoolIds).execute() : [];
  const raw = prizeChangesOf(
    { attempts, examPapers, settings, tieDecisions, schoolSizes: sizes.map((row) => ({ schoolId: row.id, pupilCount: row.pupil_count })) },
    new Map(changed.map((exam) => [exam.id, exam.points_after])),
  );
  const people = await repo.contestantsByIds(db, raw.flatMap((change) => (change.contestantId === null ? [] : [change.contestantId])));
  const schools = await repo.schoolNames(db, [...new Set(raw.map((change) => change.schoolId))]);
  const prizeChanges: PrizeChange[] = raw.map((change) => ({
    kind: change.kind,
    change: change.change,
    contestant_id: change.contestantId,
    name: change.contestantId === null ? `Lớp ${change.className}` : (people.get(change.contestantId)?.fullname ?? ''),
    school_name: schools.get(change.schoolId) ?? '',
    rank_before: change.rankBefore,
    rank_after: change.rankAfter,
    prize_before: change.prizeBefore,
    prize_after: change.prizeAfter,
  }));
  return { computed_at: run.computed_at.toISOString(), prize_changes: prizeChanges };
}

const ruleView = (mode: RegradeMode, accepted: number[], previousKey: number | null) => ({
  mode,
  accepted_answer_ids: accepted,
  previous_key_answer_id: previousKey,
});

/**
 * The dry run: nothing is written. The finished exams whose points the rule changes (a page of
 * them, most gained first), the counts, and the prize changes if results have been computed.
 */
export async function previewRegrade({ db }: RegradeDeps, input: RuleInput & Partial<Pick<RegradePreviewInput, 'page' | 'per_page'>>) {
  const page = input.page ?? 1;
  const perPage = input.per_page ?? REGRADE_PER_PAGE;
  const context = await contextOf(db, input);
  const { scored, summary } = await scoreAll(db, context);
  const changed = scored.filter((exam) => exam.points_after !== exam.points_before);
  changed.sort((a, b) => b.points_after - b.points_before - (a.points_after - a.points_before) || a.id - b.id);
  const pageRows = changed.slice((page - 1) * perPage, page * perPage);
  const people = await repo.contestantsByIds(db, pageRows.map((exam) => exam.contestant_id));
  const { question } = context;
  return {
    question: { id: question.id, value: question.value, book_id: question.book_id, book_name: question.book_name, answers: question.answers },
    rule: ruleView(input.mode, context.rule.acceptedAnswerIds, context.previousKey),
    current_rule: context.current,
    summary,
    exams: {
      items: pageRows.map((exam) => ({
        exam_id: exam.id,
        contestant_id: exam.contestant_id,
        fullname: people.get(exam.contestant_id)?.fullname ?? '',
        school_name: people.get(exam.contestant_id)?.school_name ?? '',
        attempt: exam.attempt,
        answer_id: exam.answer_id,
        points_before: exam.points_before,
        points_after: exam.points_after,
      })),
      total: changed.length,
      page,
      per_page: perPage,
    },
    ranking: await rankingChanges(db, context.contest.id, changed),
  };
}

/**
 * Commits a regrade in one transaction: the rule (replacing the question's previous one), the
 * bank's key for 'new_key', every finished exam that drew the question scored again, the audit
 * entry. Then the stored results, if any, are computed again (as they were: forced or not).
 */
export async function commitRegrade(deps: RegradeDeps, actor: Actor, input: RegradeCommitInput) {
  const { db, clock } = deps;
  const now = clock.now();
  const committed = await db.transaction().execute(async (trx) => {
    // Scoring reads question_regrades (correctCountSql): this lock makes every exam that finishes
    // while the regrade runs wait and then score with the new rule (a statement that waited for a
    // table lock takes its snapshot after it), and every exam that finished before be rescored
    // below. It also serialises regrades. Saves never read the table, so they do not wait.
    await sql`LOCK TABLE question_regrades IN ACCESS EXCLUSIVE MODE`.execute(trx);
    const context = await contextOf(trx, input);
    const { summary } = await scoreAll(trx, context);
    const { question, rule } = context;
    const regradeId = await repo.insertRegrade(trx, {
      contest_id: rule.contestId,
      question_id: question.id,
      book_id: question.book_id,
      mode: rule.mode,
      accepted_answer_ids: rule.acceptedAnswerIds,
      previous_key_answer_id: context.previousKey,
      reason: input.reason,
      actor_id: actor.id,
      actor_phone: actor.phone,
      created_at: now,
      exams_affected: summary.exams_affected,
      exams_gained: summary.exams_gained,
      exams_lost: summary.exams_lost,
      exams_in_progress: summary.exams_in_progress,
    });
    // Exams drawn from now on carry the corrected key in their snapshot as well.
    if (rule.mode === 'new_key') await repo.moveBankKey(trx, question.id, rule.acceptedAnswerIds[0]!);
    await repo.rescoreExams(trx, rule);
    // The book's question quality counted the old scoring: the next view counts again.
    await forgetCounts(trx, question.book_id);
    const answerText = (id: number) => question.answers.find((answer) => answer.id === id)?.value ?? `#${id}`;
    await recordAudit(trx, actor, {
      kind: 'question.regrade',
      movesResults: true,
      summary: `Chấm lại câu hỏi #${question.id} của sách "${question.book_name}": ${regradeMessages.modeLabels[rule.mode]} (${summary.exams_gained} bài tăng điểm, ${summary.exams_lost} bài giảm điểm)`,
      details: {
        regrade_id: regradeId,
        question_id: question.id,
        book_id: question.book_id,
        mode: rule.mode,
        reason: input.reason,
        before: { key_answer_id: context.previousKey, rule: context.current },
        after: { accepted_answer_ids: rule.acceptedAnswerIds, accepted_answers: rule.acceptedAnswerIds.map(answerText) },
        counts: summary,
      },
    });
    return { contestId: rule.contestId, regradeId, summary };
  });

  const run = await getResultRun(db, committed.contestId);
  let resultsRecomputed = false;
  let resultsNote: string | null = null;
  if (run) {
    try {
      await computeResults(deps, { contestId: committed.contestId, force: run.forced });
      resultsRecomputed = true;
    } catch (error) {
      // The regrade stands; the organiser computes the results again when the reason is gone.
      if (!(error instanceof AppError) || error.status !== 409) throw error;
      resultsNote = error.message;
    }
  }
  const regrade = (await repo.pageOfRegrades(db, committed.contestId, { page: 1, per_page: 1, id: committed.regradeId })).items[0]!;
  return { regrade, summary: committed.summary, results_recomputed: resultsRecomputed, results_note: resultsNote };
}

/** The regrades of the current contest, newest first (optionally of one book). */
export async function listRegrades({ db }: Pick<Services, 'db'>, query: { page: number; per_page: number; book_id?: number }) {
  const contest = await getCurrentContest(db);
  if (!contest) return { items: [], total: 0, page: query.page, per_page: query.per_page };
  return repo.pageOfRegrades(db, contest.id, query);
}
