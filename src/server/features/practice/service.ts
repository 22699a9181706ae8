// The rules of the practice round ("Thi thử", issue 14): any contestant of the account, any time
// until the exam window closes, as often as they like (one round in progress, a new start ends
// it; a daily cap keeps the table small). The same server-side checks as the real exam (owner
// only, answers must belong to the round's questions, the time limit with the same grace), but
// its own table: a practice round is never an attempt, never ranked, never in a report.
import { withClips, findOwnedContestant, answerMapOf, assertAnswersBelong, assertCurrentWriter, finalAnswersCount, isOverdue, newWriter, paperOf } from '../exams';
import { examMessages, practiceMessages } from '../../../shared/messages';
import { SAVE_GRACE_SECONDS } from '../../../shared/rules';
import type { ExamAnswer } from '../../../shared/schemas/exams';
import {
  PRACTICE_KEEP_DAYS,
  PRACTICE_QUESTIONS,
  PRACTICE_STARTS_PER_DAY,
  type PracticeSaveBody,
} from '../../../shared/schemas/practice';
import type { Db } from '../../db/client';
import type { AnswerMap, Contest, ExamQuestion } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { AppError, conflict, notFound, tooManyRequests } from '../../lib/errors';
import { newToken } from '../../lib/tokens';
import type { Services } from '../../services';
import type { AuthUser } from '../../core/guard';
import { getCurrentContest, requireCurrentContest } from '../../core/contest';
import * as repo from './repo';

type Deps = Pick<Services, 'db' | 'clock'>;

const DAY_MS = 86_400_000;
/** As the exams' slugs: 144 random bits. */
const SLUG_BYTES = 18;

const iso = (date: Date) => date.toISOString();

// The exam screen reads these codes and flags as it does the real exam's (exam-page.tsx).
const practiceNotFound = () => new AppError(404, 'not_found', practiceMessages.notFound, undefined, { not_found: true });
const alreadySubmitted = () => new AppError(409, 'exam_submitted', practiceMessages.alreadySubmitted, undefined, { submited: true });
const tooLate = () => new AppError(409, 'time_up', examMessages.saveTooLate, undefined, { submited: true });

/**
 * The round's time: the contest's pace per item (its exam time over its questions and the
 * prediction) for the round's items, rounded up to whole minutes, never longer than a real exam.
 * With the spec's 20 questions in 20 minutes, 5 questions get 6 minutes: the child feels the real
 * pace, and sees the countdown's 5-minute and 1-minute notices once before the real exam.
 */
export function practiceDurationSeconds(contest: Pick<Contest, 'exam_duration_seconds' | 'questions_per_exam'>, questionCount: number) {
  const perItem = contest.exam_duration_seconds / (contest.questions_per_exam + 1);
  const rounded = Math.ceil((perItem * (questionCount + 1)) / 60) * 60;
  return Math.min(contest.exam_duration_seconds, Math.max(60, rounded));
}

/** The window is closed once the contest's exam period has ended (or there is no contest). */
const isOpen = (contest: Contest | undefined, now: Date) => contest !== undefined && now <= contest.exam_ends_at;

export async function practiceStatus({ db, clock }: Deps, user: AuthUser) {
  const now = clock.now();
  const [contest, contestants] = await Promise.all([getCurrentContest(db), repo.practiceStatusOf(db, user.id, new Date(now.getTime() - SAVE_GRACE_SECONDS * 1000))]);
  return { open: isOpen(contest, now), contestants };
}

