// The rules of an exam: who may start one, when, how answers are saved and scored. Time is the
// server's (the injected clock); the database's unique indexes back the attempt rules.
import { randomInt } from 'node:crypto';
import { examMessages, messages, regradeMessages } from '../../../shared/messages';
import { countsRight } from '../../../shared/regrade-rules';
import { formatDateTime } from '../../../shared/format';
import { MAX_ATTEMPTS_PER_CONTESTANT, SAVE_GRACE_SECONDS } from '../../../shared/rules';
import type { ExamAnswer, SaveAnswersBody } from '../../../shared/schemas/exams';
import { connectionCount, type Db } from '../../db/client';
import type { AnswerMap, ExamQuestion } from '../../db/schema';
import type { Services } from '../../services';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors';
import { hashToken, newToken } from '../../lib/tokens';
import type { Auth, AuthUser } from '../../core/guard';
import { isUniqueViolation } from '../../db/errors';
import { listBooksOfGroup } from '../catalog';
import { createQuestionBanks, type QuestionBanks } from './bank';
import { withClips } from './clips';
import * as repo from './repo';
import { createSaveBatcher, type SaveBatcher } from './save-batcher';

export type ExamDeps = Pick<Services, 'db' | 'clock' | 'auth'> & {
  /** Writes autosaves, several per statement under load (save-batcher.ts). */
  saves: SaveBatcher;
  /** The question banks starts draw from, kept between organiser edits (bank.ts). */
  banks: QuestionBanks;
};

/** The exams' deps: the app's, the save batcher and the banks (state of their own), built once per app. */
export function createExamDeps(services: Pick<Services, 'db' | 'clock' | 'auth' | 'config' | 'metrics'>): ExamDeps {
  const { db, clock, auth, metrics } = services;
  const load = services.config.load;
  const saves = createSaveBatcher((batch) => repo.saveAnswersBatch(db, batch), {
    // Half the connections at most for autosave batches: starts, submits and pages keep the rest.
    maxInFlight: Math.max(1, Math.floor(connectionCount(db) / 2)),
    // Bounded in length and in waiting time: past either, a save is answered 503 and the client retries.
    queueLimit: load.saveQueueLimit,
    queueTimeoutMs: load.saveQueueTimeoutMs,
    observer: metrics?.saves,
  });
  metrics?.saves.watchQueue(() => saves.queueLength);
  return { db, clock, auth, saves, banks: createQuestionBanks(db) };
}

const GRACE_MS = SAVE_GRACE_SECONDS * 1000;
/** 18 random bytes = 24 base64url characters (144 bits): not guessable, short enough for a URL. */
const SLUG_BYTES = 18;
/** A writer handle: 16 random bytes = 22 base64url characters (schemas/exams.ts, examWriterSchema). */
const WRITER_BYTES = 16;

const iso = (date: Date) => date.toISOString();

