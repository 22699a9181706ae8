// One writer per exam (issue 20, docs/decisions/010-one-writer-per-exam.md): the screen that
// loaded the exam last is the only one whose saves and submit count. A stale writer handle is
// refused with 409 exam_open_elsewhere and nothing changes; the current one and requests without
// a handle (the spec's client) are accepted; the time re-sync never changes the writer. The same
// for the practice round, which uses the same exam screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAM_WRITER } from '../../../shared/exam-input';
import { examMessages } from '../../../shared/messages';
import { hashToken } from '../../lib/tokens';
import { createParent, createSchoolAdmin } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/harness';
import { answersFor, examRow, parentWithContestant, saveBody, startExam, type StartedExam } from '../../test/exam-fixtures';
import { saveAnswersBatch, answerPairs } from './repo';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const load = async (exam: StartedExam) => {
  const loaded = await server.request('GET', `/api/examing?book_id=${exam.bookId}&child_id=${exam.childId}&slug_exam=${exam.slug}`, { token: exam.token });
  expect(loaded.status, JSON.stringify(loaded.body)).toBe(200);
  return loaded.body.data.writer as string;
};
const save = (exam: StartedExam, extra: Record<string, unknown>) =>
  server.request('POST', '/api/store-answers-exam', { token: exam.token, body: saveBody(exam, extra) });
const submit = (exam: StartedExam, extra: Record<string, unknown>) =>
  server.request('POST', '/api/submit-exam', { token: exam.token, body: saveBody(exam, extra) });

/** What a refused request must leave as it was. */
const stateOf = async (exam: StartedExam) => {
  const { answers, prediction, save_seq, saved_at, status, submitted_at, writer } = await examRow(server, exam.examId);
  return { answers, prediction, save_seq, saved_at, status, submitted_at, writer };
};

const openElsewhere = { success: false, code: 'exam_open_elsewhere', message: examMessages.openElsewhere };

