// The practice round (issue 14): start, load, time, save, submit and result over real HTTP; a
// practice round never counts (no exam row, attempts, ranking and report unchanged); practice
// questions are never drawn in a real exam; owner-only access and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { practiceMessages } from '../../../shared/messages';
import { PRACTICE_QUESTIONS, PRACTICE_STARTS_PER_DAY } from '../../../shared/schemas/practice';
import { startTestServer, type TestServer } from '../../test/harness';
import { createOrganiser, createParent, createSchoolAdmin } from '../../test/factories';
import { parentWithContestant, startExam } from '../../test/exam-fixtures';
import { booksWithFewerQuestions } from '../../core/contest';
import { eraseAccounts } from '../privacy/erase';
import { computeResults } from '../results/compute';
import { practiceDurationSeconds, purgeOldPractice } from './service';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Setup = Awaited<ReturnType<typeof parentWithContestant>>;

const start = (token: string | undefined, childId: unknown) => server.request('POST', '/api/practice/start', { token, body: { child_id: childId } });

/** A practice round started and loaded through the API, with its answer key read from the database. */
async function startPractice(setup: Setup) {
  const started = await start(setup.parent.token, setup.contestant.id);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const loaded = await server.request('GET', `/api/practice/exams/${started.body.slug}`, { token: setup.parent.token });
  expect(loaded.status, JSON.stringify(loaded.body)).toBe(200);
  const row = await server.db.selectFrom('practice_exams').selectAll().where('slug', '=', started.body.slug).executeTakeFirstOrThrow();
  const questions = loaded.body.data.data_questions as { id: number; answers: { id: number }[] }[];
  return { started: started.body, loaded: loaded.body, row, questions, key: row.answer_key };
}

const practiceIds = async (classGroupId: number) =>
  (
    await server.db
      .selectFrom('questions')
      .innerJoin('books', 'books.id', 'questions.book_id')
      .select('questions.id')
      .where('books.class_group_id', '=', classGroupId)
      .where('questions.is_practice', '=', true)
      .execute()
  ).map((q) => q.id);

