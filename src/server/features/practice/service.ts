// The rules of the practice round ("Thi thử", issue 14): any contestant of the account, any time
// until the exam window closes, as often as they like (one round in progress, a new start ends
// it; a daily cap keeps the table small). The same server-side checks as the real exam (owner
// only, answers must belong to the round's questions, the time limit with the same grace), but
// its own table: a practice round is never an attempt, never ranked, never in a report.
import { examMessages, practiceMessages } from '../../../shared/messages';
import {
  PRACTICE_KEEP_DAYS,
  PRACTICE_QUESTIONS,
  PRACTICE_STARTS_PER_DAY,
  type PracticeSaveBody,
} from '../../../shared/schemas/practice';
import type { Db } from '../../db/client';
import type { Contest } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { appError, notFound, tooManyRequests } from '../../lib/errors';
import { newToken } from '../../lib/tokens';
import type { Services } from '../../services';
import type { AuthUser } from '../../core/guard';
import { seasonMessages } from '../../../shared/messages/seasons';
import { getCurrentContest, requireCurrentContest } from '../../core/contest';
import { findOwnedContestant, mergeAnswers } from '../../core/paper/repo';
import { answerMapOf, GRACE_MS, paperErrors, paperOf, SLUG_BYTES } from '../../core/paper/rules';
import { checkSave, finaliseIfOverdue, finishedPaper, openForTaking, submitPaper, type PaperKind } from '../../core/paper/session';
import * as repo from './repo';

type Deps = Pick<Services, 'db' | 'clock'>;

const DAY_MS = 86_400_000;

/** The practice round as a paper of core/paper: its own table, scored on its key, its own messages. */
const practicePaper: PaperKind<repo.OwnedPractice> = {
  table: 'practice_exams',
  score: repo.practiceScore,
  errors: paperErrors(practiceMessages),
  findOwned: repo.findOwnedPractice,
};
const { errors } = practicePaper;

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
  const [contest, contestants] = await Promise.all([getCurrentContest(db), repo.practiceStatusOf(db, user.id, new Date(now.getTime() - GRACE_MS))]);
  return { open: isOpen(contest, now), contestants };
}

export async function startPractice({ db, clock }: Deps, user: AuthUser, contestantId: number) {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    // Locked: two starts of one contestant queue here, and the second ends the first's round.
    const contestant = await findOwnedContestant(trx, contestantId, user.id, true);
    if (!contestant) throw notFound(examMessages.contestantNotFound);
    const contest = await requireCurrentContest(trx);
    if (contestant.contest_id !== contest.id) throw appError('contestant_of_past_season', seasonMessages.contestantOfPastSeason);
    if (!isOpen(contest, now)) throw appError('window_closed', practiceMessages.closed);
    if ((await repo.countStartsSince(trx, contestant.id, new Date(now.getTime() - DAY_MS))) >= PRACTICE_STARTS_PER_DAY) {
      throw tooManyRequests(practiceMessages.tooMany(PRACTICE_STARTS_PER_DAY));
    }
    // Fewer than PRACTICE_QUESTIONS in the group's books: the round has what there is.
    const drawn = await repo.drawPracticeQuestions(trx, contestant.class_group_id, PRACTICE_QUESTIONS);
    if (drawn.length === 0) throw appError('practice_unavailable', practiceMessages.notAvailable);
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
}

/** The round on the exam screen: one statement (repo.OPEN_PRACTICE) checks the session, makes this screen the writer, reads the round. */
export async function practiceForTaking({ db, clock, auth }: Deps & Pick<Services, 'auth'>, token: string | undefined, slug: string) {
  return openForTaking<repo.OpenedPractice, repo.OwnedPractice>({ db, auth, now: clock.now() }, practicePaper, repo.OPEN_PRACTICE, token, { slug });
}

export async function practiceTime({ db, clock }: Deps, user: AuthUser, slug: string) {
  const practice = await repo.findOwnedPractice(db, { slug }, user.id);
  if (!practice) throw errors.notFound();
  const now = clock.now();
  const finished = practice.status === 1 || (await finaliseIfOverdue(db, practicePaper, practice, now));
  return { start_time: practice.start_time, end_time: practice.end_time, status: finished ? (1 as const) : (2 as const), now };
}

/** An autosave: the exam's checks (core/paper checkSave) under the round's row lock, then the merge. */
export async function savePractice({ db, clock }: Deps, user: AuthUser, slug: string, body: PracticeSaveBody) {
  const answers = answerMapOf(body.answers);
  const now = clock.now();
  const outcome = await db.transaction().execute(async (trx) => {
    const practice = await repo.findOwnedPractice(trx, { slug }, user.id, true);
    if (!practice) throw errors.notFound();
    const check = await checkSave(trx, practicePaper, practice, body, answers, now);
    if (check !== 'apply') return { check, saveSeq: practice.save_seq };
    const saveSeq = await mergeAnswers(trx, 'practice_exams', practice.id, answers, body.prediction ?? null, body.seq ?? null, now);
    return { check, saveSeq: saveSeq ?? practice.save_seq };
  });
  // Thrown after the commit, so that the round stays scored.
  if (outcome.check === 'overdue') throw errors.tooLate();
  return { stale: outcome.check === 'stale', saveSeq: outcome.saveSeq, now };
}

export async function submitPractice({ db, clock }: Deps, user: AuthUser, slug: string, body: PracticeSaveBody) {
  return submitPaper(db, practicePaper, user.id, { slug }, body, clock.now());
}

export async function practiceResult({ db, clock }: Deps, user: AuthUser, slug: string) {
  return finishedPaper(db, practicePaper, user.id, { slug }, clock.now());
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