describe('one writer per exam', () => {
  it('gives a new opaque writer at each load; the previous one stops being valid at once', async () => {
    const exam = await startExam(server);
    const first = await load(exam);
    expect(first).toMatch(EXAM_WRITER.pattern);
    expect(first.length).toBeGreaterThanOrEqual(EXAM_WRITER.min);
    expect((await examRow(server, exam.examId)).writer).toBe(first);
    expect((await save(exam, { answers: answersFor(exam, 1, 1), seq: 1, writer: first })).body).toMatchObject({ saved: true, save_seq: 1 });

    const second = await load(exam);
    expect(second).not.toBe(first);
    const before = await stateOf(exam);
    const refused = await save(exam, { answers: answersFor(exam, 2, 0), prediction: 7, seq: 9, writer: first });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject(openElsewhere);
    expect(await stateOf(exam)).toEqual(before);

    // The current writer writes; so does a request without a handle (the spec's own client).
    expect((await save(exam, { answers: answersFor(exam, 2, 2), seq: 2, writer: second })).body).toMatchObject({ saved: true, save_seq: 2 });
    expect((await save(exam, { answers: answersFor(exam, 3, 3), seq: 3 })).body).toMatchObject({ saved: true, save_seq: 3 });
    const row = await examRow(server, exam.examId);
    expect(Object.keys(row.answers)).toHaveLength(3);
    expect(row.writer).toBe(second);
  });

  it('never changes the writer on the time re-sync', async () => {
    const exam = await startExam(server);
    const writer = await load(exam);
    for (let i = 0; i < 3; i += 1) expect((await server.request('GET', `/api/examing/get-time?exam_id=${exam.examId}`, { token: exam.token })).status).toBe(200);
    expect((await examRow(server, exam.examId)).writer).toBe(writer);
    expect((await save(exam, { answers: answersFor(exam, 1, 1), writer })).body).toMatchObject({ saved: true });
  });

  it('refuses a stale writer on submit under the row lock, and nothing is submitted', async () => {
    const exam = await startExam(server);
    const stale = await load(exam);
    const current = await load(exam);
    const all = answersFor(exam, exam.questions.length, exam.questions.length);
    expect((await save(exam, { answers: all.slice(0, 2), prediction: 10, seq: 1, writer: current })).status).toBe(200);
    const before = await stateOf(exam);
    // Even a complete submit: the writer is checked before anything else of the submit.
    const refused = await submit(exam, { answers: all, prediction: 99, seq: 5, writer: stale });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject(openElsewhere);
    expect(await stateOf(exam)).toEqual(before);

    const accepted = await submit(exam, { answers: all, prediction: 99, seq: 5, writer: current });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ submited: true, already_submitted: false });
    const row = await examRow(server, exam.examId);
    expect(row.status).toBe(1);
    expect(row.prediction).toBe(99);
    // Once finished, the exam's end is the news for every screen (as before the rule).
    expect((await save(exam, { answers: [], writer: stale })).body).toMatchObject({ code: 'exam_submitted' });
    expect((await submit(exam, { answers: [], writer: stale })).body).toMatchObject({ success: true, already_submitted: true });
  });

  it('leaves the writer as it was when a load is refused (its one statement checks everything before it writes)', async () => {
    const exam = await startExam(server);
    const writer = await load(exam);
    const other = await createParent(server);
    const admin = await createSchoolAdmin(server);
    const query = (bookId: number, childId: number) => `/api/examing?book_id=${bookId}&child_id=${childId}&slug_exam=${exam.slug}`;
    for (const [token, path, status] of [
      [other.token, query(exam.bookId, exam.childId), 404],
      [admin.token, query(exam.bookId, exam.childId), 403],
      [exam.token, query(exam.bookId + 1, exam.childId), 404],
      [exam.token, query(exam.bookId, exam.childId + 1), 404],
    ] as const) {
      expect((await server.request('GET', path, { token })).status, path).toBe(status);
    }
    // A locked account's session no longer opens the exam.
    const { user_id: owner } = await server.db.selectFrom('exams').select('user_id').where('id', '=', exam.examId).executeTakeFirstOrThrow();
    await server.db.updateTable('users').set({ locked_at: server.clock.now() }).where('id', '=', owner).execute();
    expect((await server.request('GET', query(exam.bookId, exam.childId), { token: exam.token })).status).toBe(401);
    expect((await examRow(server, exam.examId)).writer).toBe(writer);
  });

  it('accepts a submit without a writer after another screen loaded the exam', async () => {
    const exam = await startExam(server);
    await load(exam);
    const all = answersFor(exam, exam.questions.length, 1);
    const accepted = await submit(exam, { answers: all, prediction: 5 });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await examRow(server, exam.examId)).status).toBe(1);
  });

  it('refuses a malformed writer with 400 and a clear message', async () => {
    const exam = await startExam(server);
    for (const writer of ['short', 'x'.repeat(65), 'abc+def/0123456789ab', null, 12]) {
      const refused = await save(exam, { answers: [], writer });
      expect(refused.status, String(writer)).toBe(400);
      expect(refused.body).toMatchObject({ success: false, message: expect.any(String), errors: { writer: expect.any(String) } });
    }
    expect((await submit(exam, { answers: [], writer: 'short' })).status).toBe(400);
  });

  it('checks the writer of each save inside one batched statement', async () => {
    const exams = await Promise.all([startExam(server), startExam(server), startExam(server)]);
    const [stale, current] = [await load(exams[0]!), await load(exams[0]!)];
    const other = await load(exams[1]!);
    const now = server.clock.now();
    const input = (exam: StartedExam, writer: string | undefined) => {
      const encoded = answerPairs(answersFor(exam, 1, 1));
      if (encoded.problem) throw new Error(encoded.problem);
      return { examId: exam.examId, slug: exam.slug, tokenHash: hashToken(exam.token), now, endTimeAtLeast: now, answersJson: encoded.json, pairsJson: encoded.pairs, prediction: 3, seq: 4, writer };
    };
    const applied = await saveAnswersBatch(server.db, [input(exams[0]!, stale), input(exams[1]!, other), input(exams[2]!, undefined)]);
    expect([...applied.keys()].sort()).toEqual([exams[1]!.examId, exams[2]!.examId].sort());
    expect((await examRow(server, exams[0]!.examId)).save_seq).toBe(0);
    // The slow path names the reason.
    const refused = await save(exams[0]!, { answers: answersFor(exams[0]!, 1, 1), seq: 4, writer: stale });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('exam_open_elsewhere');
    expect((await saveAnswersBatch(server.db, [input(exams[0]!, current)])).get(exams[0]!.examId)).toBe(4);
  });

  it('refuses a writer the exam never had (loaded by none yet, or of another exam)', async () => {
    const setup = await parentWithContestant(server);
    const started = await server.request('POST', '/api/start-exam', { token: setup.parent.token, body: { book_id: setup.book.id, child_id: setup.contestant.id } });
    const body = { exam_id: started.body.exam_id, slug: started.body.slug, answers: [], writer: 'A'.repeat(22) };
    expect((await server.request('POST', '/api/store-answers-exam', { token: setup.parent.token, body })).body).toMatchObject(openElsewhere);
    const exam = await startExam(server);
    const foreign = await load(await startExam(server));
    expect((await save(exam, { answers: [], writer: foreign })).status).toBe(409);
  });
});

