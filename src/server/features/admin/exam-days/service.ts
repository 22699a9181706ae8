// The exam days in the back office: the live dashboard and the incident desk.
//
// The dashboard is polled every few seconds by every organiser's browser while up to tens of
// thousands of children save answers, so its aggregates do not run per request: the figures are
// stored in one row (dashboard_snapshots) with the moment they were computed, by a background job
// (refreshDashboard, jobs.ts) in the one process that wins an advisory lock, every few seconds
// while the exam window is open and every minute otherwise, and only while an organiser watches
// (a dashboard request reached this process in the last minute: its counts are a fifth of
// PostgreSQL's time under an exam-day load, not to be paid for nobody). A request only reads (on
// a replica when one is usable): the stored row while it is fresh, otherwise figures counted for
// it alone, and notes in this process's memory that the dashboard is watched.
import { readFromReplica } from '../../../db/replicas';
import {
  extensionProblems,
  extraAttemptProblems,
  incidentLimits,
  type AutosaveHealth,
  type Dashboard,
  type DashboardQuery,
  type DashboardRow,
  type ExtensionBody,
  type ExtraAttemptBody,
  type IncidentContestant,
  type IncidentSearchQuery,
} from '../../../../shared/schemas/admin-exam-days';
import { examDaysMessages } from '../../../../shared/messages';
import { formatDate, formatDateTime } from '../../../../shared/format';
import { contestAttemptsOf, SAVE_GRACE_SECONDS } from '../../../../shared/rules';
import type { Db } from '../../../db/client';
import { foldText } from '../../../db/fold';
import type { Services } from '../../../services';
import type { AuthUser } from '../../../core/guard';
import { appError, notFound } from '../../../lib/errors';
import { booksWithFewerQuestions, getCurrentContest, requireCurrentContest } from '../../../core/contest';
import { recordAudit, type AuditEntryInput } from '../kit/audit';
import * as repo from './repo';
import { vietnamDayStart } from '../../../core/activity-counts';

type Deps = Pick<Services, 'db' | 'clock' | 'reads'>;
type Actor = Pick<AuthUser, 'id' | 'phone'>;

/** How old the stored dashboard may grow while the exam window is open before the job stores a new one (ms). */
export const DASHBOARD_MAX_AGE_MS = 5_000;
/** The same outside the window, when nothing moves but registrations (ms). */
export const DASHBOARD_IDLE_MAX_AGE_MS = 60_000;
/** A request serves the stored dashboard while it is younger than this (ms): two of the job's periods in the window. */
export const DASHBOARD_SERVED_FOR_MS = 2 * DASHBOARD_MAX_AGE_MS;
/** The job keeps the dashboard fresh for this long (ms) after a request for it reached this process. */
export const DASHBOARD_WATCHED_FOR_MS = 60_000;

/**
 * When a dashboard request last reached this process, per database: a hint for the job, lost with
 * the process at no cost (the next request counts for itself), so not the contest's state.
 */
const lastWatched = new WeakMap<object, number>();
/** A process that has not reported its counters for this long is gone (ms). */
export const PROCESS_ALIVE_MS = 60_000;
/** How old the registration counts (parents, contestants per district, school, group) may be (ms). */
export const REGISTRATIONS_MAX_AGE_MS = 60_000;
const PROCESS_FORGET_MS = 3_600_000;
export const SCHOOLS_PER_PAGE = 20;
const SEARCH_LIMIT = 20;

export { vietnamDayStart };

// Dashboard ------------------------------------------------------------------------------------

/** What is stored: every school (the request filters and pages them), and the registrations with when they were counted. */
type StoredDashboard = Omit<Dashboard, 'schools' | 'short_books' | 'questions_per_exam'> & {
  schools: DashboardRow[];
  registrations: repo.Registrations;
  registrations_counted_at: string;
};

const byActivity = (a: DashboardRow, b: DashboardRow) =>
  b.in_progress - a.in_progress || b.started_today - a.started_today || b.contestants - a.contestants || a.name.localeCompare(b.name, 'vi');

