// The rules of an exam: who may start one, when, how answers are saved and scored. Time is the
// server's (the injected clock); the database's unique indexes back the attempt rules. What the
// exam shares with the practice round (open, save checks, submit, scoring, errors) is the paper
// engine of core/paper; the functions here return rows and domain values, routes.ts the replies.
import { examMessages, messages } from '../../../shared/messages';
import { seasonMessages } from '../../../shared/messages/seasons';
import { formatDateTime } from '../../../shared/format';
import { contestAttemptsOf, MAX_ATTEMPTS_PER_CONTESTANT } from '../../../shared/rules';
import type { SaveAnswersBody } from '../../../shared/schemas/exams';
import { connectionCount, type Db } from '../../db/client';
import type { Services } from '../../services';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../lib/errors';
import { hashToken, newToken } from '../../lib/tokens';
import type { AuthUser } from '../../core/guard';
import { findOwnedContestant } from '../../core/paper/repo';
import { answerMapOf, assertCanTakeExams, duplicateQuestion, GRACE_MS, paperErrors, paperOf, shuffle, SLUG_BYTES } from '../../core/paper/rules';
import { checkSave, finaliseIfOverdue, finishedPaper, openForTaking, submitPaper, type PaperKind } from '../../core/paper/session';
import { isUniqueViolation } from '../../db/errors';
import { listBooksOfGroup } from '../catalog';
import { createQuestionBanks, type QuestionBanks } from './bank';
import { correctAnswersHiddenUntil } from '../../core/review-keys';
import * as repo from './repo';
import { createReadBatcher } from './read-batcher';
import { createSaveBatcher, type SaveBatcher } from './save-batcher';

/** Autosave statements written at the same time by one process (createSaveBatcher's maxInFlight). */
const SAVE_STATEMENTS_AT_ONCE = 2;

export type ExamDeps = Pick<Services, 'db' | 'clock' | 'auth'> & {
  /** Writes autosaves, several per statement under load (save-batcher.ts). */
  saves: SaveBatcher;
  /** Reads the exam times of re-syncs, several per statement under load (read-batcher.ts). */
  times: ReturnType<typeof createReadBatcher<{ examId: number; tokenHash: string }, repo.ExamTimes>>;
  /** The question banks starts draw from, kept between organiser edits (bank.ts). */
  banks: QuestionBanks;
};

/** The exams' deps: the app's, the save batcher and the banks (state of their own), built once per app. */
export function createExamDeps(services: Pick<Services, 'db' | 'clock' | 'auth' | 'config' | 'metrics'>): ExamDeps {
  const { db, clock, auth, metrics } = services;
  const load = services.config.load;
  const saves = createSaveBatcher((batch) => repo.saveAnswersBatch(db, batch), {
    // Two statements of saves at a time at most (one on a pool of fewer than four): the saves that
    // arrive meanwhile leave together, so under load each statement and commit carries many. With
    // half the pool (five) they carried 5.5 at saturation and held 5,900 saves/s; with two, 11 and
    // 8,600/s on the same machine, at half PostgreSQL's CPU per save (decision 005). Two, not one, so
    // that a statement held up (a lock, a slow disk) does not hold up every save of the process.
    maxInFlight: Math.max(1, Math.min(SAVE_STATEMENTS_AT_ONCE, Math.floor(connectionCount(db) / 2))),
    // Bounded in length and in waiting time: past either, a save is answered 503 and the client retries.
    queueLimit: load.saveQueueLimit,
    queueTimeoutMs: load.saveQueueTimeoutMs,
    observer: metrics?.saves,
  });
  metrics?.saves.watchQueue(() => saves.queueLength);
  // One statement of re-syncs at a time: those arriving meanwhile leave together with the next.
  // A statement costs PostgreSQL about as much again outside its execution (protocol, snapshot,
  // wake-ups) as inside: with two at a time the re-syncs were a third of the requests and over half
  // the statements (1.8 per statement in the held 100,000). A re-sync held up waits at most the
  // queue's timeout, then gets a 503; the screen keeps counting down on its own clock meanwhile.
  const times = createReadBatcher((keys: readonly { examId: number; tokenHash: string }[]) => repo.findExamTimesBatch(db, keys, clock.now()), {
    maxInFlight: 1,
    queueLimit: load.saveQueueLimit,
    queueTimeoutMs: load.saveQueueTimeoutMs,
  });
  return { db, clock, auth, saves, times, banks: createQuestionBanks(db) };
}

/** The exam as a paper of core/paper: its table, its score (regrade rules and points), its messages. */
const examPaper: PaperKind<repo.OwnedExam> = {
  table: 'exams',
  score: repo.examScore,
  errors: paperErrors({ notFound: examMessages.examNotFound, alreadySubmitted: examMessages.alreadySubmitted, resultNotReady: examMessages.resultNotReady }),
  findOwned: repo.findOwnedExam,
};
const { errors } = examPaper;