describe('one writer per practice round', () => {
  async function startPractice() {
    const setup = await parentWithContestant(server, { groupPosition: 1 });
    const started = await server.request('POST', '/api/practice/start', { token: setup.parent.token, body: { child_id: setup.contestant.id } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    return { token: setup.parent.token as string, slug: started.body.slug as string };
  }
  type Round = Awaited<ReturnType<typeof startPractice>>;
  const loadRound = async (round: Round) => {
    const loaded = await server.request('GET', `/api/practice/exams/${round.slug}`, { token: round.token });
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(200);
    return { writer: loaded.body.data.writer as string, questions: loaded.body.data.data_questions as { id: number; answers: { id: number }[] }[] };
  };
  const roundState = async (round: Round) => {
    const { answers, prediction, save_seq, saved_at, status, submitted_at, writer } = await server.db
      .selectFrom('practice_exams')
      .selectAll()
      .where('slug', '=', round.slug)
      .executeTakeFirstOrThrow();
    return { answers, prediction, save_seq, saved_at, status, submitted_at, writer };
  };
  const post = (round: Round, what: 'answers' | 'submit', body: Record<string, unknown>) =>
    server.request('POST', `/api/practice/exams/${round.slug}/${what}`, { token: round.token, body });

  it('refuses a stale writer on save and submit, accepts the current one and none; the time never changes it', async () => {
    const round = await startPractice();
    const { writer: stale } = await loadRound(round);
    const { writer: current, questions } = await loadRound(round);
    expect(current).not.toBe(stale);
    expect(current).toMatch(EXAM_WRITER.pattern);
    const all = questions.map((q) => ({ question_id: q.id, answer_id: q.answers[0]!.id }));

    const before = await roundState(round);
    for (const [what, body] of [
      ['answers', { answers: all.slice(0, 1), seq: 3, writer: stale }],
      ['submit', { answers: all, prediction: 4, seq: 4, writer: stale }],
    ] as const) {
      const refused = await post(round, what, body);
      expect(refused.status, what).toBe(409);
      expect(refused.body).toMatchObject(openElsewhere);
    }
    expect(await roundState(round)).toEqual(before);

    expect((await server.request('GET', `/api/practice/exams/${round.slug}/time`, { token: round.token })).status).toBe(200);
    expect((await roundState(round)).writer).toBe(current);
    expect((await post(round, 'answers', { answers: all.slice(0, 1), seq: 1, writer: current })).body).toMatchObject({ saved: true, save_seq: 1 });
    expect((await post(round, 'answers', { answers: all.slice(1, 2), seq: 2 })).body).toMatchObject({ saved: true, save_seq: 2 });
    const submitted = await post(round, 'submit', { answers: all, prediction: 4, seq: 3, writer: current });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect((await roundState(round)).status).toBe(1);
  });
});