describe('practice round', () => {
  it('starts a round of 5 practice questions of the contestant group with a shorter timer, loads it in the exam screen shape', async () => {
    const setup = await parentWithContestant(server, { groupPosition: 1 });
    const { started, loaded, row, questions } = await startPractice(setup);
    expect(started).toMatchObject({ success: true, child_id: setup.contestant.id, question_count: PRACTICE_QUESTIONS, message: practiceMessages.started });
    expect(started.slug).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const allowed = await practiceIds(setup.contestant.class_group_id);
    expect(questions).toHaveLength(PRACTICE_QUESTIONS);
    expect(questions.every((q) => allowed.includes(q.id))).toBe(true);
    expect(JSON.stringify(loaded)).not.toMatch(/correct/);
    expect(loaded.data).toMatchObject({ status: 2, attempt: 0, prediction: null, data_answers: [], save_seq: 0 });
    expect(loaded.data.book.name).toContain('Nhóm 1');
    // The spec's 20 questions in 20 minutes: 5 questions and the prediction get 6 minutes.
    expect(row.end_time.getTime() - row.start_time.getTime()).toBe(360_000);
    expect(loaded.data.duration_seconds).toBe(360);
  });

  it('saves like the exam (sequence numbers, stale saves ignored), refuses foreign answers, submits, and shows which answers were right', async () => {
    const setup = await parentWithContestant(server);
    const { started, questions, key } = await startPractice(setup);
    const path = `/api/practice/exams/${started.slug}`;
    const token = setup.parent.token;
    const right = (q: { id: number }) => ({ question_id: q.id, answer_id: key[q.id]! });
    const wrong = (q: { id: number; answers: { id: number }[] }) => ({ question_id: q.id, answer_id: q.answers.find((a) => a.id !== key[q.id])!.id });

    const saved = await server.request('POST', `${path}/answers`, { token, body: { answers: [right(questions[0]!)], seq: 2 } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ saved: true, stale: false, save_seq: 2 });
    const stale = await server.request('POST', `${path}/answers`, { token, body: { answers: [wrong(questions[0]!)], seq: 1 } });
    expect(stale.body).toMatchObject({ saved: false, stale: true, save_seq: 2 });

    const foreign = await server.request('POST', `${path}/answers`, { token, body: { answers: [{ question_id: 1, answer_id: 1 }] } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe('question_not_in_exam');
    const otherAnswer = await server.request('POST', `${path}/answers`, {
      token,
      body: { answers: [{ question_id: questions[0]!.id, answer_id: questions[1]!.answers[0]!.id }] },
    });
    expect(otherAnswer.body.code).toBe('answer_not_of_question');
    const duplicate = await server.request('POST', `${path}/answers`, { token, body: { answers: [right(questions[0]!), right(questions[0]!)] } });
    expect(duplicate.status).toBe(400);
    expect((await server.request('POST', `${path}/answers`, { token, body: { answers: 'x' } })).status).toBe(400);
    expect((await server.request('POST', `${path}/answers`, { token, body: { answers: [], prediction: -1 } })).status).toBe(400);

    const reloaded = await server.request('GET', path, { token });
    expect(reloaded.body.data.data_answers).toEqual([right(questions[0]!)]);
    expect(reloaded.body.data.save_seq).toBe(2);

    // Incomplete before the time is up: the missing questions and the prediction are named.
    const early = await server.request('POST', `${path}/submit`, { token, body: { answers: [right(questions[1]!)], seq: 3 } });
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ code: 'incomplete', missing_prediction: true });
    expect(early.body.missing_question_ids).toHaveLength(PRACTICE_QUESTIONS - 2);

    const answers = [right(questions[0]!), right(questions[1]!), right(questions[2]!), wrong(questions[3]!), wrong(questions[4]!)];
    const submitted = await server.request('POST', `${path}/submit`, { token, body: { answers, prediction: 1234, seq: 4 } });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ submited: true, already_submitted: false, data: { correct_count: 3, question_count: 5, child_id: setup.contestant.id } });
    const again = await server.request('POST', `${path}/submit`, { token, body: { answers, prediction: 1234 } });
    expect(again.body.already_submitted).toBe(true);

    const result = await server.request('GET', `${path}/result`, { token });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ correct_count: 3, question_count: 5, prediction: 1234 });
    expect(result.body.data.data_result).toEqual(
      questions.map((q, i) => ({
        question_id: q.id,
        answer_id_user: answers[i]!.answer_id,
        answer_id_correct: key[q.id],
        answer_ids_correct: [key[q.id]],
        is_correct: answers[i]!.answer_id === key[q.id],
        regrade_note: null,
      })),
    );

    // Finished: saving, loading and the time say so in the exam screen's terms.
    const late = await server.request('POST', `${path}/answers`, { token, body: { answers: [] } });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'exam_submitted', submited: true });
    expect((await server.request('GET', path, { token })).body).toMatchObject({ code: 'exam_submitted', submited: true });
    expect((await server.request('GET', `${path}/time`, { token })).body.data.status).toBe(1);
  });

  it('never counts: no exam row, attempts, ranking and school report unchanged', async () => {
    const setup = await parentWithContestant(server);
    const admin = await createSchoolAdmin(server, setup.contestant.school_id);
    const reportBefore = await server.request('GET', '/api/report-school', { token: admin.token });
    const rankingBefore = await computeResults(server, { force: true });
    const profileBefore = await server.request('GET', '/api/profile', { token: setup.parent.token });

    for (let round = 0; round < 2; round += 1) {
      const { started, questions, key } = await startPractice(setup);
      const answers = questions.map((q) => ({ question_id: q.id, answer_id: key[q.id]! }));
      const submitted = await server.request('POST', `/api/practice/exams/${started.slug}/submit`, { token: setup.parent.token, body: { answers, prediction: 5 } });
      expect(submitted.body.data.correct_count).toBe(PRACTICE_QUESTIONS);
    }

    const exams = await server.db.selectFrom('exams').select('id').where('contestant_id', '=', setup.contestant.id).execute();
    expect(exams).toHaveLength(0);
    const profileAfter = await server.request('GET', '/api/profile', { token: setup.parent.token });
    expect(profileAfter.body.data.childrens).toEqual(profileBefore.body.data.childrens);
    const rankingAfter = await computeResults(server, { force: true });
    expect({ papers: rankingAfter.examPapers, participants: rankingAfter.participants }).toEqual({
      papers: rankingBefore.examPapers,
      participants: rankingBefore.participants,
    });
    expect(rankingAfter.individualWinners.some((w) => w.contestantId === setup.contestant.id)).toBe(false);
    const stored = await server.db.selectFrom('individual_results').select('contestant_id').where('contestant_id', '=', setup.contestant.id).execute();
    expect(stored).toHaveLength(0);
    const reportAfter = await server.request('GET', '/api/report-school', { token: admin.token });
    expect(reportAfter.status).toBe(reportBefore.status);
    expect(reportAfter.body).toEqual(reportBefore.body);

    // The real exam is still attempt 1 of 3.
    const exam = await startExam(server, setup);
    const row = await server.db.selectFrom('exams').select('attempt').where('id', '=', exam.examId).executeTakeFirstOrThrow();
    expect(row.attempt).toBe(1);
  });

  it('never draws a practice question into a real exam, and the exam bank counts leave them out', async () => {
    const setup = await parentWithContestant(server, { groupPosition: 2 });
    const book = setup.book;
    // Every question of the book but 20 made practice: a real exam must draw exactly the other 20.
    const bank = await server.db.selectFrom('questions').select(['id', 'is_practice']).where('book_id', '=', book.id).orderBy('id').execute();
    const keep = bank.slice(0, 20).map((q) => q.id);
    await server.db.updateTable('questions').set({ is_practice: true }).where('book_id', '=', book.id).where('id', 'not in', keep).execute();
    const exam = await startExam(server, setup);
    expect(exam.questions.map((q) => q.id).sort((a, b) => a - b)).toEqual(keep);

    const organiser = await createOrganiser(server);
    const listed = await server.request('GET', `/api/admin/books/${book.id}`, { token: organiser.token });
    expect(listed.body.data).toMatchObject({ question_count: 20, practice_count: bank.length - 20 });
    // The contest settings check sees a bank of 20.
    const short = await booksWithFewerQuestions(server.db, 21);
    expect(short.find((b) => b.id === book.id)?.questions).toBe(20);

    const practice = bank.filter((q) => q.is_practice).map((q) => q.id);
    await server.db.updateTable('questions').set({ is_practice: false }).where('book_id', '=', book.id).execute();
    await server.db.updateTable('questions').set({ is_practice: true }).where('id', 'in', practice).execute();
  });

  it('ends the round in progress when a new one starts, and shows it in the status', async () => {
    const setup = await parentWithContestant(server);
    const first = await startPractice(setup);
    const status = await server.request('GET', '/api/practice/status', { token: setup.parent.token });
    expect(status.status).toBe(200);
    expect(status.body.data.open).toBe(true);
    expect(status.body.data.contestants).toEqual([
      { child_id: setup.contestant.id, fullname: setup.contestant.fullname, question_count: 6, in_progress_slug: first.started.slug },
    ]);
    const second = await startPractice(setup);
    const rows = await server.db.selectFrom('practice_exams').select(['slug', 'status']).where('contestant_id', '=', setup.contestant.id).orderBy('id').execute();
    expect(rows).toEqual([
      { slug: first.started.slug, status: 1 },
      { slug: second.started.slug, status: 2 },
    ]);
  });

  it('uses what there is with fewer than 5 practice questions, and refuses with none', async () => {
    const setup = await parentWithContestant(server, { groupPosition: 3 });
    const ids = await practiceIds(setup.contestant.class_group_id);
    await server.db.updateTable('questions').set({ is_practice: false }).where('id', 'in', ids.slice(2)).execute();
    const { questions, loaded } = await startPractice(setup);
    expect(questions).toHaveLength(2);
    expect(loaded.data.duration_seconds).toBe(180);

    await server.db.updateTable('questions').set({ is_practice: false }).where('id', 'in', ids.slice(0, 2)).execute();
    const refused = await start(setup.parent.token, setup.contestant.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'practice_unavailable', message: practiceMessages.notAvailable });
    const status = await server.request('GET', '/api/practice/status', { token: setup.parent.token });
    expect(status.body.data.contestants[0].question_count).toBe(0);
    await server.db.updateTable('questions').set({ is_practice: true }).where('id', 'in', ids).execute();
  });

  it('keeps the time limit: a save after the time and grace scores the round and is refused', async () => {
    const setup = await parentWithContestant(server);
    const { started, questions, key } = await startPractice(setup);
    const path = `/api/practice/exams/${started.slug}`;
    const token = setup.parent.token;
    await server.request('POST', `${path}/answers`, { token, body: { answers: [{ question_id: questions[0]!.id, answer_id: key[questions[0]!.id]! }] } });
    server.clock.advance(400_000);
    const late = await server.request('POST', `${path}/answers`, { token, body: { answers: [] } });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('time_up');
    const result = await server.request('GET', `${path}/result`, { token });
    expect(result.body.data).toMatchObject({ correct_count: 1, duration_seconds: 360 });
    server.clock.advance(-400_000);
  });

  it('refuses another account (404), other roles (403), no session (401) and bad input (400)', async () => {
    const setup = await parentWithContestant(server);
    const { started } = await startPractice(setup);
    const other = await createParent(server);
    const admin = await createSchoolAdmin(server);
    const organiser = await createOrganiser(server);
    const path = `/api/practice/exams/${started.slug}`;

    expect((await start(other.token, setup.contestant.id)).status).toBe(404);
    for (const [method, url, body] of [
      ['GET', path, undefined],
      ['GET', `${path}/time`, undefined],
      ['GET', `${path}/result`, undefined],
      ['POST', `${path}/answers`, { answers: [] }],
      ['POST', `${path}/submit`, { answers: [] }],
    ] as const) {
      const response = await server.request(method, url, { token: other.token, body });
      expect(response.status, url).toBe(404);
      expect(response.body.message).toBe(practiceMessages.notFound);
      expect((await server.request(method, url, { body })).status, url).toBe(401);
      expect((await server.request(method, url, { token: admin.token, body })).status, url).toBe(403);
      expect((await server.request(method, url, { token: organiser.token, body })).status, url).toBe(403);
    }
    expect((await server.request('GET', '/api/practice/status')).status).toBe(401);
    expect((await start(setup.parent.token, 'abc')).status).toBe(400);
    expect((await start(setup.parent.token, undefined)).status).toBe(400);
    expect((await start(setup.parent.token, 99_999_999)).status).toBe(404);
    expect((await server.request('GET', '/api/practice/exams/short', { token: setup.parent.token })).status).toBe(400);
    expect((await server.request('GET', `/api/practice/exams/${'a'.repeat(24)}`, { token: setup.parent.token })).status).toBe(404);
  });

  it('limits the starts of a day, refuses after the exam window, and purges rounds older than 7 days', async () => {
    const setup = await parentWithContestant(server);
    const rows = Array.from({ length: PRACTICE_STARTS_PER_DAY }, (_, i) => ({
      slug: `seeded-practice-${i}-${setup.contestant.id}`.padEnd(20, 'x'),
      user_id: setup.parent.id,
      contestant_id: setup.contestant.id,
      status: 1 as const,
      start_time: server.clock.now(),
      end_time: new Date(server.clock.now().getTime() + 60_000),
      questions: '[]',
      answer_key: '{}',
      submitted_at: server.clock.now(),
      correct_count: 0,
      duration_seconds: 0,
      created_at: new Date(server.clock.now().getTime() - 60_000),
    }));
    await server.db.insertInto('practice_exams').values(rows).execute();
    const limited = await start(setup.parent.token, setup.contestant.id);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(practiceMessages.tooMany(PRACTICE_STARTS_PER_DAY));

    server.clock.advance(8 * 86_400_000);
    expect(await purgeOldPractice(server.db, server.clock)).toBeGreaterThanOrEqual(PRACTICE_STARTS_PER_DAY);
    const left = await server.db.selectFrom('practice_exams').select('id').where('contestant_id', '=', setup.contestant.id).execute();
    expect(left).toHaveLength(0);

    server.clock.advance(-8 * 86_400_000);

    // The contest's exam window closed a minute ago (set in the database).
    const contest = await server.db.selectFrom('contests').select(['id', 'exam_ends_at']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    await server.db.updateTable('contests').set({ exam_ends_at: new Date(server.clock.now().getTime() - 60_000) }).where('id', '=', contest.id).execute();
    const closed = await start(setup.parent.token, setup.contestant.id);
    expect(closed.status).toBe(409);
    expect(closed.body).toMatchObject({ code: 'window_closed', message: practiceMessages.closed });
    expect((await server.request('GET', '/api/practice/status', { token: setup.parent.token })).body.data.open).toBe(false);
    await server.db.updateTable('contests').set({ exam_ends_at: contest.exam_ends_at }).where('id', '=', contest.id).execute();
  });
});