/** The autosave figures of the processes alive: each row holds its counters now and about a minute ago. */
export function autosaveHealth(rows: Awaited<ReturnType<typeof repo.liveProcessCounters>>): AutosaveHealth {
  let acknowledged = 0;
  let within2s = 0;
  let perMinute = { saves: 0, rejected: 0, shed: 0 };
  let windowSeconds = 0;
  for (const row of rows) {
    const seconds = (row.updated_at.getTime() - row.baseline_at.getTime()) / 1000;
    if (seconds <= 0) continue;
    const delta = (key: keyof repo.AutosaveCounters) => Math.max(0, row.counters[key] - row.baseline[key]);
    acknowledged += delta('acknowledged');
    within2s += delta('within_2s');
    perMinute = {
      saves: perMinute.saves + (delta('acknowledged') * 60) / seconds,
      rejected: perMinute.rejected + (delta('rejected') * 60) / seconds,
      shed: perMinute.shed + (delta('shed') * 60) / seconds,
    };
    windowSeconds = Math.max(windowSeconds, seconds);
  }
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    processes: rows.length,
    window_seconds: Math.round(windowSeconds),
    saves_per_minute: round(perMinute.saves),
    acknowledged_within_2s: acknowledged > 0 ? within2s / acknowledged : null,
    rejected_per_minute: round(perMinute.rejected),
    shed_per_minute: round(perMinute.shed),
  };
}

/** The units' lines added up by their former province ("Tỉnh cũ", decision 038); none when no unit has one. */
function byFormerProvince(districts: DashboardRow[], labels: Map<string, { former_province?: string }>): DashboardRow[] {
  const sums = new Map<string, DashboardRow>();
  for (const line of districts) {
    const province = labels.get(`district:${line.id}`)?.former_province ?? '';
    if (!province) continue;
    const sum = sums.get(province) ?? { id: sums.size + 1, name: province, district: '', contestants: 0, in_progress: 0, started_today: 0, finished_today: 0 };
    sum.contestants += line.contestants;
    sum.in_progress += line.in_progress;
    sum.started_today += line.started_today;
    sum.finished_today += line.finished_today;
    sums.set(province, sum);
  }
  return [...sums.values()].sort((a, b) => a.name.localeCompare(b.name, 'vi'));
}

/**
 * Runs the aggregates (the caller holds the dashboard lock). Registrations change slowly: they are
 * recounted at most every REGISTRATIONS_MAX_AGE_MS and otherwise taken from the previous snapshot.
 */
async function computeDashboard(db: Db, now: Date, previous: StoredDashboard | undefined): Promise<StoredDashboard> {
  const contest = await getCurrentContest(db);
  const dayStart = vietnamDayStart(now);
  // An exam past its deadline and grace is over, even before the sweep scores it.
  const inProgressSince = new Date(now.getTime() - SAVE_GRACE_SECONDS * 1000);
  const contestId = contest?.id ?? 0;
  const reuse =
    previous?.registrations !== undefined && now.getTime() - Date.parse(previous.registrations_counted_at) < REGISTRATIONS_MAX_AGE_MS;
  const [registrations, activity, hours, rows, processes] = await Promise.all([
    reuse ? previous.registrations : repo.registrations(db),
    repo.activityTotals(db, contestId, dayStart, inProgressSince),
    repo.startedPerHour(db, contestId, dayStart),
    repo.activityRows(db, contestId, dayStart, inProgressSince),
    repo.liveProcessCounters(db, new Date(now.getTime() - PROCESS_ALIVE_MS)),
  ]);
  const labels = new Map(registrations.names.map((n) => [`${n.level}:${n.id}`, n]));

  // Every line with contestants or with activity today, named.
  const lines = new Map<string, DashboardRow & { level: repo.Level }>();
  const lineOf = (level: repo.Level, id: number) => {
    const key = `${level}:${id}`;
    let line = lines.get(key);
    if (!line) {
      const label = labels.get(key);
      line = { level, id, name: label?.name ?? `#${id}`, district: label?.district ?? '', contestants: 0, in_progress: 0, started_today: 0, finished_today: 0 };
      lines.set(key, line);
    }
    return line;
  };
  for (const row of registrations.rows) lineOf(row.level, row.id).contestants = row.contestants;
  for (const row of rows) Object.assign(lineOf(row.level, row.id), { in_progress: row.in_progress, started_today: row.started_today, finished_today: row.finished_today });
  const level = (name: repo.Level) => [...lines.values()].filter((line) => line.level === name).map(({ level: _level, ...line }) => line);

  return {
    computed_at: now.toISOString(),
    today: formatDate(now),
    window: contest
      ? {
          starts_at: contest.exam_starts_at.toISOString(),
          ends_at: contest.exam_ends_at.toISOString(),
          open: contest.exam_starts_at <= now && now < contest.exam_ends_at,
        }
      : null,
    totals: { parents: registrations.parents, contestants: registrations.contestants, ...activity },
    started_per_hour: hours,
    districts: level('district').sort((a, b) => a.name.localeCompare(b.name, 'vi')),
    former_provinces: byFormerProvince(level('district'), labels),
    class_groups: level('class_group').sort((a, b) => a.id - b.id),
    schools: level('school').sort(byActivity),
    autosave: autosaveHealth(processes),
    registrations,
    registrations_counted_at: reuse ? previous.registrations_counted_at : now.toISOString(),
  };
}

