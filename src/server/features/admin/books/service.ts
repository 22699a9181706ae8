// The rules of the back office's books and question banks. Every change is written to the audit
// log in its own transaction.
import type { PageQuery } from '../../../../shared/schemas/admin';
import { booksMessages, type QuestionData } from '../../../../shared/schemas/admin-books';
import { examDaysMessages } from '../../../../shared/messages';
import { questionKey } from '../../../../shared/question-formats/question-text';
import type { Services } from '../../../services';
import { appError, notFound } from '../../../lib/errors';
import { assertCurrentSeason, getCurrentContest, seasonOrCurrent } from '../../../core/contest';
import type { Contest } from '../../../db/schema';
import { storeAudio, storeImage } from '../../media';
import { recordAudit, type Actor } from '../kit/audit';
import { breather } from '../kit/sheets';
import type { Upload } from '../kit/uploads';
import { questionFile } from './question-file-reader';
import { runImport } from '../kit/imports';
import { MAX_LISTED_CHANGES } from '../../../../shared/schemas/admin';
import * as repo from './repo';
import { recheckCertificates } from '../../certificates';
import { isUniqueViolation } from '../../../db/errors';

/** Shown for a new book until its cover is uploaded (a static file of the web app). */
export const NO_COVER_IMAGE = '/images/books/no-cover.svg';

type Deps = Pick<Services, 'db' | 'clock'>;

/** Covers are shown at most 600 px wide (the home page's large cover). */
const COVER_WIDTH = 600;

const bookNotFound = () => notFound(booksMessages.bookNotFound);
const questionNotFound = () => notFound(booksMessages.questionNotFound);

const seasonView = (season: Contest) => ({ id: season.id, name: season.name, is_current: season.is_current });

// Books ---------------------------------------------------------------------------------------
/** The books of the current season, or of an earlier one (`seasonId`, read-only: issue 26). */
export async function listBooks({ db }: Deps, q?: string, seasonId?: number) {
  const season = seasonId === undefined ? await getCurrentContest(db) : await seasonOrCurrent(db, seasonId);
  const items = season ? await repo.listBooks(db, q, season.id) : [];
  return { items, questions_per_exam: season?.questions_per_exam ?? 0, season: season ? seasonView(season) : null };
}

export async function getBook({ db, clock }: Deps, id: number) {
  const found = await repo.findBook(db, id);
  if (!found) throw bookNotFound();
  const { contest_id: seasonId, ...book } = found;
  const season = await seasonOrCurrent(db, seasonId);
  const frozen = season.is_current && (await questionsFrozen({ db, clock }, id));
  return { ...book, questions_per_exam: season.questions_per_exam, questions_frozen: frozen, season: seasonView(season) };
}

/**
 * The book to change, refused with 409 season_read_only when its season has ended: an earlier
 * season's books and banks are read-only. Said before any work (a cover stored, a file read);
 * the triggers of 0033_seasons.sql refuse the write whatever the path.
 */
async function writableBook(db: Deps['db'], id: number) {
  const book = await repo.findBook(db, id);
  if (!book) throw bookNotFound();
  await assertCurrentSeason(db, book.contest_id);
  return book;
}

/**
 * While the exam window is open, the questions of a book that exams use are frozen: an exam in
 * progress must never change under a child. A wrong key is corrected by regrading instead.
 * New questions may still be added (one by one or appended by an import): exams already drawn do
 * not contain them. Replacing the bank of a book with exams is refused at any time (importQuestions).
 */
async function questionsFrozen({ db, clock }: Deps, bookId: number): Promise<boolean> {
  const contest = await getCurrentContest(db);
  if (!contest) return false;
  const now = clock.now();
  const windowOpen = contest.exam_starts_at <= now && now < contest.exam_ends_at;
  return windowOpen && (await repo.bookHasExams(db, bookId));
}

async function assertNotFrozen(deps: Deps, bookId: number) {
  if (await questionsFrozen(deps, bookId)) throw appError('questions_frozen', examDaysMessages.questionsFrozen);
}

