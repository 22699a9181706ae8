import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { classGroupAt, createContestant, createParent, createSchoolAdmin } from '../../test/factories';
import { examRow, parentWithContestant, startExam } from '../../test/exam-fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const start = (token: string | undefined, body: unknown) => server.request('POST', '/api/start-exam', { token, body });

describe('GET /api/children/:id/books', () => {
  it('lists the three books of the contestant class group to its parent', async () => {
    const { parent, contestant } = await parentWithContestant(server, { groupPosition: 2 });
    const response = await server.request('GET', `/api/children/${contestant.id}/books`, { token: parent.token });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data).toHaveLength(3);
    expect(response.body.data.map((book: { id: number }) => book.id)).toEqual(contestant.books.map((book) => book.id));
    expect(response.body.data[0]).toEqual({ id: expect.any(Number), name: expect.any(String), image: expect.any(String), author: expect.any(String) });
  });

  it('answers 404 to another account, 403 to a school admin, 401 without a session, 400 for a bad id', async () => {
    const { contestant } = await parentWithContestant(server);
    const other = await createParent(server);
    const admin = await createSchoolAdmin(server);
    expect((await server.request('GET', `/api/children/${contestant.id}/books`, { token: other.token })).status).toBe(404);
    const refused = await server.request('GET', `/api/children/${contestant.id}/books`, { token: admin.token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Tài khoản admin trường học không thể vào thi.');
    expect((await server.request('GET', `/api/children/${contestant.id}/books`)).status).toBe(401);
    expect((await server.request('GET', '/api/children/abc/books', { token: other.token })).status).toBe(400);
    expect((await server.request('GET', '/api/children/99999999/books', { token: other.token })).status).toBe(404);
  });
});

describe('POST /api/start-exam', () => {
  it('starts an exam of 20 distinct questions of the book with a 1200 s deadline and an unguessable slug', async () => {
    const { parent, contestant, book } = await parentWithContestant(server);
    const before = server.clock.now();
    const response = await start(parent.token, { book_id: book.id, child_id: contestant.id });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, doing: false, book_id: book.id, child_id: contestant.id, message: expect.any(String) });
    expect(response.body.slug).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const row = await examRow(server, response.body.exam_id);
    expect(row.status).toBe(2);
    expect(row.attempt).toBe(1);
    expect(row.start_time.getTime()).toBe(before.getTime());
    expect(row.end_time.getTime() - row.start_time.getTime()).toBe(1200_000);
    expect(row.questions).toHaveLength(20);
    const ids = row.questions.map((question) => question.id);
    expect(new Set(ids).size).toBe(20);
    const bank = await server.db.selectFrom('questions').select('id').where('book_id', '=', book.id).execute();
    expect(ids.every((id) => bank.some((question) => question.id === id))).toBe(true);
    expect(JSON.stringify(row.questions)).not.toMatch(/correct/);
    // exams.answer_options (0003_exams.sql) holds exactly the exam's own pairs (given with the row, 0021_exam_start.sql).
    const pairs = row.questions.flatMap((question) => question.answers.map((answer) => BigInt(question.id) * 2n ** 32n + BigInt(answer.id)));
    expect(row.answer_options.map((value) => BigInt(value)).sort()).toEqual(pairs.sort());
    // The key names one answer of each question, and that answer is the correct one in the bank.
    for (const question of row.questions) {
      const correct = await server.db.selectFrom('answers').select('id').where('question_id', '=', question.id).where('is_correct', '=', true).executeTakeFirstOrThrow();
      expect(row.answer_key[question.id]).toBe(correct.id);
    }
  });

  it('shuffles the questions and answer order per exam', async () => {
    const orders = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const exam = await startExam(server);
      orders.add(JSON.stringify(exam.questions.map((question) => [question.id, question.answers.map((answer) => answer.id)])));
    }
    expect(orders.size).toBe(3);
  });

  it('draws from the bank as it is now, even when it was changed behind the app (by another process)', async () => {
    const first = await parentWithContestant(server);
    await startExam(server, first);
    // The app keeps the bank it drew from (exams/bank.ts); this edit goes straight to the database, as another process's would.
    const edit = (value: RawBuilder<string>) =>
      server.db.updateTable('questions').set({ value }).where('book_id', '=', first.book.id).where('is_practice', '=', false).execute();
    await edit(sql<string>`value || ' (đã sửa)'`);
    try {
      const second = await parentWithContestant(server);
      expect(second.book.id).toBe(first.book.id);
      const exam = await startExam(server, second);
      expect(exam.questions).toHaveLength(20);
      for (const question of exam.questions) expect(question.value).toMatch(/ \(đã sửa\)$/);
    } finally {
      await edit(sql<string>`replace(value, ' (đã sửa)', '')`);
    }
  });

  it('answers an exam in progress with the doing flag and its slug', async () => {
    const setup = await parentWithContestant(server);
    const first = await start(setup.parent.token, { book_id: setup.book.id, child_id: setup.contestant.id });
    const second = await start(setup.parent.token, { book_id: setup.contestant.books[1]!.id, child_id: setup.contestant.id });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      success: false,
      code: 'exam_in_progress',
      doing: true,
      slug: first.body.slug,
      book_id: setup.book.id,
      child_id: setup.contestant.id,
      message: expect.any(String),
    });
  });

  it('creates exactly one exam when ten starts for one contestant arrive together', async () => {
    const { parent, contestant, book } = await parentWithContestant(server);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => start(parent.token, { book_id: book.id, child_id: contestant.id })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    const slug = responses.find((response) => response.status === 200)!.body.slug;
    for (const response of responses.filter((r) => r.status === 409)) expect(response.body).toMatchObject({ doing: true, slug });
    const exams = await server.db.selectFrom('exams').select('id').where('contestant_id', '=', contestant.id).execute();
    expect(exams).toHaveLength(1);
  });

  it('refuses a fourth attempt', async () => {
    const setup = await parentWithContestant(server);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const exam = await startExam(server, setup);
      await server.db.updateTable('exams').set({ status: 1, submitted_at: server.clock.now(), points: 0, duration_seconds: 1 }).where('id', '=', exam.examId).execute();
    }
    const fourth = await start(setup.parent.token, { book_id: setup.book.id, child_id: setup.contestant.id });
    expect(fourth.status).toBe(409);
    expect(fourth.body).toMatchObject({ success: false, code: 'no_attempts_left', message: 'Thí sinh đã hết lượt thi' });
    const attempts = await server.db.selectFrom('exams').select('attempt').where('contestant_id', '=', setup.contestant.id).orderBy('attempt').execute();
    expect(attempts.map((row) => row.attempt)).toEqual([1, 2, 3]);
  });

  it('refuses a book of another class group, another account’s contestant, a school admin and no session', async () => {
    const { parent, contestant } = await parentWithContestant(server, { groupPosition: 3 });
    const otherGroup = await classGroupAt(server.db, 1);
    const wrongBook = await start(parent.token, { book_id: otherGroup.books[0]!.id, child_id: contestant.id });
    expect(wrongBook.status).toBe(400);
    expect(wrongBook.body.code).toBe('book_not_in_group');

    const other = await createParent(server);
    const foreign = await start(other.token, { book_id: contestant.books[0]!.id, child_id: contestant.id });
    expect(foreign.status).toBe(404);

    const admin = await createSchoolAdmin(server);
    const refused = await start(admin.token, { book_id: contestant.books[0]!.id, child_id: contestant.id });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Tài khoản admin trường học không thể vào thi.');

    expect((await start(undefined, { book_id: contestant.books[0]!.id, child_id: contestant.id })).status).toBe(401);
    expect(await server.db.selectFrom('exams').select('id').where('contestant_id', '=', contestant.id).execute()).toEqual([]);
  });

  it('validates the body', async () => {
    const parent = await createParent(server);
    for (const body of [{}, { book_id: 'x', child_id: 1 }, { book_id: 1 }, { book_id: -1, child_id: 1 }]) {
      const response = await start(parent.token, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ success: false, message: expect.any(String) });
    }
  });

  it('refuses a start before the exam window opens and after it closes', async () => {
    const { parent, contestant, book } = await parentWithContestant(server);
    // Sessions last a day: move the window around the clock rather than the clock out of it.
    const contest = await server.db.selectFrom('contests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    const now = server.clock.now().getTime();
    const setWindow = (starts: number, ends: number) =>
      server.db.updateTable('contests').set({ exam_starts_at: new Date(starts), exam_ends_at: new Date(ends) }).where('id', '=', contest.id).execute();
    try {
      await setWindow(now + 3_600_000, now + 7_200_000);
      const early = await start(parent.token, { book_id: book.id, child_id: contestant.id });
      expect(early.status).toBe(409);
      expect(early.body.code).toBe('window_not_open');
      expect(early.body.message).toMatch(/^Chưa đến thời gian thi\. Cuộc thi bắt đầu lúc \d\d:\d\d \d\d\/\d\d\/\d{4}\.$/);

      await setWindow(now - 7_200_000, now - 1000);
      const late = await start(parent.token, { book_id: book.id, child_id: contestant.id });
      expect(late.status).toBe(409);
      expect(late.body.code).toBe('window_closed');
    } finally {
      await setWindow(contest.exam_starts_at.getTime(), contest.exam_ends_at.getTime());
    }
    expect(await server.db.selectFrom('exams').select('id').where('contestant_id', '=', contestant.id).execute()).toEqual([]);
  });
});

