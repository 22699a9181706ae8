// One paper session for the exam and the practice round (docs/decisions/016-one-paper-engine.md):
// open on the exam screen, save, submit, finalise and read back, parameterised by the paper's
// kind (its table, its score, its messages and how its feature reads a row). The functions return
// rows and domain values; each feature's routes build the reply (reply.ts).
import type { RawBuilder } from 'kysely';
import { messages } from '../../../shared/messages';
import type { Db, HotStatement } from '../../db/client';
import type { AnswerMap } from '../../db/schema';
import { conflict, unauthorized } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import type { Auth } from '../guard';
import * as repo from './repo';
import {
  answerMapOf,
  assertCanTakeExams,
  finalAnswersCount,
  GRACE_MS,
  isOverdue,
  newWriter,
  saveOutcome,
  type PaperAnswersBody,
  type PaperErrors,
} from './rules';

/** How a request names a paper: its slug, and its id where the spec's API sends one too. */
export interface PaperKey {
  slug: string;
  id?: number;
}

export interface PaperKind<Row extends repo.PaperRow> {
  table: repo.PaperTable;
  /** SET assignments of correct_count (and the exam's points) for repo.finaliseSet. */
  score: RawBuilder<unknown>;
  errors: PaperErrors;
  /** The paper with its feature's columns, for its owner only; FOR UPDATE of the paper row when `lock`. */
  findOwned(db: Db, key: PaperKey, userId: number, lock?: boolean): Promise<Row | undefined>;
}

export const finalise = (db: Db, kind: PaperKind<repo.PaperRow>, id: number, now: Date) => repo.finalisePaper(db, kind.table, kind.score, id, now);

/** A paper in progress whose time (and grace) ran out is finalised before anyone reads it; true when it was. */
export async function finaliseIfOverdue(db: Db, kind: PaperKind<repo.PaperRow>, row: { id: number; status: 1 | 2; end_time: Date }, now: Date) {
  if (row.status !== 2 || !isOverdue(row.end_time, now)) return false;
  await finalise(db, kind, row.id, now);
  return true;
}

/**
 * Opens a paper on the exam screen: one statement (repo.openStatement) checks the session, makes
 * the screen the paper's writer and reads the paper with its clips. Only when it matched no row
 * are the reasons looked up, in the order a family meets them: 401/403, 404 (also for a paper
 * that `belongs` refuses), 409 already submitted (finalising a paper past its time first).
 */
export async function openForTaking<Row extends repo.OpenedRow, Found extends repo.PaperRow>(
  deps: { db: Db; auth: Auth; now: Date },
  kind: PaperKind<Found>,
  statement: HotStatement,
  token: string | undefined,
  key: PaperKey,
  extra: { values?: unknown[]; belongs?: (row: Found) => boolean } = {},
) {
  if (!token) throw unauthorized(messages.unauthorized);
  const { db, auth, now } = deps;
  const writer = newWriter();
  const open = { tokenHash: hashToken(token), now, endTimeAtLeast: new Date(now.getTime() - GRACE_MS), writer, slug: key.slug };
  const row = await repo.openPaper<Row>(db, statement, open, extra.values);
  if (row) return { paper: { ...row, questions: repo.withClips(row.questions, row.question_clips, row.answer_clips) }, writer, now };

  const user = assertCanTakeExams(await auth.findUserByToken(token));
  const found = await kind.findOwned(db, key, user.id);
  if (!found || (extra.belongs && !extra.belongs(found))) throw kind.errors.notFound();
  if (found.status === 1 || (await finaliseIfOverdue(db, kind, found, now))) throw kind.errors.alreadySubmitted();
  // Every check passes now: the row changed between the statement and this read. Ask for a retry.
  throw conflict(messages.serviceUnavailable, 'save_conflict');
}

/**
 * A save's checks on a paper read by its feature, in the order of the autosave's slow path: 409
 * already submitted; 'overdue' (the paper is finalised here with what was saved in time; the
 * caller answers errors.tooLate()); then the writer, the order of saves and the answers' ids
 * (rules.saveOutcome).
 */
export async function checkSave(db: Db, kind: PaperKind<repo.PaperRow>, row: repo.PaperRow, body: PaperAnswersBody, answers: AnswerMap, now: Date) {
  if (row.status === 1) throw kind.errors.alreadySubmitted();
  if (isOverdue(row.end_time, now)) {
    await finalise(db, kind, row.id, now);
    return 'overdue' as const;
  }
  return saveOutcome(row, body, answers);
}

/**
 * Submits a paper under its row lock: the answers sent are merged when they count
 * (rules.finalAnswersCount), the paper is finalised and read back. A paper finished before (by
 * another submit, a read after its time, the sweep) answers `alreadySubmitted` with its score.
 */
export async function submitPaper<Row extends repo.PaperRow>(db: Db, kind: PaperKind<Row>, userId: number, key: PaperKey, body: PaperAnswersBody, now: Date) {
  const answers = answerMapOf(body.answers);
  return db.transaction().execute(async (trx) => {
    const row = await kind.findOwned(trx, key, userId, true);
    if (!row) throw kind.errors.notFound();
    let alreadySubmitted = row.status === 1;
    if (!alreadySubmitted) {
      if (finalAnswersCount(row, body, answers, now)) await repo.mergeAnswers(trx, kind.table, row.id, answers, body.prediction ?? null, body.seq ?? null, now);
      alreadySubmitted = !(await finalise(trx, kind, row.id, now));
    }
    const paper = (await kind.findOwned(trx, { id: row.id, slug: row.slug }, userId))!;
    return { paper, alreadySubmitted };
  });
}

/** A finished paper for its result (one past its time is finalised first); 409 while it is in progress. */
export async function finishedPaper<Row extends repo.PaperRow>(db: Db, kind: PaperKind<Row>, userId: number, key: PaperKey, now: Date) {
  let paper = await kind.findOwned(db, key, userId);
  if (!paper) throw kind.errors.notFound();
  if (await finaliseIfOverdue(db, kind, paper, now)) paper = (await kind.findOwned(db, key, userId))!;
  if (paper.status !== 1) throw kind.errors.resultNotReady();
  return paper;
}