async function checkGroup(db: Deps['db'], classGroupId: number) {
  if (!(await repo.classGroupExists(db, classGroupId))) {
    throw appError('input_refused', booksMessages.groupNotFound, { class_group_id: booksMessages.groupNotFound });
  }
}

export async function createBook(deps: Deps, actor: Actor, input: { name: string; author: string; class_group_id: number }) {
  const { db } = deps;
  await checkGroup(db, input.class_group_id);
  try {
    const id = await db.transaction().execute(async (trx) => {
      // The cover is uploaded next; until then the book has none.
      const { id } = await repo.insertBook(trx, { ...input, image: NO_COVER_IMAGE });
      await recordAudit(trx, actor, { kind: 'book.create', summary: `Thêm sách "${input.name}"`, details: { after: { id, ...input } } });
      return id;
    });
    return getBook(deps, id);
  } catch (error) {
    // Two books added at the same moment took the same position: the second one tries again.
    if (isUniqueViolation(error)) throw appError('name_taken', booksMessages.addedMeanwhile);
    throw error;
  }
}

export async function updateBook(deps: Deps, actor: Actor, id: number, input: { name: string; author: string; class_group_id: number }) {
  const { db } = deps;
  await db.transaction().execute(async (trx) => {
    const before = await writableBook(trx, id);
    if (before.class_group_id !== input.class_group_id) {
      await checkGroup(trx, input.class_group_id);
      // Contestants of the old group took exams of it: the book stays in that group.
      if (await repo.bookHasExams(trx, id)) throw appError('in_use', booksMessages.groupLocked, { class_group_id: booksMessages.groupLocked });
    }
    await repo.updateBook(trx, id, input);
    // Certificates print the book's name: the job brings them up to date.
    if (input.name !== before.name) await recheckCertificates(trx);
    await recordAudit(trx, actor, {
      kind: 'book.update',
      summary: `Sửa sách "${input.name}"`,
      details: { before: { name: before.name, author: before.author, class_group_id: before.class_group_id }, after: input },
    });
  });
  return getBook(deps, id);
}

export async function uploadCover(deps: Deps, actor: Actor, id: number, bytes: Buffer) {
  const { db } = deps;
  const book = await writableBook(db, id);
  const path = await storeImage(db, bytes, { maxWidth: COVER_WIDTH });
  await db.transaction().execute(async (trx) => {
    await repo.updateBook(trx, id, { image: path });
    await recordAudit(trx, actor, {
      kind: 'book.cover',
      summary: `Đổi ảnh bìa sách "${book.name}"`,
      details: { before: { image: book.image }, after: { image: path } },
    });
  });
  return { path };
}

/** A recorded clip for a question or an answer, stored until a question refers to it. */
export async function uploadAudio({ db }: Deps, bytes: Buffer) {
  return { path: await storeAudio(db, bytes) };
}

// Questions -----------------------------------------------------------------------------------
export async function listQuestions({ db }: Deps, bookId: number, query: PageQuery) {
  if (!(await repo.findBook(db, bookId))) throw bookNotFound();
  return repo.pageOfQuestions(db, bookId, query);
}

/** 422 when an audio path does not name a stored clip (the client cannot invent one). */
async function checkAudio(db: Deps['db'], question: QuestionData) {
  const paths = [question.audio, ...question.answers.map((a) => a.audio)].filter((p): p is string => p !== null);
  const found = await repo.existingMedia(db, paths);
  const errors: Record<string, string> = {};
  if (question.audio && !found.has(question.audio)) errors.audio = booksMessages.audioUnknown;
  question.answers.forEach((answer, i) => {
    if (answer.audio && !found.has(answer.audio)) errors[`answers.${i}.audio`] = booksMessages.audioUnknown;
  });
  if (Object.keys(errors).length > 0) throw appError('input_refused', booksMessages.audioUnknown, errors);
}

