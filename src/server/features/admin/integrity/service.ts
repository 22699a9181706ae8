// The integrity review (decision 027): start a screening in the background, list the flags with
// their evidence, and decide each (dismiss, or withhold a prize) with a reason, in the audit log.
import { sql } from 'kysely';
import { formatDateTime, formatProbability } from '../../../../shared/format';
import {
  integrityContactLabels,
  integrityFlagLabels,
  integrityMessages,
  type DismissFlagsRequest,
  type IntegrityFlag,
  type IntegrityFlagDetail,
  type IntegrityRunRequest,
  type WithholdRequest,
} from '../../../../shared/schemas/admin-integrity';
import type { Db } from '../../../db/client';
import type { AnswerMap, ExamQuestion, IntegrityFlagTable } from '../../../db/schema';
import { appError, AppError, notFound } from '../../../lib/errors';
import type { Services } from '../../../services';
import { requireCurrentContest } from '../../../core/contest';
import { recordAudit, type Actor } from '../kit/audit';
import * as repo from './repo';
import { screenContest } from './screen';
import { timelineOf } from './signals';
import { inStep } from './in-step';

const LOCK = 731646;
type Deps = Pick<Services, 'db' | 'clock'>;

/** Whether a screening of the contest runs in any process (it holds the advisory lock). */
async function isRunning(db: Db, contestId: number): Promise<boolean> {
  const { rows } = await sql<{ running: boolean }>`
    SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = ${LOCK} AND objid = ${contestId} AND granted) AS running`.execute(db);
  return rows[0]!.running;
}

export async function status({ db }: Deps) {
  const contest = await requireCurrentContest(db);
  const [running, run] = await Promise.all([isRunning(db, contest.id), db.selectFrom('integrity_runs').selectAll().where('contest_id', '=', contest.id).executeTakeFirst()]);
  return {
    running,
    review_correct_answers: contest.review_correct_answers,
    run: run
      ? {
          family_rate_percent: run.family_rate * 100,
          exams: run.exams,
          pairs: Number(run.pairs),
          tests: Number(run.tests),
          threshold: run.threshold,
          seconds: run.seconds,
          ran_at: run.ran_at.toISOString(),
        }
      : null,
  };
}

/**
 * Starts the screening of the current contest in the background of this process, once the
 * contest's lock is taken (409 while another runs, in any process); the run replaces the open
 * flags when it ends. `onError` hears of a run that failed after starting.
 */
