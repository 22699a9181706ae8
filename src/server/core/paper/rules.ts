// The rules of a paper (docs/decisions/016-one-paper-engine.md): what the exam and the practice
// round have in common, from the draw to the submit. Plain functions of rows and requests; the
// statements are in repo.ts, the flows that run them in session.ts.
import { randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { examMessages, messages } from '../../../shared/messages';
import { viewerMessages } from '../../../shared/messages/admin';
import { SAVE_GRACE_SECONDS } from '../../../shared/rules';
import type { ExamAnswer } from '../../../shared/schemas/exams';
import type { AnswerMap, ExamQuestion } from '../../db/schema';
import { AppError, badRequest, forbidden, unauthorized } from '../../lib/errors';
import { newToken } from '../../lib/tokens';
import { isViewerRole, type Auth, type AuthUser } from '../guard';

export const GRACE_MS = SAVE_GRACE_SECONDS * 1000;
/** 18 random bytes = 24 base64url characters (144 bits): not guessable, short enough for a URL. */
export const SLUG_BYTES = 18;
/** A writer handle: 16 random bytes = 22 base64url characters (schemas/exams.ts, examWriterSchema). */
const WRITER_BYTES = 16;

/** 401 without a session; 403 with a clear message for accounts that cannot take exams. */
export function assertCanTakeExams<User extends Pick<AuthUser, 'role'>>(user: User | undefined): User {
  if (!user) throw unauthorized(messages.unauthorized);
  if (user.role === 'school_admin') throw forbidden(examMessages.schoolAdminCannotJoin);
  if (isViewerRole(user.role)) throw forbidden(viewerMessages.noFamily);
  if (user.role !== 'parent') throw forbidden(messages.forbidden);
  return user;
}

/** preHandler of the routes that read the session first: the caller must be a parent (401 / 403 otherwise). */
export const requireParent = (auth: Pick<Auth, 'authenticate'>) => async (request: FastifyRequest) => {
  assertCanTakeExams(await auth.authenticate(request));
};

/** The messages that name the kind of paper ("bài thi" or "bài thi thử"). */
export interface PaperMessages {
  notFound: string;
  alreadySubmitted: string;
  resultNotReady: string;
}

/**
 * The errors of a paper, one set for both kinds. The exam screen reads their codes and flags
 * (not_found, submited) the same way for the exam and the practice round (web/features/exams/use-paper-load.ts).
 */
export function paperErrors(kind: PaperMessages) {
  return {
    notFound: () => new AppError('not_found', kind.notFound, undefined, { not_found: true }),
    alreadySubmitted: () => new AppError('exam_submitted', kind.alreadySubmitted, undefined, { submited: true }),
    resultNotReady: () => new AppError('exam_not_submitted', kind.resultNotReady),
    tooLate: () => new AppError('time_up', examMessages.saveTooLate, undefined, { submited: true }),
  };
}
export type PaperErrors = ReturnType<typeof paperErrors>;

const openElsewhere = () => new AppError('exam_open_elsewhere', examMessages.openElsewhere);
export const duplicateQuestion = () =>
  badRequest(examMessages.duplicateQuestion, { answers: examMessages.duplicateQuestion }, 'duplicate_question');

// The draw -----------------------------------------------------------------------------------------

/** Fisher-Yates with a cryptographic source, so no contestant can predict the order. */
export function shuffle<T>(items: T[]): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i -= 1) {
    const j = randomInt(0, i + 1);
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

/** A question with its answers and their correct flags, as a bank holds it. */
export interface DrawnQuestion {
  id: number;
  value: string;
  answers: { id: number; value: string; is_correct: boolean }[];
}

/**
 * The paper a child sees from drawn questions: questions and their answers in a random order,
 * without the correct flags, and the key apart.
 */
export function paperOf(drawn: DrawnQuestion[]) {
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

// Time and writer ----------------------------------------------------------------------------------

/** Past the deadline and its grace (saves in flight at the deadline still count). */
export const isOverdue = (endTime: Date, now: Date) => endTime.getTime() + GRACE_MS < now.getTime();

// One writer per paper (issue 20, docs/decisions/010-one-writer-per-exam.md): each load of the exam
// screen gets a new writer handle and the previous one stops being valid; saves and submits that
// name a handle apply only with the current one.

/** A new writer handle, for the screen loading the paper now. */
export const newWriter = () => newToken(WRITER_BYTES);

/**
 * 409 exam_open_elsewhere when the request names a writer handle that is no longer the paper's:
 * another screen loaded it since, and this one must not undo that screen's answers. A request
 * without a handle (the spec's own client) passes, as before the rule.
 */
export function assertCurrentWriter(row: { writer: string | null }, writer: string | undefined) {
  if (writer !== undefined && writer !== row.writer) throw openElsewhere();
}

// Answers ------------------------------------------------------------------------------------------

/** What a save or a submit sends (the exam's and the practice round's bodies alike). */
export interface PaperAnswersBody {
  answers: ExamAnswer[];
  prediction?: number | null;
  seq?: number;
  writer?: string;
}

export function answerMapOf(answers: ExamAnswer[]): AnswerMap {
  const map: AnswerMap = {};
  for (const answer of answers) {
    if (map[answer.question_id] !== undefined) throw duplicateQuestion();
    map[answer.question_id] = answer.answer_id;
  }
  return map;
}

/** 400 naming the first answer that is not one of the paper's own question/answer pairs. */
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

/** The saved answers as the spec's data_answers list, in the paper's question order. */
export function answerList(questions: ExamQuestion[], answers: AnswerMap): ExamAnswer[] {
  return questions
    .filter((question) => answers[question.id] !== undefined)
    .map((question) => ({ question_id: question.id, answer_id: answers[question.id]! }));
}

/** The columns of a paper row the rules read. */
export interface PaperState {
  end_time: Date;
  questions: ExamQuestion[];
  answers: AnswerMap;
  prediction: number | null;
  save_seq: number;
  writer: string | null;
}

/**
 * The save's rule, once the paper is known to be in progress and within its time: the writer,
 * then the order of saves (a screen that lost the paper to another has usually fallen behind it
 * too), then the answers' ids. 'stale' when a newer save was applied; 'apply' otherwise.
 */
export function saveOutcome(row: PaperState, body: PaperAnswersBody, answers: AnswerMap): 'stale' | 'apply' {
  assertCurrentWriter(row, body.writer);
  if (body.seq !== undefined && row.save_seq > body.seq) return 'stale';
  assertAnswersBelong(row.questions, answers);
  return 'apply';
}

/**
 * The submit's rule: within the time (and its grace) the answers sent count, unless a save newer
 * than this submit was applied; after it, only what was saved in time. Within the time, a submit
 * from a screen that is no longer the writer is refused (409 exam_open_elsewhere, nothing
 * changes). Before the deadline every question and the prediction must be answered (400
 * incomplete, with what is missing). True when the answers sent are to be stored.
 */
export function finalAnswersCount(row: PaperState, body: PaperAnswersBody, answers: AnswerMap, now: Date): boolean {
  // Past the time no screen writes any more: the paper is finished with what was saved in time.
  if (isOverdue(row.end_time, now)) return false;
  assertCurrentWriter(row, body.writer);
  assertAnswersBelong(row.questions, answers);
  const stale = body.seq !== undefined && row.save_seq > body.seq;
  const merged = stale ? row.answers : { ...row.answers, ...answers };
  const prediction = stale ? row.prediction : (body.prediction ?? row.prediction);
  const timeUp = now.getTime() >= row.end_time.getTime();
  const missing = row.questions.filter((question) => merged[question.id] === undefined).map((question) => question.id);
  if (!timeUp && (missing.length > 0 || prediction === null)) {
    throw new AppError('incomplete', messages.answerAllQuestions, undefined, {
      missing_question_ids: missing,
      missing_prediction: prediction === null,
    });
  }
  return !stale;
}