const snapshot = (q: { value: string; audio: string | null; is_practice: boolean; answers: { value: string; audio: string | null }[]; correct: number }) => ({
  value: q.value,
  audio: q.audio,
  is_practice: q.is_practice,
  answers: q.answers.map((a) => ({ value: a.value, audio: a.audio })),
  correct: q.correct,
});

export async function createQuestion({ db }: Deps, actor: Actor, bookId: number, question: QuestionData) {
  await checkAudio(db, question);
  const id = await db.transaction().execute(async (trx) => {
    const book = await writableBook(trx, bookId);
    const [id] = await repo.insertQuestions(trx, bookId, [question]);
    await recordAudit(trx, actor, {
      kind: 'question.create',
      summary: `Thêm câu hỏi #${id} vào sách "${book.name}"`,
      details: { after: { id, book_id: bookId, ...snapshot(question) } },
    });
    return id!;
  });
  return (await repo.findQuestion(db, id))!;
}

export async function updateQuestion({ db, clock }: Deps, actor: Actor, id: number, question: QuestionData) {
  await checkAudio(db, question);
  await db.transaction().execute(async (trx) => {
    const before = await repo.findQuestion(trx, id);
    if (!before) throw questionNotFound();
    await writableBook(trx, before.book_id);
    if (question.is_practice && !before.is_practice) {
      // A practice question is never one a contestant met in a real exam, and the exam bank
      // must keep enough questions while the window is open.
      if (await repo.isDrawn(trx, before.book_id, id)) {
        throw appError('in_use', booksMessages.drawnToPractice, { is_practice: booksMessages.drawnToPractice });
      }
      await repo.lockBook(trx, before.book_id);
      await checkBankSize({ db: trx, clock }, (await repo.countQuestions(trx, before.book_id)) - 1);
    }
    // A practice question is in no real exam: the freeze is for questions exams use.
    if (!(before.is_practice && question.is_practice)) await assertNotFrozen({ db: trx, clock }, before.book_id);
    // A question already drawn can be corrected: exams keep the text they were drawn with.
    await repo.updateQuestion(trx, id, question, before.answers.map((a) => a.id));
    await recordAudit(trx, actor, {
      kind: 'question.update',
      summary: `Sửa câu hỏi #${id}`,
      details: { book_id: before.book_id, before: snapshot({ ...before, correct: before.answers.findIndex((a) => a.is_correct) }), after: snapshot(question) },
    });
  });
  return (await repo.findQuestion(db, id))!;
}

/** Refuses when the bank would be smaller than an exam draws while the exam window is open. */
async function checkBankSize({ db, clock }: Deps, remaining: number) {
  const contest = await getCurrentContest(db);
  if (!contest) return;
  const now = clock.now();
  const windowOpen = now >= contest.exam_starts_at && now <= contest.exam_ends_at;
  if (windowOpen && remaining < contest.questions_per_exam) {
    throw appError('bank_too_small', booksMessages.bankTooSmall(remaining, contest.questions_per_exam));
  }
}

export async function deleteQuestion(deps: Deps, actor: Actor, id: number) {
  await deps.db.transaction().execute(async (trx) => {
    const question = await repo.findQuestion(trx, id);
    if (!question) throw questionNotFound();
    await writableBook(trx, question.book_id);
    const book = await repo.lockBook(trx, question.book_id);
    if (await repo.isDrawn(trx, question.book_id, id)) throw appError('in_use', booksMessages.questionDrawn);
    // A practice question is in no real exam and not part of the bank an exam draws from.
    if (!question.is_practice) await assertNotFrozen({ ...deps, db: trx }, question.book_id);
    if (!question.is_practice) await checkBankSize({ ...deps, db: trx }, (await repo.countQuestions(trx, question.book_id)) - 1);
    await repo.deleteQuestions(trx, [id]);
    await recordAudit(trx, actor, {
      kind: 'question.delete',
      summary: `Xoá câu hỏi #${id} của sách "${book?.name ?? ''}"`,
      details: { book_id: question.book_id, before: snapshot({ ...question, correct: question.answers.findIndex((a) => a.is_correct) }) },
    });
  });
}