/** Fisher-Yates with a cryptographic source, so no contestant can predict the order. */
export function shuffle<T>(items: T[]): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i -= 1) {
    const j = randomInt(0, i + 1);
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

/** 401 without a session; 403 with a clear message for accounts that cannot take exams. */
export function assertCanTakeExams<User extends Pick<AuthUser, 'role'>>(user: User | undefined): User {
  if (!user) throw unauthorized(messages.unauthorized);
  if (user.role === 'school_admin') throw forbidden(examMessages.schoolAdminCannotJoin);
  if (user.role !== 'parent') throw forbidden(messages.forbidden);
  return user;
}

const examNotFound = () => new AppError(404, 'not_found', examMessages.examNotFound, undefined, { not_found: true });
const alreadySubmitted = () => new AppError(409, 'exam_submitted', examMessages.alreadySubmitted, undefined, { submited: true });
const tooLate = () => new AppError(409, 'time_up', examMessages.saveTooLate, undefined, { submited: true });
const openElsewhere = () => new AppError(409, 'exam_open_elsewhere', examMessages.openElsewhere);

// One writer per exam (issue 20, docs/decisions/010-one-writer-per-exam.md), for the exam and the
// practice round alike: each load of the exam screen gets a new writer handle and the previous one
// stops being valid; saves and submits that name a handle apply only with the current one.

/** A new writer handle, for the screen loading the exam now. */
export const newWriter = () => newToken(WRITER_BYTES);

/**
 * 409 exam_open_elsewhere when the request names a writer handle that is no longer the exam's:
 * another screen loaded it since, and this one must not undo that screen's answers. A request
 * without a handle (the spec's own client) passes, as before the rule.
 */
export function assertCurrentWriter(row: { writer: string | null }, writer: string | undefined) {
  if (writer !== undefined && writer !== row.writer) throw openElsewhere();
}

/** The saved answers as the spec's data_answers list, in the exam's question order. */
function answerList(questions: ExamQuestion[], answers: AnswerMap): ExamAnswer[] {
  return questions
    .filter((question) => answers[question.id] !== undefined)
    .map((question) => ({ question_id: question.id, answer_id: answers[question.id]! }));
}

const timeComplete = (durationSeconds: number) => ({
  time_complete_minutes: Math.floor(durationSeconds / 60),
  time_complete_seconds: durationSeconds % 60,
});

// Books -----------------------------------------------------------------------------------------

export async function booksOfContestant({ db }: ExamDeps, user: AuthUser, contestantId: number) {
  const contestant = await repo.findOwnedContestant(db, contestantId, user.id);
  if (!contestant) throw notFound(examMessages.contestantNotFound);
  return listBooksOfGroup(db, contestant.class_group_id);
}

// Start -----------------------------------------------------------------------------------------

function doingError(contestantId: number, exam: { slug: string; book_id: number }) {
  return new AppError(409, 'exam_in_progress', examMessages.examInProgress, undefined, {
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
 * others are answered with the exam it created, as a later start would be.
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
  const started = await insertStartedExam(db, banks, context, bookId, now).catch(async (error: unknown) => {
    if (!isUniqueViolation(error)) throw error;
    // Another start for this contestant won the race: answer with its exam.
    const exams = await repo.examsOfContestant(db, contestantId);
    const inProgress = exams.find((exam) => exam.status === 2);
    if (inProgress) throw doingError(contestantId, inProgress);
    throw conflict(examMessages.startRetry, 'start_conflict');
  });
  return {
    success: true as const,
    doing: false as const,
    message: examMessages.examStarted,
    slug: started.slug,
    exam_id: started.id,
    book_id: bookId,
    child_id: contestantId,
    start_time: iso(started.start_time),
    end_time: iso(started.end_time),
  };
}

/** The rules of a start, in the order a family meets them, then the new exam's row. */
async function insertStartedExam(db: Db, banks: QuestionBanks, context: repo.StartContext, bookId: number, now: Date) {
  const contestantId = context.contestant_id;
  if (contestantId === null) throw notFound(examMessages.contestantNotFound);
  if (context.book_id === null) throw badRequest(examMessages.bookNotInGroup, { book_id: examMessages.bookNotInGroup }, 'book_not_in_group');
  if (context.contest_id === null) throw conflict(messages.noContest, 'no_contest');
  if (now < context.exam_starts_at!) throw conflict(examMessages.windowNotOpen(formatDateTime(context.exam_starts_at!)), 'window_not_open');
  if (now > context.exam_ends_at!) throw conflict(examMessages.windowClosed, 'window_closed');
  const exams = context.exams ?? [];
  const inProgress = exams.find((exam) => exam.status === 2);
  if (inProgress) throw doingError(contestantId, inProgress);
  // The contest's attempts, plus the one the organiser may have given after an incident.
  const attemptsAllowed = Math.min(context.attempts_per_contestant!, MAX_ATTEMPTS_PER_CONTESTANT) + (context.extra_attempt ? 1 : 0);
  if (exams.length >= attemptsAllowed) throw conflict(messages.noAttemptsLeft, 'no_attempts_left');
  const bank = await banks.of(bookId, context.bank_version);
  if (bank.length === 0) throw conflict(examMessages.bookHasNoQuestions, 'book_without_questions');
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

// Reading an exam ---------------------------------------------------------------------------------

/** Past the deadline and its grace (saves in flight at the deadline still count). */
export const isOverdue = (endTime: Date, now: Date) => endTime.getTime() + GRACE_MS < now.getTime();

/** An exam in progress whose time (and grace) ran out is finalised before anyone reads it. */
async function finaliseIfOverdue(db: Db, exam: repo.OwnedExam, now: Date): Promise<boolean> {
  if (exam.status !== 2 || !isOverdue(exam.end_time, now)) return false;
  await repo.finaliseExam(db, exam.id, now);
  return true;
}

export async function examForTaking(
  { db, clock }: ExamDeps,
  user: AuthUser,
  query: { book_id: number; child_id: number; slug_exam: string },
) {
  const exam = await repo.findOwnedExamBySlug(db, query.slug_exam, user.id);
  if (!exam || exam.book_id !== query.book_id || exam.contestant_id !== query.child_id) throw examNotFound();
  const now = clock.now();
  if (exam.status === 1 || (await finaliseIfOverdue(db, exam, now))) throw alreadySubmitted();
  // This screen becomes the exam's only writer; false when the exam was finished meanwhile.
  const writer = newWriter();
  if (!(await repo.claimWriter(db, exam.id, writer))) throw alreadySubmitted();
  return {
    success: true as const,
    not_found: false as const,
    submited: false as const,
    message: '',
    children: { id: exam.contestant_id, fullname: exam.fullname },
    data: {
      id: exam.id,
      slug: exam.slug,
      status: 2 as const,
      attempt: exam.attempt,
      book: { id: exam.book_id, name: exam.book_name },
      prediction: exam.prediction,
      data_questions: await withClips(db, exam.questions),
      data_answers: answerList(exam.questions, exam.answers),
      save_seq: exam.save_seq,
      start_time: iso(exam.start_time),
      end_time: iso(exam.end_time),
      server_time: iso(now),
      duration_seconds: Math.round((exam.end_time.getTime() - exam.start_time.getTime()) / 1000),
      writer,
    },
  };
}

/** Why a hot-path statement matched no row: 401, 403 or 404 (another account's exam is "not found"). */
async function explainMissingExam(auth: Auth, token: string): Promise<never> {
  assertCanTakeExams(await auth.findUserByToken(token));
  throw examNotFound();
}

/** Hot path: `token` is the caller's bearer token (undefined without one), checked inside the statement. */
export async function examTimes({ db, clock, auth }: ExamDeps, token: string | undefined, examId: number) {
  if (!token) throw unauthorized(messages.unauthorized);
  const now = clock.now();
  const times = await repo.findExamTimes(db, examId, hashToken(token), now);
  if (!times) return explainMissingExam(auth, token);
  let status = times.status;
  if (status === 2 && isOverdue(times.end_time, now)) {
    await repo.finaliseExam(db, examId, now);
    status = 1;
  }
  return {
    success: true as const,
    data: { start_time: iso(times.start_time), end_time: iso(times.end_time), server_time: iso(now), status },
  };
}

// Saving and submitting -------------------------------------------------------------------------

const duplicateQuestion = () =>
  badRequest(examMessages.duplicateQuestion, { answers: examMessages.duplicateQuestion }, 'duplicate_question');

export function answerMapOf(answers: ExamAnswer[]): AnswerMap {
  const map: AnswerMap = {};
  for (const answer of answers) {
    if (map[answer.question_id] !== undefined) throw duplicateQuestion();
    map[answer.question_id] = answer.answer_id;
  }
  return map;
}

/** 400 naming the first answer that is not one of the exam's own question/answer pairs. */
/**
 * The paper a child sees from drawn questions, for the exam and the practice round alike:
 * questions and their answers in a random order, without the correct flags, and the key apart.
 */
export function paperOf(drawn: { id: number; value: string; answers: { id: number; value: string; is_correct: boolean }[] }[]) {
  const questions: ExamQuestion[] = [];
  const answerKey: AnswerMap = {};
  for (const question of shuffle(drawn)) {
    const answers = shuffle(question.answers);
    const correct = answers.find((answer) => answer.is_correct);
    if (correct) answerKey[question.id] = correct.id;
    questions.push({ id: question.id, value: question.value, answers: answers.map(({ id, value }) => ({ id, value })) });
  }
  return { questions, answerKey };
}

/**
 * The submit's rule, for the exam and the practice round alike: within the time (and its grace)
 * the answers sent count, unless a save newer than this submit was applied; after it, only what
 * was saved in time. Within the time, a submit from a screen that is no longer the writer is
 * refused (409 exam_open_elsewhere, nothing changes). Before the deadline every question and the
 * prediction must be answered (400 incomplete, with what is missing). True when the answers sent
 * are to be stored.
 */
export function finalAnswersCount(
  row: { end_time: Date; questions: ExamQuestion[]; answers: AnswerMap; prediction: number | null; save_seq: number; writer: string | null },
  body: { seq?: number; prediction?: number | null; writer?: string },
  answers: AnswerMap,
  now: Date,
): boolean {
  // Past the time no screen writes any more: the exam is finished with what was saved in time.
  if (isOverdue(row.end_time, now)) return false;
  assertCurrentWriter(row, body.writer);
  assertAnswersBelong(row.questions, answers);
  const stale = body.seq !== undefined && row.save_seq > body.seq;
  const merged = stale ? row.answers : { ...row.answers, ...answers };
  const prediction = stale ? row.prediction : (body.prediction ?? row.prediction);
  const timeUp = now.getTime() >= row.end_time.getTime();
  const missing = row.questions.filter((question) => merged[question.id] === undefined).map((question) => question.id);
  if (!timeUp && (missing.length > 0 || prediction === null)) {
    throw new AppError(400, 'incomplete', messages.answerAllQuestions, undefined, {
      missing_question_ids: missing,
      missing_prediction: prediction === null,
    });
  }
  return !stale;
}

export function assertAnswersBelong(questions: ExamQuestion[], answers: AnswerMap) {
  for (const [questionId, answerId] of Object.entries(answers)) {
    const question = questions.find((q) => String(q.id) === questionId);
    if (!question) {
      throw badRequest(examMessages.answerNotInExam, { answers: examMessages.answerNotInExam }, 'question_not_in_exam');
    }
    if (!question.answers.some((answer) => answer.id === answerId)) {
      throw badRequest(examMessages.answerNotOfQuestion, { answers: examMessages.answerNotOfQuestion }, 'answer_not_of_question');
    }
  }
}

/** Hot path: `token` is the caller's bearer token (undefined without one), checked inside the statement. */
export async function saveAnswers({ db, clock, auth, saves }: ExamDeps, token: string | undefined, body: SaveAnswersBody) {
  if (!token) throw unauthorized(messages.unauthorized);
  const encoded = repo.answerPairs(body.answers);
  if (encoded.problem === 'duplicate') throw duplicateQuestion();
  const now = clock.now();
  const seq = body.seq ?? null;
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
          prediction: body.prediction ?? null,
          seq,
          writer: body.writer,
        })
      : undefined;
  if (saveSeq !== undefined) return { success: true as const, saved: true, stale: false, save_seq: saveSeq, server_time: iso(now) };

  // Off the hot path: find out which check failed.
  const answers = answerMapOf(body.answers);
  const user = assertCanTakeExams(await auth.findUserByToken(token));
  const exam = await repo.findOwnedExamById(db, body.exam_id, body.slug, user.id);
  if (!exam) throw examNotFound();
  if (exam.status === 1) throw alreadySubmitted();
  if (isOverdue(exam.end_time, now)) {
    await repo.finaliseExam(db, exam.id, now);
    throw tooLate();
  }
  // Before the sequence: a screen that lost the exam to another has usually fallen behind it too.
  assertCurrentWriter(exam, body.writer);
  if (seq !== null && exam.save_seq > seq) {
    return { success: true as const, saved: false, stale: true, save_seq: exam.save_seq, server_time: iso(now) };
  }
  assertAnswersBelong(exam.questions, answers);
  // Every check passes now: the row changed between the statement and this read. Ask for a retry.
  throw conflict(messages.serviceUnavailable, 'save_conflict');
}

export async function submitExam({ db, clock }: ExamDeps, user: AuthUser, body: SaveAnswersBody) {
  const answers = answerMapOf(body.answers);
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const exam = await repo.findOwnedExamById(trx, body.exam_id, body.slug, user.id, true);
    if (!exam) throw examNotFound();
    let alreadyDone = exam.status === 1;
    if (!alreadyDone) {
      if (finalAnswersCount(exam, body, answers, now)) await repo.mergeAnswers(trx, exam.id, answers, body.prediction ?? null, body.seq ?? null, now);
      alreadyDone = !(await repo.finaliseExam(trx, exam.id, now));
    }
    const done = await repo.findOwnedExamById(trx, exam.id, exam.slug, user.id);
    const duration = done!.duration_seconds ?? 0;
    return {
      success: true as const,
      submited: true as const,
      already_submitted: alreadyDone,
      message: alreadyDone ? examMessages.alreadySubmitted : examMessages.submitSuccess,
      data: { id: exam.id, slug: exam.slug, child_id: exam.contestant_id, points: done!.points ?? 0, ...timeComplete(duration) },
    };
  });
}