describe('GET /api/examing', () => {
  it('gives the questions without anything revealing the correct answer, the saved answers and the times', async () => {
    const exam = await startExam(server);
    const response = await server.request(
      'GET',
      `/api/examing?book_id=${exam.bookId}&child_id=${exam.childId}&slug_exam=${exam.slug}`,
      { token: exam.token },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = response.body;
    expect(body).toMatchObject({ success: true, not_found: false, submited: false, children: { id: exam.childId, fullname: expect.any(String) } });
    expect(body.data).toMatchObject({ id: exam.examId, slug: exam.slug, status: 2, prediction: null, data_answers: [], save_seq: 0, duration_seconds: 1200 });
    expect(body.data.server_time).toBe(server.clock.now().toISOString());
    expect(new Date(body.data.end_time).getTime() - new Date(body.data.start_time).getTime()).toBe(1200_000);
    expect(body.data.data_questions).toHaveLength(20);
    for (const question of body.data.data_questions) {
      expect(Object.keys(question).sort()).toEqual(['answers', 'id', 'value']);
      for (const answer of question.answers) expect(Object.keys(answer).sort()).toEqual(['id', 'value']);
    }
    expect(JSON.stringify(body)).not.toMatch(/correct|answer_key/);
  });

  it('answers 404 with not_found for another account, a wrong book or child, an unknown slug', async () => {
    const exam = await startExam(server);
    const other = await createParent(server);
    const otherChild = await createContestant(server, other);
    const paths = [
      [other.token, `/api/examing?book_id=${exam.bookId}&child_id=${exam.childId}&slug_exam=${exam.slug}`],
      [exam.token, `/api/examing?book_id=${exam.bookId + 1}&child_id=${exam.childId}&slug_exam=${exam.slug}`],
      [exam.token, `/api/examing?book_id=${exam.bookId}&child_id=${otherChild.id}&slug_exam=${exam.slug}`],
      [exam.token, `/api/examing?book_id=${exam.bookId}&child_id=${exam.childId}&slug_exam=${'x'.repeat(24)}`],
    ] as const;
    for (const [token, path] of paths) {
      const response = await server.request('GET', path, { token });
      expect(response.status, path).toBe(404);
      expect(response.body).toMatchObject({ success: false, not_found: true, message: 'Không tìm thấy bài thi.' });
    }
    expect((await server.request('GET', `/api/examing?book_id=${exam.bookId}&child_id=${exam.childId}`, { token: exam.token })).status).toBe(400);
    expect((await server.request('GET', paths[0][1])).status).toBe(401);
  });

  it('finalises an exam read after its deadline and answers submited', async () => {
    const exam = await startExam(server);
    await server.request('POST', '/api/store-answers-exam', {
      token: exam.token,
      body: { exam_id: exam.examId, slug: exam.slug, answers: [{ question_id: exam.questions[0]!.id, answer_id: exam.key[exam.questions[0]!.id] }] },
    });
    server.clock.advance(1200_000 + 31_000);
    const response = await server.request(
      'GET',
      `/api/examing?book_id=${exam.bookId}&child_id=${exam.childId}&slug_exam=${exam.slug}`,
      { token: exam.token },
    );
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ success: false, submited: true });
    const row = await examRow(server, exam.examId);
    expect(row).toMatchObject({ status: 1, points: 5, correct_count: 1, duration_seconds: 1200 });
    expect(row.submitted_at?.getTime()).toBe(row.end_time.getTime());
  });
});