/**
 * The background job (jobs.ts, every DASHBOARD_MAX_AGE_MS in every process): while the dashboard is
 * watched through this process, the process that wins the advisory lock stores a new dashboard
 * when the stored one is due, and forgets the counters of processes long gone. The figures are counted on a replica when one is usable. Returns 0 (a
 * snapshot every few seconds is not worth a log line).
 */
export async function refreshDashboard(deps: Deps): Promise<number> {
  const { db, clock } = deps;
  const watched = lastWatched.get(db);
  if (watched === undefined || clock.now().getTime() - watched > DASHBOARD_WATCHED_FOR_MS) return 0;
  await db.transaction().execute(async (trx) => {
    if (!(await repo.tryDashboardLock(trx))) return;
    const now = clock.now();
    const stored = await repo.readSnapshot(trx);
    const contest = await getCurrentContest(trx);
    const windowOpen = contest !== undefined && contest.exam_starts_at <= now && now < contest.exam_ends_at;
    // A second early, so that a tick a little late still finds it due.
    const maxAge = (windowOpen ? DASHBOARD_MAX_AGE_MS : DASHBOARD_IDLE_MAX_AGE_MS) - 1_000;
    if (stored && now.getTime() - stored.computed_at.getTime() < maxAge) return;
    // Without a replica, in this transaction (PGlite has one connection).
    const data = await readFromReplica({ db: trx, reads: deps.reads }, (figures) => computeDashboard(figures, now, stored?.data as StoredDashboard | undefined));
    await repo.writeSnapshot(trx, now, data);
    await repo.deleteStaleProcessCounters(trx, new Date(now.getTime() - PROCESS_FORGET_MS));
  });
  return 0;
}

/** The stored dashboard while it is fresh; otherwise figures counted now for this request, not stored (a read never writes). */
async function currentDashboard(deps: Deps): Promise<StoredDashboard> {
  const { clock } = deps;
  lastWatched.set(deps.db, clock.now().getTime());
  return readFromReplica(deps, async (db) => {
    const stored = await repo.readSnapshot(db);
    const now = clock.now();
    if (stored && now.getTime() - stored.computed_at.getTime() < DASHBOARD_SERVED_FOR_MS) return stored.data as StoredDashboard;
    return computeDashboard(db, now, stored?.data as StoredDashboard | undefined);
  });
}

export async function getDashboard(deps: Deps, query: DashboardQuery): Promise<Dashboard> {
  const { registrations: _registrations, registrations_counted_at: _countedAt, ...stored } = await currentDashboard(deps);
  const needle = query.school_q ? foldText(query.school_q) : '';
  const schools = needle ? stored.schools.filter((s) => foldText(`${s.name} ${s.district}`).includes(needle)) : stored.schools;
  const page = Math.max(1, Math.min(query.school_page, Math.ceil(schools.length / SCHOOLS_PER_PAGE) || 1));
  // Read at each request (a few rows, an index each): a bank filled a minute ago is no longer short.
  const { shortBooks, perExam } = await readFromReplica(deps, async (db) => {
    const perExam = (await getCurrentContest(db))?.questions_per_exam ?? 0;
    return { perExam, shortBooks: await booksWithFewerQuestions(db, perExam) };
  });
  return {
    ...stored,
    // A dashboard stored before 0046 has no such lines.
    former_provinces: stored.former_provinces ?? [],
    // Families are not offered these books (catalog's listBooksOfGroup): the organiser must see them.
    short_books: shortBooks,
    questions_per_exam: perExam,
    schools: {
      items: schools.slice((page - 1) * SCHOOLS_PER_PAGE, page * SCHOOLS_PER_PAGE),
      total: schools.length,
      page,
      per_page: SCHOOLS_PER_PAGE,
    },
  };
}

// Incidents ------------------------------------------------------------------------------------

