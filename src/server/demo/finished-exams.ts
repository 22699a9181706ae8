// Results data for the demo and the tests: pupils and finished exams written straight into the database,
// so that report, ranking and certificate tests do not depend on the exam flow.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/client';
import type { ExamQuestion } from '../db/schema';
import { POINTS_PER_CORRECT_ANSWER, SESSION_TTL_SECONDS } from '../../shared/rules';
import { hashToken, newToken } from '../lib/tokens';

export interface FinishedExamInput {
  contestantId: number;
  bookId: number;
  attempt: number;
  points: number;
  durationSeconds: number;
  submittedAt: Date;
  prediction: number | null;
  /** Defaults to the current contest (the one flagged current). */
  contestId?: number;
}

async function currentContestId(db: Db): Promise<number> {
  const row = await db.selectFrom('contests').select('id').where('is_current', '=', true).executeTakeFirstOrThrow();
  return row.id;
}

/** A random exam slug like the exam flow's (base64url, 22 characters). */
export const newExamSlug = () => randomBytes(16).toString('base64url');

const questionsCache = new Map<number, { questions: ExamQuestion[]; key: Record<string, number> }>();

/** The first 20 questions of a book with their answers, as an exam stores them. */
async function questionsOf(db: Db, bookId: number) {
  const cached = questionsCache.get(bookId);
  if (cached) return cached;
  const rows = await db
    .selectFrom('questions')
    .innerJoin('answers', 'answers.question_id', 'questions.id')
    .select(['questions.id as qid', 'questions.value as qvalue', 'answers.id as aid', 'answers.value as avalue', 'answers.is_correct'])
    .where('questions.book_id', '=', bookId)
    .where('questions.is_practice', '=', false)
    .orderBy('questions.id')
    .orderBy('answers.id')
    .execute();
  const byQuestion = new Map<number, ExamQuestion>();
  const key: Record<string, number> = {};
  for (const row of rows) {
    if (!byQuestion.has(row.qid) && byQuestion.size >= 20) continue;
    const question = byQuestion.get(row.qid) ?? { id: row.qid, value: row.qvalue, answers: [] };
    question.answers.push({ id: row.aid, value: row.avalue });
    byQuestion.set(row.qid, question);
    if (row.is_correct) key[String(row.qid)] = row.aid;
  }
  const value = { questions: [...byQuestion.values()], key };
  questionsCache.set(bookId, value);
  return value;
}

/** Inserts finished exams (status 1) with consistent times, questions and answers, one statement per 500. */
export async function insertFinishedExams(db: Db, inputs: readonly FinishedExamInput[]): Promise<{ id: number; slug: string }[]> {
  if (inputs.length === 0) return [];
  const fallbackContest = inputs.some((input) => input.contestId === undefined) ? await currentContestId(db) : 0;
  const values = [];
  for (const input of inputs) {
    const { questions, key } = await questionsOf(db, input.bookId);
    const correct = Math.round(input.points / POINTS_PER_CORRECT_ANSWER);
    // The contestant's answers: the first `correct` questions right, the others wrong.
    const answers: Record<string, number> = {};
    questions.forEach((question, index) => {
      const right = key[String(question.id)]!;
      const wrong = question.answers.find((answer) => answer.id !== right)?.id ?? right;
      answers[String(question.id)] = index < correct ? right : wrong;
    });
    const start = new Date(input.submittedAt.getTime() - input.durationSeconds * 1000);
    values.push({
      slug: newExamSlug(),
      contest_id: input.contestId ?? fallbackContest,
      contestant_id: input.contestantId,
      book_id: input.bookId,
      attempt: input.attempt,
      status: 1 as const,
      start_time: start,
      end_time: new Date(start.getTime() + Math.max(1200, input.durationSeconds + 1) * 1000),
      questions: JSON.stringify(questions),
      answer_key: JSON.stringify(key),
      answers: JSON.stringify(answers),
      prediction: input.prediction,
      saved_at: input.submittedAt,
      submitted_at: input.submittedAt,
      correct_count: correct,
      points: input.points,
      duration_seconds: input.durationSeconds,
    });
  }
  const out: { id: number; slug: string }[] = [];
  for (let i = 0; i < values.length; i += 500) {
    out.push(...(await db.insertInto('exams').values(values.slice(i, i + 500)).returning(['id', 'slug']).execute()));
  }
  return out;
}