// Import --------------------------------------------------------------------------------------
/** Each question's key, in slices (20,000 of them would hold the event loop for tens of ms). */
async function keysOf(questions: Parameters<typeof questionKey>[0][]): Promise<string[]> {
  const breathe = breather();
  const keys: string[] = [];
  for (const question of questions) {
    await breathe();
    keys.push(questionKey(question));
  }
  return keys;
}

/** The `mode` form field: "append" (the default) or "replace". */
function importMode(field: string | undefined): 'append' | 'replace' {
  const mode = field || 'append';
  if (mode !== 'append' && mode !== 'replace') throw appError('import_invalid', booksMessages.badMode, []);
  return mode;
}

/** POST /books/{id}/questions/import: the file's questions added to the bank ("append"), or the bank made the file ("replace"). */
export async function importQuestions(deps: Deps & Pick<Services, 'config'>, actor: Actor, bookId: number, upload: Upload) {
  const book = await writableBook(deps.db, bookId);
  const mode = importMode(upload.fields.mode);
  return runImport(deps, actor, upload, {
    read: questionFile,
    async preview(db, file, { dryRun, problems }) {
      // The file's own mistakes are answered before the bank is read.
      problems.throwIfAny();
      // Imports of one bank wait for each other: the comparison below holds until the commit.
      if (!dryRun) await repo.lockBook(db, bookId);
      if (mode === 'replace' && (await repo.bookHasExams(db, bookId))) throw appError('in_use', booksMessages.replaceWithExams);
      const bank = await repo.bankOf(db, bookId);
      const bankKeys = await keysOf(bank);
      const fileKeys = await keysOf(file.questions);
      const inBank = new Set(bankKeys);
      const inFile = new Set(fileKeys);
      const toCreate = file.questions.filter((_, i) => !inBank.has(fileKeys[i]!));
      const toDelete = mode === 'replace' ? bank.filter((_, i) => !inFile.has(bankKeys[i]!)).map((q) => q.id) : [];
      if (mode === 'replace') await checkBankSize({ db, clock: deps.clock }, file.questions.length);
      const counts = { created: toCreate.length, updated: 0, unchanged: file.questions.length - toCreate.length, deleted: toDelete.length };
      return {
        counts,
        // Moodle's way: the multiple-choice questions are imported, the others listed as left out.
        answer: {
          mode,
          format: file.format,
          skipped: file.skipped,
          skipped_total: file.skippedTotal,
          warnings: file.warnings,
          warnings_total: file.warningsTotal,
          // The questions as read, with their keys, so that a misread file is seen before it is saved.
          questions: file.questions.slice(0, MAX_LISTED_CHANGES).map((q, i) => ({ row: q.row, value: q.value, answers: q.answers, correct: q.correct, in_bank: inBank.has(fileKeys[i]!) })),
          questions_total: file.questions.length,
        },
        async store(trx) {
          await repo.deleteQuestions(trx, toDelete);
          await repo.insertQuestions(
            trx,
            bookId,
            toCreate.map((q) => ({ value: q.value, audio: null, answers: q.answers.map((value) => ({ value, audio: null })), correct: q.correct })),
          );
          return {
            audit: {
              kind: 'questions.import',
              summary:
                `Nhập câu hỏi từ tệp "${upload.fileName}" vào sách "${book.name}" (${mode === 'replace' ? 'thay cả ngân hàng' : 'thêm vào'}): ` +
                `thêm ${counts.created}, giữ nguyên ${counts.unchanged}${mode === 'replace' ? `, xoá ${counts.deleted}` : ''}`,
              details: { file: upload.fileName, format: file.format, mode, book_id: bookId, counts },
            },
          };
        },
      };
    },
  });
}