export async function startPractice({ db, clock }: Deps, user: AuthUser, contestantId: number) {
  const now = clock.now();
  const started = await db.transaction().execute(async (trx) => {
    // Locked: two starts of one contestant queue here, and the second ends the first's round.
    const contestant = await findOwnedContestant(trx, contestantId, user.id, true);
    if (!contestant) throw notFound(examMessages.contestantNotFound);
    const contest = await requireCurrentContest(trx);
    if (!isOpen(contest, now)) throw conflict(practiceMessages.closed, 'window_closed');
    if ((await repo.countStartsSince(trx, contestant.id, new Date(now.getTime() - DAY_MS))) >= PRACTICE_STARTS_PER_DAY) {
      throw tooManyRequests(practiceMessages.tooMany(PRACTICE_STARTS_PER_DAY));
    }
    // Fewer than PRACTICE_QUESTIONS in the group's books: the round has what there is.
    const drawn = await repo.drawPracticeQuestions(trx, contestant.class_group_id, PRACTICE_QUESTIONS);
    if (drawn.length === 0) throw conflict(practiceMessages.notAvailable, 'practice_unavailable');
    await repo.finaliseInProgress(trx, contestant.id, now);

    const { questions, answerKey } = paperOf(drawn);
    const row = await repo.insertPractice(trx, {
      slug: newToken(SLUG_BYTES),
      user_id: user.id,
      contestant_id: contestant.id,
      start_time: now,
      end_time: new Date(now.getTime() + practiceDurationSeconds(contest, questions.length) * 1000),
      questions,
      answer_key: answerKey,
    });
    return { ...row, question_count: questions.length };
  });
  return {
    success: true as const,
    message: practiceMessages.started,
    slug: started.slug,
    practice_id: started.id,
    child_id: contestantId,
    question_count: started.question_count,
    start_time: iso(started.start_time),
    end_time: iso(started.end_time),
  };
}

/** A round whose time (and grace) ran out is scored before anyone reads it. */
async function finaliseIfOverdue(db: Db, practice: repo.OwnedPractice, now: Date) {
  if (practice.status !== 2 || !isOverdue(practice.end_time, now)) return false;
  await repo.finalisePractice(db, practice.id, now);
  return true;
}

function answerList(questions: ExamQuestion[], answers: AnswerMap): ExamAnswer[] {
  return questions.filter((q) => answers[q.id] !== undefined).map((q) => ({ question_id: q.id, answer_id: answers[q.id]! }));
}

/** The round in the exam screen's shape: attempt 0 and the contestant's group instead of a book. */
export async function practiceForTaking({ db, clock }: Deps, user: AuthUser, slug: string) {
  const practice = await repo.findOwnedPractice(db, slug, user.id);
  if (!practice) throw practiceNotFound();
  const now = clock.now();
  if (practice.status === 1 || (await finaliseIfOverdue(db, practice, now))) throw alreadySubmitted();
  // The one-writer rule of the exam screen (exams/service.ts): this screen becomes the round's writer.
  const writer = newWriter();
  if (!(await repo.claimWriter(db, practice.id, writer))) throw alreadySubmitted();
  return {
    success: true as const,
    not_found: false as const,
    submited: false as const,
    message: '',
    children: { id: practice.contestant_id, fullname: practice.fullname },
    data: {
      id: practice.id,
      slug: practice.slug,
      status: 2 as const,
      attempt: 0,
      book: { id: 0, name: practiceMessages.bookName(practice.group_name, practice.group_grades) },
      prediction: practice.prediction,
      // The organiser's recorded clips, read aloud as in the real exam.
      data_questions: await withClips(db, practice.questions),
      data_answers: answerList(practice.questions, practice.answers),
      save_seq: practice.save_seq,
      start_time: iso(practice.start_time),
      end_time: iso(practice.end_time),
      server_time: iso(now),
      duration_seconds: Math.round((practice.end_time.getTime() - practice.start_time.getTime()) / 1000),
      writer,
    },
  };
}

export async function practiceTime({ db, clock }: Deps, user: AuthUser, slug: string) {
  const practice = await repo.findOwnedPractice(db, slug, user.id);
  if (!practice) throw practiceNotFound();
  const now = clock.now();
  const finished = practice.status === 1 || (await finaliseIfOverdue(db, practice, now));
  return {
    success: true as const,
    data: { start_time: iso(practice.start_time), end_time: iso(practice.end_time), server_time: iso(now), status: finished ? (1 as const) : (2 as const) },
  };
}