// Books -----------------------------------------------------------------------------------------

export async function booksOfContestant({ db }: ExamDeps, user: AuthUser, contestantId: number) {
  const contestant = await findOwnedContestant(db, contestantId, user.id);
  if (!contestant) throw notFound(examMessages.contestantNotFound);
  return listBooksOfGroup(db, contestant.class_group_id);
}

// Start -----------------------------------------------------------------------------------------

function doingError(contestantId: number, exam: { slug: string; book_id: number }) {
  return new AppError('exam_in_progress', examMessages.examInProgress, undefined, {
    doing: true,
    slug: exam.slug,
    book_id: exam.book_id,
    child_id: contestantId,
  });
}

/**
 * Starts an exam: one statement reads everything the rules check (repo.startContext), one inserts
 * the exam. Hot path: `token` is the caller's bearer token, checked inside the first statement.
 * Nothing is locked in between: when several starts of one contestant arrive together, the unique
 * indexes of exams (one exam in progress, one row per attempt) let one insert through and the
 * others are answered with the exam it created, as a later start would be. The new exam's row
 * (id, slug, times).
 */
export async function startExam({ db, clock, auth, banks }: ExamDeps, token: string | undefined, bookId: number, contestantId: number) {
  if (!token) throw unauthorized(messages.unauthorized);
  const now = clock.now();
  const context = await repo.startContext(db, hashToken(token), contestantId, bookId, now);
  if (!context) {
    // No valid session: why, off the hot path (401, or 403 for an account that cannot take exams).
    assertCanTakeExams(await auth.findUserByToken(token));
    throw unauthorized(messages.unauthorized);
  }
  assertCanTakeExams(context);
  return insertStartedExam(db, banks, context, bookId, now).catch(async (error: unknown) => {
    if (!isUniqueViolation(error)) throw error;
    // Another start for this contestant won the race: answer with its exam.
    const exams = await repo.examsOfContestant(db, contestantId);
    const inProgress = exams.find((exam) => exam.status === 2);
    if (inProgress) throw doingError(contestantId, inProgress);
    throw conflict(examMessages.startRetry, 'start_conflict');
  });
}

/** The rules of a start, in the order a family meets them, then the new exam's row. */
async function insertStartedExam(db: Db, banks: QuestionBanks, context: repo.StartContext, bookId: number, now: Date) {
  const contestantId = context.contestant_id;
  if (contestantId === null) throw notFound(examMessages.contestantNotFound);
  // Last season's row of a child is history: this season's row (carried over) takes the exams.
  if (context.contest_id !== null && context.contestant_season_id !== context.contest_id) {
    throw conflict(seasonMessages.contestantOfPastSeason, 'contestant_of_past_season');
  }
  if (context.class_pending) throw conflict(seasonMessages.classPending, 'class_pending');
  if (context.book_id === null) throw badRequest(examMessages.bookNotInGroup, { book_id: examMessages.bookNotInGroup }, 'book_not_in_group');
  if (context.contest_id === null) throw conflict(messages.noContest, 'no_contest');
  if (now < context.exam_starts_at!) throw conflict(examMessages.windowNotOpen(formatDateTime(context.exam_starts_at!)), 'window_not_open');
  if (now > context.exam_ends_at!) throw conflict(examMessages.windowClosed, 'window_closed');
  const exams = context.exams ?? [];
  const inProgress = exams.find((exam) => exam.status === 2);
  if (inProgress) throw doingError(contestantId, inProgress);
  // The contest's attempts, plus the one the organiser may have given after an incident.
  const attemptsAllowed = contestAttemptsOf(context.attempts_per_contestant!) + (context.extra_attempt ? 1 : 0);
  if (exams.length >= attemptsAllowed) throw conflict(messages.noAttemptsLeft, 'no_attempts_left');
  const bank = await banks.of(bookId, context.bank_version);
  // A bank short of an exam's questions never gives a short exam (issue 42); the lists do not offer such a book.
  if (bank.length < context.questions_per_exam!) {
    throw conflict(bank.length === 0 ? examMessages.bookHasNoQuestions : examMessages.bookShortOfQuestions, 'book_without_questions');
  }
  // questions_per_exam distinct questions of the bank at random.
  const { questions, answerKey } = paperOf(shuffle(bank).slice(0, context.questions_per_exam!));
  const attempt = exams.length + 1;
  return repo.insertExam(db, {
    slug: newToken(SLUG_BYTES),
    user_id: context.user_id,
    contest_id: context.contest_id,
    contestant_id: contestantId,
    book_id: bookId,
    attempt,
    extra_attempt_of: attempt > MAX_ATTEMPTS_PER_CONTESTANT ? contestantId : null,
    start_time: now,
    end_time: new Date(now.getTime() + context.exam_duration_seconds! * 1000),
    questions,
    answer_key: answerKey,
  });
}