describe('GET /api/examing/get-time', () => {
  it('gives the start, end and server time to the owner only', async () => {
    const exam = await startExam(server);
    const response = await server.request('GET', `/api/examing/get-time?exam_id=${exam.examId}`, { token: exam.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { start_time: expect.any(String), end_time: expect.any(String), server_time: server.clock.now().toISOString(), status: 2 },
    });
    const other = await createParent(server);
    expect((await server.request('GET', `/api/examing/get-time?exam_id=${exam.examId}`, { token: other.token })).status).toBe(404);
    expect((await server.request('GET', `/api/examing/get-time?exam_id=${exam.examId}`)).status).toBe(401);
    expect((await server.request('GET', `/api/examing/get-time?exam_id=${exam.examId}`, { token: 'not-a-token' })).status).toBe(401);
    const admin = await createSchoolAdmin(server);
    expect((await server.request('GET', `/api/examing/get-time?exam_id=${exam.examId}`, { token: admin.token })).status).toBe(403);
    expect((await server.request('GET', '/api/examing/get-time?exam_id=0', { token: exam.token })).status).toBe(400);
  });

  it('reports an overdue exam as finished', async () => {
    const exam = await startExam(server);
    server.clock.advance(1200_000 + 31_000);
    const response = await server.request('GET', `/api/examing/get-time?exam_id=${exam.examId}`, { token: exam.token });
    expect(response.body.data.status).toBe(1);
    expect((await examRow(server, exam.examId)).status).toBe(1);
  });
});

describe('no test-only routes', () => {
  it('has no route to move a deadline, whatever NODE_ENV says', async () => {
    const exam = await startExam(server);
    const response = await server.request('POST', '/api/test/exam-deadline', { body: { slug: exam.slug, seconds: 5 } });
    expect(response.status).toBe(404);
  });
});