export async function startRun({ db, clock }: Deps, actor: Actor, input: IntegrityRunRequest, onError: (error: unknown) => void = () => {}): Promise<void> {
  const contest = await requireCurrentContest(db);
  const familyRate = input.family_rate_percent / 100;
  let started!: () => void;
  let refused!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    started = resolve;
    refused = reject;
  });
  void db
    .transaction()
    .execute(async (trx) => {
      const { rows } = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${LOCK}, ${contest.id}) AS ok`.execute(trx);
      if (!rows[0]!.ok) throw appError('integrity_running', integrityMessages.running);
      started();
      const begun = performance.now();
      const result = await screenContest(trx, contest.id, familyRate, db);
      const seconds = (performance.now() - begun) / 1000;
      const ranAt = clock.now();
      await repo.storeRun(trx, contest.id, { family_rate: familyRate, exams: result.exams, pairs: result.pairs, tests: result.tests, threshold: result.threshold, seconds, ran_by: actor.id, ran_at: ranAt }, result.flags);
      const counts = Object.fromEntries(Object.keys(integrityFlagLabels).map((kind) => [kind, result.flags.filter((flag) => flag.kind === kind).length]));
      await recordAudit(trx, actor, {
        kind: 'integrity.run',
        summary: `Kiểm tra kết quả ${contest.name}: ${result.flags.length} cảnh báo (tỉ lệ báo nhầm cho phép ${input.family_rate_percent} %)`,
        details: { family_rate: familyRate, exams: result.exams, pairs: result.pairs, tests: result.tests, threshold: result.threshold, families: result.families, flags: counts },
      });
    })
    .catch((error: unknown) => {
      refused(error);
      if (!(error instanceof AppError)) onError(error);
    });
  await ready;
}

const flagRows = (db: Db, contestId: number) =>
  db
    .selectFrom('integrity_flags as f')
    .leftJoin('users as u', 'u.id', 'f.decided_by')
    .select(['f.id', 'f.kind', 'f.exam_id', 'f.other_exam_id', 'f.strength', 'f.status', 'f.reason', 'f.decided_at', 'f.contact', 'f.evidence', sql<string | null>`coalesce(nullif(btrim(u.name), ''), u.phone)`.as('decided_by')])
    .where('f.contest_id', '=', contestId);

type FlagRow = Awaited<ReturnType<ReturnType<typeof flagRows>['execute']>>[number];

async function examsOf(db: Db, contestId: number, examIds: readonly number[]) {
  if (!examIds.length) return new Map();
  const rows = await db
    .selectFrom('exams as e')
    .innerJoin('contestants as c', 'c.id', 'e.contestant_id')
    .innerJoin('schools as s', 's.id', 'c.school_id')
    .innerJoin('users as p', 'p.id', 'c.user_id')
    .leftJoin('class_rooms', 'class_rooms.id', 'c.class_room_id')
    .leftJoin('sessions as d', (join) => join.on(sql<boolean>`d.id = (e.answer_times ->> 's')::integer`))
    .leftJoin('prize_holds as h', (join) => join.onRef('h.contestant_id', '=', 'c.id').on('h.contest_id', '=', contestId))
    .select([
      'e.id',
      'e.contestant_id',
      'c.fullname',
      'c.user_id',
      'p.phone as parent_phone',
      's.name as school',
      sql<string>`coalesce(class_rooms.name, c.class_room_other, '')`.as('class_name'),
      'e.attempt',
      'e.points',
      'e.start_time',
      'e.submitted_at',
      'e.duration_seconds',
      'e.questions',
      'e.answer_key',
      'e.answers',
      'e.answer_times',
      'd.id as session_id',
      'd.user_agent',
      'd.ip',
      sql<boolean>`h.contestant_id IS NOT NULL`.as('held'),
    ])
    .where('e.contest_id', '=', contestId)
    .where('e.id', 'in', examIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
type ExamRow = Awaited<ReturnType<typeof examsOf>> extends Map<number, infer R> ? R : never;

const decimal = (value: number, digits = 2) => value.toLocaleString('vi-VN', { maximumFractionDigits: digits });

const tierLabel = (tier: unknown) => (tier === 'close' ? 'cặp chung tài khoản hoặc lần đăng nhập' : 'cặp cùng lớp');

/** The similarity flag's lines: one per test that fired (evidence.tests, strongest first; a flag of before the in-step test has the similarity fields at the top). */
function similaritySummary(evidence: Record<string, unknown>): string {
  const tests = (evidence.tests as string[] | undefined) ?? ['similarity'];
  return tests
    .map((test) => {
      const e = ((evidence.tests ? evidence[test] : evidence) ?? {}) as Record<string, unknown>;
      const n = (key: string) => Number(e[key] ?? 0);
      const threshold = e.threshold === undefined ? '' : `; ngưỡng báo của nhóm ${tierLabel(evidence.tier)}: p ≤ ${formatProbability(n('threshold'))}`;
      if (test === 'in_step') {
        // Pooled over several attempts taken together (evidence.attempts), or one pair of exams.
        const attempts = (e.attempts as unknown[] | undefined)?.length ?? 1;
        const over = attempts > 1 ? ` ở ${attempts} lượt thi làm cùng lúc: trong ${n('common')} câu hai bài của cùng lượt cùng trả lời` : `: hai bài làm cùng lúc; trong ${n('common')} câu cả hai cùng trả lời`;
        return `Trả lời theo sát${over}, ${n('events')} câu một bài trả lời giống hệt bài kia trong vòng ${n('window_seconds')} giây sau bài kia; xác suất ngẫu nhiên p = ${formatProbability(n('p'))}${threshold}.`;
      }
      return `${n('common')} câu cả hai bài cùng có; ${n('identical')} câu trả lời giống nhau, trong đó ${n('identical_wrong')} câu sai (hoặc bỏ trống) giống nhau; ω = ${decimal(n('omega'))}; xác suất ngẫu nhiên p = ${formatProbability(n('p'))}${threshold}.`;
    })
    .join(' ');
}

function summaryOf(kind: IntegrityFlagTable['kind'], evidence: Record<string, unknown>): string {
  const n = (key: string) => Number(evidence[key] ?? 0);
  if (kind === 'similarity') return similaritySummary(evidence);
  if (kind === 'speed') {
    return `${n('answered')} câu trả lời trong ${n('seconds')} giây kể từ lúc bắt đầu (${decimal(n('seconds_per_question'), 1)} giây/câu), ${n('right')} câu đúng.`;
  }
  return `${n('turns')} lần lưu bài xen kẽ giữa hai bài (cách nhau không quá 20 giây) từ cùng một lần đăng nhập.`;
}

/** An exam as the review shows it (none when it is not among `exams`). */
function examView(exams: Map<number, ExamRow>, id: number | null): IntegrityFlag['exams'] {
  const exam = id === null ? undefined : exams.get(id);
  if (!exam) return [];
  return [
    {
      exam_id: exam.id,
      contestant_id: exam.contestant_id,
      fullname: exam.fullname,
      school: exam.school,
      class_name: exam.class_name,
      attempt: exam.attempt,
      points: exam.points,
      start_time: exam.start_time.toISOString(),
      submitted_at: exam.submitted_at?.toISOString() ?? null,
      duration_seconds: exam.duration_seconds,
      device: exam.session_id === null ? null : { session_id: exam.session_id, user_agent: exam.user_agent, ip: exam.ip },
      held: exam.held,
    },
  ];
}

function flagView(row: FlagRow, exams: Map<number, ExamRow>): IntegrityFlag {
  const evidence = row.evidence as Record<string, unknown>;
  return {
    id: row.id,
    kind: row.kind,
    strength: row.strength,
    status: row.status,
    reason: row.reason,
    decided_by: row.decided_at ? row.decided_by : null,
    decided_at: row.decided_at?.toISOString() ?? null,
    contact: row.contact.map((c) => integrityContactLabels[c] ?? c),
    summary: summaryOf(row.kind, evidence),
    evidence,
    exams: [...examView(exams, row.exam_id), ...examView(exams, row.other_exam_id)],
    group: familyOf(exams, row),
  };
}

/** The family of a flag whose exams are all one parent account's children (a speed flag's one exam included). */
function familyOf(exams: Map<number, ExamRow>, row: FlagRow): IntegrityFlag['group'] {
  const first = exams.get(row.exam_id);
  const other = row.other_exam_id === null ? undefined : exams.get(row.other_exam_id);
  if (!first || (row.other_exam_id !== null && other?.user_id !== first.user_id)) return null;
  const names = [...new Set([first.fullname, ...(other ? [other.fullname] : [])])].join(', ');
  return { key: `family:${first.user_id}`, label: integrityMessages.familyGroup(first.parent_phone, names) };
}

/** The contest's flags: undecided first, then strongest first. */
export async function listFlags({ db }: Deps): Promise<IntegrityFlag[]> {
  const contest = await requireCurrentContest(db);
  const rows = await flagRows(db, contest.id)
    .orderBy(sql`f.status = 'open'`, 'desc')
    .orderBy('f.strength', 'desc')
    .orderBy('f.id')
    .limit(1000)
    .execute();
  const exams = await examsOf(db, contest.id, [...new Set(rows.flatMap((row) => (row.other_exam_id === null ? [row.exam_id] : [row.exam_id, row.other_exam_id])))]);
  return rows.map((row) => flagView(row, exams));
}

type InStepEvidence = { copier_exam_id?: number; attempts?: { copier_exam_id: number; source_exam_id: number }[] };

/** Two exams' answers side by side (the questions both drew first), the in-step answers of `copierId` marked. */
function sheetOf(list: ExamRow[], copierId: number | undefined): IntegrityFlagDetail['sheet'] {
  const questions = new Map<number, ExamQuestion>();
  for (const exam of list) for (const question of exam.questions as ExamQuestion[]) if (!questions.has(question.id)) questions.set(question.id, question);
  const timelines = list.map((exam) => timelineOf(exam.answer_times as Record<string, number>, exam.answers as AnswerMap));
  const copierIndex = list.length === 2 ? list.findIndex((exam) => exam.id === copierId) : -1;
  const secondsOf = (at: number | null | undefined) => (at === null || at === undefined ? null : new Date(at * 1000).toISOString());
  const sheet = [...questions.values()].map((question) => {
    const key = list.map((exam) => (exam.answer_key as AnswerMap)[question.id]).find((id) => id !== undefined) ?? null;
    const textOf = (id: number | undefined) => (id === undefined ? null : (question.answers.find((answer) => answer.id === id)?.value ?? null));
    const answers = list.map((exam, i) => {
      const drew = (exam.answer_key as AnswerMap)[question.id] !== undefined;
      const given = (exam.answers as AnswerMap)[question.id];
      const times = timelines[i]!.questions.get(question.id);
      return { drew, answer: drew ? textOf(given) : null, right: drew && given !== undefined && given === key, first_at: secondsOf(times?.first), answered_at: secondsOf(times?.last) };
    });
    const all = answers.length === 2 && answers.every((answer) => answer.drew);
    const identical = all && (list[0]!.answers as AnswerMap)[question.id] === (list[1]!.answers as AnswerMap)[question.id];
    const copierAt = timelines[copierIndex]?.questions.get(question.id)?.last;
    const sourceAt = timelines[1 - copierIndex]?.questions.get(question.id)?.last;
    const step = identical && copierIndex >= 0 && typeof copierAt === 'number' && typeof sourceAt === 'number' && inStep(copierAt, sourceAt);
    return {
      question_id: question.id,
      question: question.value,
      key: textOf(key ?? undefined),
      answers,
      identical,
      identical_wrong: identical && !answers[0]!.right,
      in_step_seconds: step ? copierAt - sourceAt : null,
    };
  });
  sheet.sort((a, b) => Number(b.answers.every((x) => x.drew)) - Number(a.answers.every((x) => x.drew)));
  return sheet;
}

/**
 * One flag with the answer sheets side by side; for an in-step test pooled over several attempts,
 * the other attempts' pairs of sheets too (`more`, in the flag's order of its two contestants).
 */
export async function flagDetail({ db }: Deps, flagId: number): Promise<IntegrityFlagDetail> {
  const contest = await requireCurrentContest(db);
  const row = await flagRows(db, contest.id).where('f.id', '=', flagId).executeTakeFirst();
  if (!row) throw notFound(integrityMessages.flagNotFound);
  const examIds = row.other_exam_id === null ? [row.exam_id] : [row.exam_id, row.other_exam_id];
  const evidence = row.evidence as { copier_exam_id?: number; in_step?: InStepEvidence };
  const others = (evidence.in_step?.attempts ?? []).filter((attempt) => !examIds.includes(attempt.copier_exam_id));
  const exams = await examsOf(db, contest.id, [...new Set([...examIds, ...others.flatMap((attempt) => [attempt.copier_exam_id, attempt.source_exam_id])])]);
  const view = flagView(row, exams);
  const listOf = (ids: number[]) => ids.map((id) => exams.get(id)).filter((exam): exam is ExamRow => Boolean(exam));
  // The in-step marks: the direction the evidence names (the copier's identical answer saved within the window after the other's).
  const sheet = sheetOf(listOf(examIds), evidence.in_step?.copier_exam_id ?? evidence.copier_exam_id);
  const firstContestant = exams.get(row.exam_id)?.contestant_id;
  const more = others.map((attempt) => {
    const ids = exams.get(attempt.copier_exam_id)?.contestant_id === firstContestant ? [attempt.copier_exam_id, attempt.source_exam_id] : [attempt.source_exam_id, attempt.copier_exam_id];
    return { exams: ids.flatMap((id) => examView(exams, id)), sheet: sheetOf(listOf(ids), attempt.copier_exam_id) };
  });
  return { ...view, sheet, more };
}

async function lockedOpenFlag(trx: Db, contestId: number, flagId: number) {
  const flag = await trx.selectFrom('integrity_flags').selectAll().where('contest_id', '=', contestId).where('id', '=', flagId).forUpdate().executeTakeFirst();
  if (!flag) throw notFound(integrityMessages.flagNotFound);
  if (flag.status !== 'open') throw appError('flag_decided', integrityMessages.alreadyDecided);
  return flag;
}

const kindLabel = (kind: IntegrityFlagTable['kind']) => integrityFlagLabels[kind].toLowerCase();

/** Dismisses an open flag with a reason (audited). */
export async function dismissFlag({ db, clock }: Deps, actor: Actor, flagId: number, reason: string): Promise<void> {
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    const contest = await requireCurrentContest(trx);
    const flag = await lockedOpenFlag(trx, contest.id, flagId);
    await trx.updateTable('integrity_flags').set({ status: 'dismissed', reason, decided_by: actor.id, decided_at: now }).where('id', '=', flag.id).execute();
    await recordAudit(trx, actor, {
      kind: 'integrity.dismiss',
      summary: `Bỏ qua cảnh báo "${kindLabel(flag.kind)}" số ${flag.id}`,
      details: { flag_id: flag.id, kind: flag.kind, exam_id: flag.exam_id, other_exam_id: flag.other_exam_id, reason },
    });
  });
}

/**
 * Dismisses several open flags (a family's) with one reason, all or none: one audit entry naming
 * them. A flag decided meanwhile refuses the whole request (409), so nothing is dismissed unseen.
 */
export async function dismissFlags({ db, clock }: Deps, actor: Actor, input: DismissFlagsRequest): Promise<void> {
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    const contest = await requireCurrentContest(trx);
    const flags = await trx
      .selectFrom('integrity_flags')
      .select(['id', 'kind', 'status', 'exam_id', 'other_exam_id'])
      .where('contest_id', '=', contest.id)
      .where('id', 'in', input.flag_ids)
      .orderBy('id')
      .forUpdate()
      .execute();
    if (flags.length !== input.flag_ids.length) throw notFound(integrityMessages.flagNotFound);
    const decided = flags.filter((flag) => flag.status !== 'open');
    if (decided.length) throw appError('flag_decided', integrityMessages.someDecided(decided.map((flag) => flag.id).join(', ')));
    await trx.updateTable('integrity_flags').set({ status: 'dismissed', reason: input.reason, decided_by: actor.id, decided_at: now }).where('id', 'in', input.flag_ids).execute();
    await recordAudit(trx, actor, {
      kind: 'integrity.dismiss',
      summary: `Bỏ qua ${flags.length} cảnh báo cùng một lý do: số ${flags.map((flag) => flag.id).join(', ')}`,
      details: { flag_ids: flags.map((flag) => flag.id), flags, reason: input.reason },
    });
  });
}

/**
 * Withholds the prize of a contestant of an open flag (reason audited): a row in prize_holds,
 * which the next computation of the results reads (the contestant ranked after all others). The
 * stored results do not change now.
 */
export async function withholdPrize({ db, clock }: Deps, actor: Actor, flagId: number, input: WithholdRequest): Promise<void> {
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    const contest = await requireCurrentContest(trx);
    const flag = await lockedOpenFlag(trx, contest.id, flagId);
    if (input.contestant_id !== flag.contestant_id && input.contestant_id !== flag.other_contestant_id) {
      throw appError('bad_request', integrityMessages.notInFlag, { contestant_id: integrityMessages.notInFlag });
    }
    const pupil = await trx.selectFrom('contestants').select('fullname').where('id', '=', input.contestant_id).executeTakeFirstOrThrow();
    await trx
      .insertInto('prize_holds')
      .values({ contest_id: contest.id, contestant_id: input.contestant_id, flag_id: flag.id, reason: input.reason, held_by: actor.id, held_at: now })
      .onConflict((oc) => oc.columns(['contest_id', 'contestant_id']).doNothing())
      .execute();
    await trx.updateTable('integrity_flags').set({ status: 'withheld', reason: input.reason, decided_by: actor.id, decided_at: now }).where('id', '=', flag.id).execute();
    await recordAudit(trx, actor, {
      kind: 'integrity.withhold',
      movesResults: true,
      summary: `Tạm giữ giải của ${pupil.fullname} (cảnh báo "${kindLabel(flag.kind)}" số ${flag.id}); áp dụng từ lần tính kết quả sau`,
      details: { flag_id: flag.id, kind: flag.kind, contestant_id: input.contestant_id, contestant: pupil.fullname, reason: input.reason, decided_at: formatDateTime(now) },
    });
  });
}