/** Attempts a contestant may take: the contest's (at most 3), plus one when the organiser gave it. */
export const attemptsAllowed = (contestAttempts: number | undefined, hasExtra: boolean) =>
  contestAttemptsOf(contestAttempts) + (hasExtra ? incidentLimits.extraAttemptsPerContestant : 0);

async function describe(db: Db, now: Date, rows: Awaited<ReturnType<typeof repo.findContestants>>): Promise<IncidentContestant[]> {
  const [contest, attempts] = await Promise.all([getCurrentContest(db), repo.attemptsOf(db, rows.map((r) => r.id))]);
  const base = contestAttemptsOf(contest?.attempts_per_contestant);
  return rows.map((row) => {
    const hasExtra = row.extra_reason !== null;
    const allowed = attemptsAllowed(contest?.attempts_per_contestant, hasExtra);
    const own = attempts.filter((a) => a.contestant_id === row.id);
    return {
      id: row.id,
      fullname: row.fullname,
      parent_phone: row.parent_phone,
      parent_name: row.parent_name,
      school: row.school,
      district: row.district,
      class: row.class ?? '',
      class_group: row.class_group,
      attempts_allowed: allowed,
      attempts_left: Math.max(0, allowed - own.length),
      extra_attempt: hasExtra
        ? { reason: row.extra_reason!, granted_at: row.extra_granted_at!.toISOString(), granted_by: row.extra_granted_by ?? '', used: own.length > base }
        : null,
      attempts: own.map((a) => ({
        id: a.id,
        attempt: a.attempt,
        book: a.book,
        status: a.status,
        start_time: a.start_time.toISOString(),
        end_time: a.end_time.toISOString(),
        saved_at: a.saved_at?.toISOString() ?? null,
        answers_saved: Number(a.answers_saved),
        questions: Number(a.questions),
        submitted_at: a.submitted_at?.toISOString() ?? null,
        points: a.points,
        extension_minutes: a.extension_minutes,
        extra: a.extra_attempt_of !== null || (hasExtra && a.attempt > base),
        extendable: a.status === 2 && a.end_time > now && a.extension_minutes < incidentLimits.extensionMinutesMax,
      })),
    };
  });
}

export async function searchContestants({ db, clock }: Deps, query: IncidentSearchQuery) {
  const phoneDigits = (query.phone ?? '').replace(/\D/g, '');
  const foldedName = foldText((query.name ?? '').replace(/\s+/g, ' ').trim());
  if (phoneDigits.length < 3 && foldedName.length < 2) {
    const errors = { phone: examDaysMessages.searchTooShort, name: examDaysMessages.searchTooShort };
    throw appError('input_refused', examDaysMessages.searchTooShort, errors);
  }
  const rows = await repo.findContestants(
    db,
    { phoneDigits: phoneDigits.length >= 3 ? phoneDigits : undefined, foldedName: foldedName.length >= 2 ? foldedName : undefined, schoolId: query.school_id },
    SEARCH_LIMIT + 1,
  );
  return { items: await describe(db, clock.now(), rows.slice(0, SEARCH_LIMIT)), more: rows.length > SEARCH_LIMIT };
}

async function contestantView(db: Db, now: Date, contestantId: number): Promise<IncidentContestant> {
  const rows = await repo.findContestants(db, { contestantId }, 1);
  if (rows.length === 0) throw notFound(examDaysMessages.contestantNotFound);
  return (await describe(db, now, rows))[0]!;
}

export async function getContestant({ db, clock }: Deps, contestantId: number) {
  return contestantView(db, clock.now(), contestantId);
}

/** The reason of a grant or a withdrawal, trimmed; 422 with the form's problems when it is refused. */
function extraAttemptReason(body: ExtraAttemptBody): string {
  const problems = extraAttemptProblems(body);
  if (Object.keys(problems).length > 0) throw appError('input_refused', Object.values(problems)[0]!, problems);
  return body.reason.trim();
}

/** What a grant or a withdrawal of the extra attempt works on inside its transaction. */
interface ExtraAttemptChange {
  trx: Db;
  contestant: NonNullable<Awaited<ReturnType<typeof repo.lockContestant>>>;
  contest: Awaited<ReturnType<typeof requireCurrentContest>>;
  reason: string;
  now: Date;
}

/**
 * The common part of a grant and a withdrawal: the reason checked, the contestant locked (404 when
 * there is none) with the current contest, the change made and its audit entry written in one
 * transaction, then the contestant as the incident desk shows it.
 */