// Result ----------------------------------------------------------------------------------------

export async function examResult({ db, clock }: ExamDeps, user: AuthUser, slug: string) {
  let exam = await repo.findOwnedExamBySlug(db, slug, user.id);
  if (!exam) throw examNotFound();
  if (await finaliseIfOverdue(db, exam, clock.now())) exam = (await repo.findOwnedExamBySlug(db, slug, user.id))!;
  if (exam.status !== 1) throw conflict(examMessages.resultNotReady, 'exam_not_submitted');
  const [key, rules] = await Promise.all([repo.findAnswerKey(db, exam.id), repo.regradeRulesOfExam(db, exam.id)]);
  const duration = exam.duration_seconds ?? 0;
  return {
    success: true as const,
    children: { id: exam.contestant_id, fullname: exam.fullname },
    data: {
      id: exam.id,
      slug: exam.slug,
      attempt: exam.attempt,
      child_id: exam.contestant_id,
      book: { id: exam.book_id, name: exam.book_name },
      prediction: exam.prediction,
      data_questions: exam.questions,
      data_result: exam.questions.map((question) => {
        const given = exam!.answers[question.id];
        const rule = rules.get(question.id);
        const correct = rule && rule.mode !== 'everyone' ? [...rule.acceptedAnswerIds] : key[question.id] !== undefined ? [key[question.id]!] : [];
        return {
          question_id: question.id,
          answer_id_user: given ?? null,
          answer_id_correct: correct[0] ?? null,
          answer_ids_correct: correct,
          is_correct: countsRight(given, key[question.id], rule),
          regrade_note: rule ? regradeMessages.resultNote[rule.mode] : null,
        };
      }),
      data_answers: answerList(exam.questions, exam.answers),
      points: exam.points ?? 0,
      correct_count: exam.correct_count ?? 0,
      duration_seconds: duration,
      ...timeComplete(duration),
      start_time: iso(exam.start_time),
      submitted_at: iso(exam.submitted_at ?? exam.end_time),
    },
  };
}