describe('erasure', () => {
  it('deletes the practice rounds of an erased account, also of a child kept anonymised for its exams', async () => {
    const setup = await parentWithContestant(server);
    await startExam(server, setup);
    await startPractice(setup);
    await server.db.transaction().execute((trx) => eraseAccounts(trx, [{ id: setup.parent.id, phone: setup.parent.phone }], server.clock.now()));
    const left = await server.db.selectFrom('practice_exams').select('id').where('contestant_id', '=', setup.contestant.id).execute();
    expect(left).toHaveLength(0);
  });
});

describe('the question editor: practice questions', () => {
  it('creates, lists and edits practice questions; a question drawn in a real exam cannot become practice', async () => {
    const organiser = await createOrganiser(server);
    const as = (method: string, url: string, body?: unknown) => server.request(method, url, { token: organiser.token, body });
    const setup = await parentWithContestant(server, { groupPosition: 1 });
    const book = setup.book;
    const before = (await as('GET', `/api/admin/books/${book.id}`)).body.data;

    const input = { value: 'Câu hỏi thi thử mới?', answers: [{ value: 'Có' }, { value: 'Không' }], correct: 0, is_practice: true };
    const created = await as('POST', `/api/admin/books/${book.id}/questions`, input);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data.is_practice).toBe(true);
    const after = (await as('GET', `/api/admin/books/${book.id}`)).body.data;
    expect(after).toMatchObject({ question_count: before.question_count, practice_count: before.practice_count + 1 });
    const audit = await server.db.selectFrom('audit_log').select('details').where('kind', '=', 'question.create').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.stringify(audit.details)).toContain('"is_practice":true');

    // Without the flag a question is an exam question (the editor's default and every import's).
    const plain = await as('POST', `/api/admin/books/${book.id}/questions`, { ...input, value: 'Câu hỏi thường?', is_practice: undefined });
    expect(plain.body.data.is_practice).toBe(false);
    const practiceAgain = await as('PUT', `/api/admin/questions/${plain.body.data.id}`, { ...input, value: 'Câu hỏi thường?' });
    expect(practiceAgain.status).toBe(200);
    expect(practiceAgain.body.data.is_practice).toBe(true);

    const exam = await startExam(server, setup);
    const drawn = exam.questions[0]!;
    const stored = (await as('GET', `/api/admin/books/${book.id}/questions?per_page=50`)).body.data.items.find((q: { id: number }) => q.id === drawn.id);
    const refused = await as('PUT', `/api/admin/questions/${drawn.id}`, {
      value: stored.value,
      answers: stored.answers.map((a: { value: string }) => ({ value: a.value })),
      correct: stored.answers.findIndex((a: { is_correct: boolean }) => a.is_correct),
      is_practice: true,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('in_use');

    // A practice question is not part of the exam bank: deleting it during the window needs no bank check.
    expect((await as('DELETE', `/api/admin/questions/${created.body.data.id}`)).status).toBe(200);
  });
});

describe('practiceDurationSeconds', () => {
  it('is the contest pace for the round, in whole minutes, at least 1 minute and at most an exam', () => {
    expect(practiceDurationSeconds({ exam_duration_seconds: 1200, questions_per_exam: 20 }, 5)).toBe(360);
    expect(practiceDurationSeconds({ exam_duration_seconds: 1200, questions_per_exam: 20 }, 1)).toBe(120);
    expect(practiceDurationSeconds({ exam_duration_seconds: 30, questions_per_exam: 20 }, 5)).toBe(30);
    expect(practiceDurationSeconds({ exam_duration_seconds: 600, questions_per_exam: 5 }, 5)).toBe(600);
  });
});
