// A book whose exam bank holds fewer questions than an exam draws (an empty bank chosen in "Mùa thi
// mới", questions deleted) is never offered to families: not in the contestant's book list, and a
// start on it is refused with a Vietnamese 409, never a short exam (issue 42).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { examMessages } from '../../../shared/messages';
import { startTestServer, type TestServer } from '../../test/harness';
import { parentWithContestant } from '../../test/exam-fixtures';

let server: TestServer;
let setup: Awaited<ReturnType<typeof parentWithContestant>>;
let perExam: number;

beforeAll(async () => {
  server = await startTestServer();
  setup = await parentWithContestant(server);
  perExam = (await server.db.selectFrom('contests').select('questions_per_exam').where('is_current', '=', true).executeTakeFirstOrThrow()).questions_per_exam;
});
afterAll(() => server?.close());

const bookIds = async () =>
  ((await server.request('GET', `/api/children/${setup.contestant.id}/books`, { token: setup.parent.token })).body.data as { id: number }[]).map((book) => book.id);
const start = (bookId: number) => server.request('POST', '/api/start-exam', { token: setup.parent.token, body: { book_id: bookId, child_id: setup.contestant.id } });
/** Keeps `count` of the book's exam questions (the lowest ids) and deletes the others. */
async function keepQuestions(bookId: number, count: number) {
  await sql`DELETE FROM questions WHERE book_id = ${bookId} AND NOT is_practice
            AND id NOT IN (SELECT id FROM questions WHERE book_id = ${bookId} AND NOT is_practice ORDER BY id LIMIT ${count})`.execute(server.db);
}

it('offers a book whose bank holds exactly an exam, and no longer once it is one question short', async () => {
  const book = setup.book.id;
  expect(await bookIds()).toContain(book);
  await keepQuestions(book, perExam);
  expect(await bookIds()).toContain(book);
  await keepQuestions(book, perExam - 1);
  expect(await bookIds()).not.toContain(book);
  // Asked all the same (an old screen, a crafted request): a 409 that says why, and no exam.
  const refused = await start(book);
  expect(refused.status).toBe(409);
  expect(refused.body).toEqual({ success: false, code: 'book_without_questions', message: examMessages.bookShortOfQuestions, request_id: expect.any(String) });
  expect(await server.db.selectFrom('exams').select('id').where('contestant_id', '=', setup.contestant.id).execute()).toEqual([]);

  await keepQuestions(book, 0);
  const empty = await start(book);
  expect(empty.status).toBe(409);
  expect(empty.body.message).toBe(examMessages.bookHasNoQuestions);
});