// Taking an exam ----------------------------------------------------------------------------------

/**
 * GET /api/examing: one statement (repo.OPEN_EXAM) checks the session, makes this screen the
 * exam's only writer and reads the exam with its clips. Hot path: `token` is the bearer token.
 */
export async function examForTaking({ db, clock, auth }: ExamDeps, token: string | undefined, query: { book_id: number; child_id: number; slug_exam: string }) {
  return openForTaking<repo.OpenedExam, repo.OwnedExam>({ db, auth, now: clock.now() }, examPaper, repo.OPEN_EXAM, token, { slug: query.slug_exam }, {
    values: [query.book_id, query.child_id],
    belongs: (exam) => exam.book_id === query.book_id && exam.contestant_id === query.child_id,
  });
}

/** Why a hot-path statement matched no row: 401, 403 or 404 (another account's exam is "not found"). */
async function explainMissingExam(auth: ExamDeps['auth'], token: string): Promise<never> {
  assertCanTakeExams(await auth.findUserByToken(token));
  throw errors.notFound();
}

/** Hot path: `token` is the caller's bearer token (undefined without one), checked inside the statement. */
export async function examTimes({ db, clock, auth, times: reads }: ExamDeps, token: string | undefined, examId: number) {
  if (!token) throw unauthorized(messages.unauthorized);
  const times = await reads.read({ examId, tokenHash: hashToken(token) });
  const now = clock.now();
  if (!times) return explainMissingExam(auth, token);
  const finished = await finaliseIfOverdue(db, examPaper, { id: examId, ...times }, now);
  return { ...times, status: finished ? (1 as const) : times.status, now };
}

/**
 * The autosave, through the save batcher (one statement for the saves arriving together).
 * Hot path: `token` is the caller's bearer token (undefined without one), checked inside the
 * statement. The new save_seq, or `stale` with the stored one when a newer save was applied.
 */
export async function saveAnswers({ db, clock, auth, saves }: ExamDeps, token: string | undefined, body: SaveAnswersBody) {
  if (!token) throw unauthorized(messages.unauthorized);
  const now = clock.now();
  const encoded = repo.answerPairs(body.answers, Math.floor(now.getTime() / 1000));
  if (encoded.problem === 'duplicate') throw duplicateQuestion();
  const saveSeq =
    encoded.problem === undefined
      ? await saves.save({
          examId: body.exam_id,
          slug: body.slug,
          tokenHash: hashToken(token),
          now,
          endTimeAtLeast: new Date(now.getTime() - GRACE_MS),
          answersJson: encoded.json,
          pairsJson: encoded.pairs,
          marksJson: encoded.marks,
          prediction: body.prediction ?? null,
          seq: body.seq ?? null,
          writer: body.writer,
        })
      : undefined;
  if (saveSeq !== undefined) return { stale: false, saveSeq, now };

  // Off the hot path: find out which check failed.
  const answers = answerMapOf(body.answers);
  const user = assertCanTakeExams(await auth.findUserByToken(token));
  const exam = await repo.findOwnedExam(db, { id: body.exam_id, slug: body.slug }, user.id);
  if (!exam) throw errors.notFound();
  const outcome = await checkSave(db, examPaper, exam, body, answers, now);
  if (outcome === 'overdue') throw errors.tooLate();
  if (outcome === 'stale') return { stale: true, saveSeq: exam.save_seq, now };
  // Every check passes now: the row changed between the statement and this read. Ask for a retry.
  throw conflict(messages.serviceUnavailable, 'save_conflict');
}

export async function submitExam({ db, clock }: ExamDeps, user: AuthUser, body: SaveAnswersBody) {
  return submitPaper(db, examPaper, user.id, { id: body.exam_id, slug: body.slug }, body, clock.now());
}

/** A finished exam with its key and the regrade rules in force for its questions. */
export async function examResult({ db, clock }: ExamDeps, user: AuthUser, slug: string) {
  const now = clock.now();
  const exam = await finishedPaper(db, examPaper, user.id, { slug }, now);
  const [key, rules, contest] = await Promise.all([repo.findAnswerKey(db, exam.id), repo.regradeRulesOfExam(db, exam.id), repo.reviewSettingsOfExam(db, exam.id)]);
  return { exam, key, rules, keysHiddenUntil: correctAnswersHiddenUntil(contest, now) };
}