/** An autosave: the same rules as the exam's (owner, not finished, deadline + grace, writer, sequence, answer ids). */
export async function savePractice({ db, clock }: Deps, user: AuthUser, slug: string, body: PracticeSaveBody) {
  const answers = answerMapOf(body.answers);
  const now = clock.now();
  const seq = body.seq ?? null;
  return db.transaction().execute(async (trx) => {
    const practice = await repo.findOwnedPractice(trx, slug, user.id, true);
    if (!practice) throw practiceNotFound();
    if (practice.status === 1) throw alreadySubmitted();
    if (isOverdue(practice.end_time, now)) {
      await repo.finalisePractice(trx, practice.id, now);
      return { overdue: true as const };
    }
    assertCurrentWriter(practice, body.writer);
    if (seq !== null && practice.save_seq > seq) {
      return { success: true as const, saved: false, stale: true, save_seq: practice.save_seq, server_time: iso(now) };
    }
    assertAnswersBelong(practice.questions, answers);
    const saveSeq = await repo.mergeAnswers(trx, practice.id, answers, body.prediction ?? null, seq, now);
    return { success: true as const, saved: true, stale: false, save_seq: saveSeq ?? practice.save_seq, server_time: iso(now) };
  }).then((outcome) => {
    // Thrown after the commit, so that the round stays scored.
    if ('overdue' in outcome) throw tooLate();
    return outcome;
  });
}

export async function submitPractice({ db, clock }: Deps, user: AuthUser, slug: string, body: PracticeSaveBody) {
  const answers = answerMapOf(body.answers);
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const practice = await repo.findOwnedPractice(trx, slug, user.id, true);
    if (!practice) throw practiceNotFound();
    let alreadyDone = practice.status === 1;
    if (!alreadyDone) {
      if (finalAnswersCount(practice, body, answers, now)) await repo.mergeAnswers(trx, practice.id, answers, body.prediction ?? null, body.seq ?? null, now);
      alreadyDone = !(await repo.finalisePractice(trx, practice.id, now));
    }
    const done = (await repo.findOwnedPractice(trx, slug, user.id))!;
    return {
      success: true as const,
      submited: true as const,
      already_submitted: alreadyDone,
      message: alreadyDone ? practiceMessages.alreadySubmitted : practiceMessages.submitted,
      data: { slug, child_id: done.contestant_id, correct_count: done.correct_count ?? 0, question_count: done.questions.length },
    };
  });
}

export async function practiceResult({ db, clock }: Deps, user: AuthUser, slug: string) {
  let practice = await repo.findOwnedPractice(db, slug, user.id);
  if (!practice) throw practiceNotFound();
  if (await finaliseIfOverdue(db, practice, clock.now())) practice = (await repo.findOwnedPractice(db, slug, user.id))!;
  if (practice.status !== 1) throw conflict(practiceMessages.resultNotReady, 'exam_not_submitted');
  const { answers, answer_key: key } = practice;
  return {
    success: true as const,
    children: { id: practice.contestant_id, fullname: practice.fullname },
    data: {
      slug: practice.slug,
      child_id: practice.contestant_id,
      prediction: practice.prediction,
      data_questions: practice.questions,
      data_result: practice.questions.map((question) => {
        const correct = key[question.id] ?? null;
        const chosen = answers[question.id] ?? null;
        // The review's item shape: practice is never regraded, so one correct answer and no note.
        return {
          question_id: question.id,
          answer_id_user: chosen,
          answer_id_correct: correct,
          answer_ids_correct: correct === null ? [] : [correct],
          is_correct: chosen !== null && chosen === correct,
          regrade_note: null,
        };
      }),
      data_answers: answerList(practice.questions, answers),
      correct_count: practice.correct_count ?? 0,
      question_count: practice.questions.length,
      duration_seconds: practice.duration_seconds ?? 0,
      start_time: iso(practice.start_time),
      submitted_at: iso(practice.submitted_at ?? practice.end_time),
    },
  };
}

/** Batch of the purge: short transactions whatever the backlog. */
const PURGE_BATCH = 1000;

/** The job of jobs.ts: deletes practice rounds older than PRACTICE_KEEP_DAYS; returns how many. */
export async function purgeOldPractice(db: Db, clock: Clock): Promise<number> {
  const before = new Date(clock.now().getTime() - PRACTICE_KEEP_DAYS * DAY_MS);
  let total = 0;
  for (;;) {
    const count = await repo.deleteCreatedBefore(db, before, PURGE_BATCH);
    total += count;
    if (count < PURGE_BATCH) return total;
  }
}