async function changeExtraAttempt(
  { db, clock }: Deps,
  actor: Actor,
  contestantId: number,
  body: ExtraAttemptBody,
  change: (on: ExtraAttemptChange) => Promise<AuditEntryInput>,
) {
  const reason = extraAttemptReason(body);
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    const contestant = await repo.lockContestant(trx, contestantId);
    if (!contestant) throw notFound(examDaysMessages.contestantNotFound);
    const contest = await requireCurrentContest(trx);
    await recordAudit(trx, actor, await change({ trx, contestant, contest, reason, now }));
  });
  return contestantView(db, now, contestantId);
}

export function giveExtraAttempt(deps: Deps, actor: Actor, contestantId: number, body: ExtraAttemptBody) {
  return changeExtraAttempt(deps, actor, contestantId, body, async ({ trx, contestant, contest, reason, now }) => {
    if (await repo.findExtraAttempt(trx, contestantId)) throw appError('extra_attempt_given', examDaysMessages.extraAttemptGiven);
    await repo.insertExtraAttempt(trx, { contestantId, contestId: contest.id, reason, grantedBy: actor.id, at: now });
    return {
      kind: 'exam.extra_attempt',
      summary: `Thêm một lượt thi cho thí sinh ${contestant.fullname} (#${contestantId}): ${reason}`,
      details: { contestant_id: contestantId, contest_id: contest.id, reason },
      movesResults: true,
    };
  });
}

/**
 * Withdraws an extra attempt given by mistake (the wrong child), with the reason in the audit log,
 * while it is unused: the contestant has not started more attempts than the contest's (an exam
 * in progress counts). A 4th attempt also holds the grant by its foreign key, so a start racing
 * this fails one or the other.
 */
export function withdrawExtraAttempt(deps: Deps, actor: Actor, contestantId: number, body: ExtraAttemptBody) {
  return changeExtraAttempt(deps, actor, contestantId, body, async ({ trx, contestant, contest, reason }) => {
    const grant = await repo.findExtraAttempt(trx, contestantId);
    if (!grant) throw notFound(examDaysMessages.extraAttemptNone);
    const taken = await repo.countAttempts(trx, contestantId);
    if (taken > attemptsAllowed(contest.attempts_per_contestant, false)) throw appError('extra_attempt_used', examDaysMessages.extraAttemptUsed);
    await repo.deleteExtraAttempt(trx, contestantId);
    return {
      kind: 'exam.extra_attempt_withdraw',
      summary: `Rút lượt thi thêm của thí sinh ${contestant.fullname} (#${contestantId}): ${reason}`,
      details: { contestant_id: contestantId, contest_id: grant.contest_id, reason, granted_reason: grant.reason, granted_at: grant.granted_at.toISOString() },
      movesResults: true,
    };
  });
}

export async function extendAttempt({ db, clock }: Deps, actor: Actor, examId: number, body: ExtensionBody) {
  const early = extensionProblems(body);
  if (early.reason) throw appError('input_refused', early.reason, early);
  const now = clock.now();
  const contestantId = await db.transaction().execute(async (trx) => {
    const exam = await repo.lockExam(trx, examId);
    if (!exam) throw notFound(examDaysMessages.examNotFound);
    if (exam.status !== 2 || exam.end_time <= now) throw appError('exam_finished', examDaysMessages.examFinished);
    const problems = extensionProblems(body, exam.extension_minutes);
    if (Object.keys(problems).length > 0) throw appError('input_refused', Object.values(problems)[0]!, problems);
    const moved = await repo.extendExam(trx, examId, body.minutes);
    if (!moved) throw appError('exam_finished', examDaysMessages.examFinished);
    await recordAudit(trx, actor, {
      kind: 'exam.extend',
      movesResults: true,
      summary: `Gia hạn ${body.minutes} phút lượt thi ${exam.attempt} của thí sinh ${exam.fullname} (#${exam.contestant_id}), hạn mới ${formatDateTime(moved.end_time)}: ${body.reason.trim()}`,
      details: {
        exam_id: examId,
        contestant_id: exam.contestant_id,
        minutes: body.minutes,
        reason: body.reason.trim(),
        before: { end_time: exam.end_time.toISOString(), extension_minutes: exam.extension_minutes },
        after: { end_time: moved.end_time.toISOString(), extension_minutes: moved.extension_minutes },
      },
    });
    return exam.contestant_id;
  });
  return contestantView(db, now, contestantId);
}