export interface PupilsInput {
  schoolId: number;
  /** Class room names of the catalogue (e.g. '5A3'), used in turn. */
  classRooms: string[];
  count: number;
  fullname?: (index: number) => string;
  /** Phone prefix of the parents made for them (3 pupils per parent); 4 digits, e.g. '0399'. */
  phonePrefix?: string;
}

let phoneSerial = 0;

/**
 * Pupils of a school, three per made-up parent account that cannot log in (no valid password
 * hash). Returns their ids in order, with the class room name of each.
 */
export async function insertPupils(db: Db, input: PupilsInput): Promise<{ id: number; classRoom: string; fullname: string; userId: number }[]> {
  const school = await db.selectFrom('schools').select(['id', 'district_id']).where('id', '=', input.schoolId).executeTakeFirstOrThrow();
  const rooms = await db.selectFrom('class_rooms').select(['id', 'name', 'class_group_id']).where('name', 'in', input.classRooms).execute();
  const roomByName = new Map(rooms.map((room) => [room.name, room]));
  const prefix = input.phonePrefix ?? '0399';
  const result: { id: number; classRoom: string; fullname: string; userId: number }[] = [];
  for (let start = 0; start < input.count; start += 3 * 300) {
    const parents = Math.min(300, Math.ceil((input.count - start) / 3));
    const users = await db
      .insertInto('users')
      .values(
        Array.from({ length: parents }, () => {
          phoneSerial += 1;
          const serial = String((process.pid * 100_000 + phoneSerial) % 1_000_000).padStart(6, '0');
          return { phone: `${prefix}${serial}`, password_hash: '!', role: 'parent' as const, school_id: null };
        }),
      )
      .returning('id')
      .execute();
    const contestants = [];
    for (let i = start; i < Math.min(input.count, start + parents * 3); i += 1) {
      const roomName = input.classRooms[i % input.classRooms.length]!;
      const room = roomByName.get(roomName);
      if (!room) throw new Error(`Unknown class room ${roomName}`);
      contestants.push({
        user_id: users[Math.floor((i - start) / 3)]!.id,
        position: ((i - start) % 3) + 1,
        fullname: input.fullname?.(i) ?? `Học Sinh ${i + 1}`,
        district_id: school.district_id,
        school_id: school.id,
        class_group_id: room.class_group_id,
        class_room_id: room.id,
        class_room_other: null,
      });
    }
    const inserted = await db.insertInto('contestants').values(contestants).returning(['id', 'fullname', 'user_id', 'class_room_id']).execute();
    for (const row of inserted) {
      result.push({ id: row.id, fullname: row.fullname, userId: row.user_id, classRoom: rooms.find((room) => room.id === row.class_room_id)!.name });
    }
  }
  return result;
}

/** The books of a class group in the current season, in their order. */
export const booksOfGroup = (db: Db, classGroupId: number) =>
  db
    .selectFrom('books')
    .select(['id', 'name'])
    .where('class_group_id', '=', classGroupId)
    .where('contest_id', '=', sql<number>`(SELECT id FROM contests WHERE is_current)`)
    .orderBy('position')
    .execute();

/** The id of a book of the group of a class room ('5A3' -> a grade-5 book), by its order (0..2). */
export async function bookForClassRoom(db: Db, classRoom: string, index = 0): Promise<{ id: number; name: string }> {
  const room = await db.selectFrom('class_rooms').select('class_group_id').where('name', '=', classRoom).executeTakeFirstOrThrow();
  const books = await booksOfGroup(db, room.class_group_id);
  return books[index % books.length]!;
}

/** A bearer token for a user, valid from `now` (tests move the clock by weeks). */
export async function sessionAt(db: Db, userId: number, now: Date): Promise<string> {
  const token = newToken();
  await db
    .insertInto('sessions')
    .values({ user_id: userId, token_hash: hashToken(token), created_at: now, expires_at: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000) })
    .execute();
  return token;
}
