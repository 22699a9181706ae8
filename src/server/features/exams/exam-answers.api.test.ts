import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMetrics } from '../../core/metrics/metrics';
import { appOnServer, startTestServer, type TestServer } from '../../test/harness';
import { createParent, createSchoolAdmin } from '../../test/factories';
import { answersFor, examRow, parentWithContestant, saveBody, startExam, type StartedExam } from '../../test/exam-fixtures';
import { finaliseOverdueExams } from './finalise';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const save = (exam: StartedExam, extra: Record<string, unknown> = {}, token: string | undefined = exam.token) =>
  server.request('POST', '/api/store-answers-exam', { token, body: saveBody(exam, extra) });
const submit = (exam: StartedExam, extra: Record<string, unknown> = {}, token: string | undefined = exam.token) =>
  server.request('POST', '/api/submit-exam', { token, body: saveBody(exam, extra) });
const result = (slug: string, token: string | undefined) => server.request('GET', `/api/exam-result?slug=${slug}`, { token });

describe('POST /api/store-answers-exam', () => {
  it('stores the answers and the prediction, idempotently, merging over earlier saves', async () => {
    const exam = await startExam(server);
    const first = answersFor(exam, 3, 3);
    const response = await save(exam, { answers: first, prediction: 1234 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, saved: true, stale: false, save_seq: 0, server_time: server.clock.now().toISOString() });
    expect((await save(exam, { answers: first, prediction: 1234 })).status).toBe(200);

    const changed = [{ question_id: first[0]!.question_id, answer_id: answersFor(exam, 1, 0)[0]!.answer_id }, ...answersFor(exam, 5, 5).slice(3)];
    await save(exam, { answers: changed });
    const row = await examRow(server, exam.examId);
    expect(Object.keys(row.answers)).toHaveLength(5);
    expect(row.answers[first[0]!.question_id]).toBe(changed[0]!.answer_id);
    expect(row.prediction).toBe(1234);

    const loaded = await server.request('GET', `/api/examing?book_id=${exam.bookId}&child_id=${exam.childId}&slug_exam=${exam.slug}`, { token: exam.token });
    expect(loaded.body.data.prediction).toBe(1234);
    expect(loaded.body.data.data_answers).toHaveLength(5);
    expect(loaded.body.data.data_answers[0]).toEqual({ question_id: exam.questions[0]!.id, answer_id: changed[0]!.answer_id });
  });

  it('ignores a save older than one already applied (by seq) and answers stale', async () => {
    const exam = await startExam(server);
    const right = answersFor(exam, 2, 2);
    const wrong = answersFor(exam, 2, 0);
    expect((await save(exam, { answers: right, seq: 5, prediction: 50 })).body).toMatchObject({ saved: true, save_seq: 5 });
    const late = await save(exam, { answers: wrong, seq: 3, prediction: 30 });
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ success: true, saved: false, stale: true, save_seq: 5 });
    // The same seq again (a retry) is applied: saves are idempotent.
    expect((await save(exam, { answers: right, seq: 5, prediction: 50 })).body).toMatchObject({ saved: true });
    const row = await examRow(server, exam.examId);
    expect(row.save_seq).toBe(5);
    expect(row.prediction).toBe(50);
    expect(row.answers[right[0]!.question_id]).toBe(right[0]!.answer_id);
    // Without a seq, saves apply in arrival order.
    await save(exam, { answers: wrong });
    expect((await examRow(server, exam.examId)).answers[wrong[0]!.question_id]).toBe(wrong[0]!.answer_id);
  });

  it('refuses a question of another exam, an answer of another question and a question twice', async () => {
    const exam = await startExam(server);
    // A real question (with one of its own answers) that this exam did not draw: always exists,
    // since the seeded books hold more questions than one exam draws.
    const foreignQuestion = await server.db
      .selectFrom('answers')
      .select(['question_id', 'id'])
      .where('question_id', 'not in', exam.questions.map((q) => q.id))
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const q0 = exam.questions[0]!;
    const q1 = exam.questions[1]!;
    const cases = [
      [{ answers: [{ question_id: 999_999, answer_id: 1 }] }, 'question_not_in_exam'],
      [{ answers: [{ question_id: q0.id, answer_id: q1.answers[0]!.id }] }, 'answer_not_of_question'],
      [{ answers: [{ question_id: q0.id, answer_id: q0.answers[0]!.id }, { question_id: q0.id, answer_id: q0.answers[1]!.id }] }, 'duplicate_question'],
      [{ answers: [{ question_id: foreignQuestion.question_id, answer_id: foreignQuestion.id }] }, 'question_not_in_exam'],
    ] as [Record<string, unknown>, string][];
    for (const [body, code] of cases) {
      for (const send of [save, submit]) {
        const response = await send(exam, body);
        expect(response.status, code).toBe(400);
        expect(response.body).toMatchObject({ success: false, code, message: expect.any(String) });
      }
    }
    expect((await examRow(server, exam.examId)).answers).toEqual({});
  });

  it('validates the prediction and the payload with the spec messages', async () => {
    const exam = await startExam(server);
    const negative = await save(exam, { prediction: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.message).toBe('Giá trị phải lớn hơn hoặc bằng 0');
    const fraction = await save(exam, { prediction: 1.5 });
    expect(fraction.status).toBe(400);
    expect(fraction.body.message).toBe('Giá trị phải là số nguyên');
    expect((await save(exam, { prediction: 'abc' })).body.message).toBe('Giá trị phải là số nguyên');
    expect((await save(exam, { prediction: 3_000_000_000 })).status).toBe(400);
    expect((await save(exam, { answers: [{ question_id: 'special', answer_id: 1 }] })).status).toBe(400);
    expect((await save(exam, { answers: 'x' })).status).toBe(400);
    expect((await save(exam, { seq: -1 })).status).toBe(400);
    expect((await server.request('POST', '/api/store-answers-exam', { token: exam.token, body: { slug: exam.slug, answers: [] } })).status).toBe(400);
    expect((await save(exam, { prediction: 0 })).status).toBe(200);
  });

  it('answers 404 for another account or a wrong slug, 401 without a session, 403 for a school admin', async () => {
    const exam = await startExam(server);
    const other = await createParent(server);
    const answers = answersFor(exam, 1, 1);
    expect((await save(exam, { answers }, other.token)).status).toBe(404);
    expect((await save({ ...exam, slug: 'y'.repeat(24) }, { answers })).status).toBe(404);
    expect((await save(exam, { answers }, '')).status).toBe(401);
    expect((await save(exam, { answers }, 'forged-token')).status).toBe(401);
    const admin = await createSchoolAdmin(server);
    expect((await save(exam, { answers }, admin.token)).status).toBe(403);
    expect((await submit(exam, { answers }, other.token)).status).toBe(404);
    expect((await examRow(server, exam.examId)).answers).toEqual({});
  });

  it('accepts saves up to 30 s after the deadline and refuses them after that', async () => {
    const exam = await startExam(server);
    server.clock.advance(1200_000 + 29_000);
    expect((await save(exam, { answers: answersFor(exam, 2, 2) })).status).toBe(200);
    server.clock.advance(2_000);
    const late = await save(exam, { answers: answersFor(exam, 4, 4) });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ success: false, code: 'time_up', message: expect.any(String) });
    // Scored on what was saved in time, with the deadline as completion time.
    const row = await examRow(server, exam.examId);
    expect(row).toMatchObject({ status: 1, correct_count: 2, points: 10, duration_seconds: 1200 });
  });

  it('refuses saves to a submitted exam', async () => {
    const exam = await startExam(server);
    server.clock.advance(1200_000);
    await submit(exam, { answers: answersFor(exam, 1, 1) });
    const response = await save(exam, { answers: answersFor(exam, 2, 2) });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'exam_submitted', submited: true });
  });
  it('writes saves that arrive together (one statement under load) each with its own outcome', async () => {
    const exams = await Promise.all(Array.from({ length: 5 }, () => startExam(server)));
    const [steady, bad, foreign, racing, plain] = exams as [StartedExam, StartedExam, StartedExam, StartedExam, StartedExam];
    const stranger = await createParent(server);
    const q0 = bad.questions[0]!;
    const wrongAnswer = bad.questions[1]!.answers[0]!.id;

    // Saves that arrive one by one each leave alone (on PGlite a statement even ends before the
    // next request is read), so no batch would form. To make one form for sure, on both drivers:
    // an app of its own whose save batcher is watched through its metrics seam, and a transaction
    // that holds these exams' rows (and, on PGlite, its only connection) until every save has
    // reached the batcher: the first ones wait in their statements, the rest queue, then leave together.
    const batchSizes: number[] = [];
    let queueLength = () => 0;
    const metrics = createMetrics({ db: server.db });
    const app = await appOnServer(server, {
      metrics: {
        ...metrics,
        saves: { ...metrics.saves, batchSent: (size) => batchSizes.push(size), watchQueue: (length) => (queueLength = length) },
      },
    });
    const injectSave = (exam: StartedExam, extra: Record<string, unknown>, token = exam.token) =>
      app.inject({ method: 'POST', url: '/api/store-answers-exam', headers: { authorization: `Bearer ${token}` }, payload: saveBody(exam, extra) });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const rowsLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = server.db.transaction().execute(async (trx) => {
      await trx.selectFrom('exams').select('id').where('id', 'in', exams.map((exam) => exam.examId)).forUpdate().execute();
      locked();
      await released;
    });
    await rowsLocked;

    const sent = [
      // One exam saved five times at once, out of order: the highest seq wins.
      ...[3, 1, 5, 2, 4].map((seq) => injectSave(steady, { answers: answersFor(steady, seq, seq), seq, prediction: seq * 100 })),
      injectSave(bad, { answers: [{ question_id: q0.id, answer_id: wrongAnswer }], seq: 1 }),
      injectSave(foreign, { answers: answersFor(foreign, 2, 2), seq: 1 }, stranger.token),
      injectSave(racing, { answers: answersFor(racing, 4, 4), seq: 2, prediction: 2 }),
      injectSave(racing, { answers: answersFor(racing, 4, 0), seq: 1, prediction: 1 }),
      ...[1, 2, 3].map((n) => injectSave(plain, { answers: answersFor(plain, n, n) })),
    ];
    const sentOrQueued = () => batchSizes.reduce((sum, size) => sum + size, 0) + queueLength();
    await vi.waitFor(() => expect(sentOrQueued()).toBe(sent.length), { timeout: 10_000, interval: 5 });
    release();
    await holding;
    const responses = (await Promise.all(sent)).map((r) => ({ status: r.statusCode, body: r.json() }));
    await app.close();

    // A batch of several saves formed (one save per exam per statement, so at most 5)...
    expect(Math.max(...batchSizes)).toBeGreaterThan(1);
    // ...and each save got its own answer.
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 400, 404, 200, 200, 200, 200, 200]);
    expect(responses[5]!.body).toMatchObject({ success: false, code: 'answer_not_of_question' });
    expect(responses[6]!.body).toMatchObject({ success: false, code: 'not_found' });
    expect(responses.slice(7, 9).map((r) => r.body)).toEqual(
      expect.arrayContaining([expect.objectContaining({ saved: true, save_seq: 2 })]),
    );

    const steadyRow = await examRow(server, steady.examId);
    expect(steadyRow).toMatchObject({ save_seq: 5, prediction: 500 });
    expect(Object.keys(steadyRow.answers)).toHaveLength(5);
    expect((await examRow(server, bad.examId)).answers).toEqual({});
    expect((await examRow(server, foreign.examId)).answers).toEqual({});
    const racingRow = await examRow(server, racing.examId);
    expect(racingRow).toMatchObject({ save_seq: 2, prediction: 2 });
    expect(racingRow.answers).toEqual(Object.fromEntries(answersFor(racing, 4, 4).map((a) => [a.question_id, a.answer_id])));
    expect(Object.keys((await examRow(server, plain.examId)).answers)).toHaveLength(3);
  });
});

describe('POST /api/submit-exam', () => {
  it('requires all 20 questions and the prediction before the time is up, naming what is missing', async () => {
    const exam = await startExam(server);
    const response = await submit(exam, { answers: answersFor(exam, 19, 19), prediction: 100 });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      success: false,
      code: 'incomplete',
      message: 'Vui lòng hoàn thành tất cả câu hỏi trước khi nộp bài',
      missing_question_ids: [exam.questions[19]!.id],
      missing_prediction: false,
    });
    const noPrediction = await submit(exam, { answers: answersFor(exam, 20, 20) });
    expect(noPrediction.body).toMatchObject({ code: 'incomplete', missing_question_ids: [], missing_prediction: true });
    expect((await examRow(server, exam.examId)).status).toBe(2);
  });

  it('scores 5 points per correct answer, times the exam, and a second submit changes nothing', async () => {
    const exam = await startExam(server);
    await save(exam, { answers: answersFor(exam, 10, 10), seq: 1 });
    server.clock.advance(125_400);
    const response = await submit(exam, { answers: answersFor(exam, 20, 15).slice(10), prediction: 4321, seq: 2 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      submited: true,
      already_submitted: false,
      message: 'Nộp bài thành công!',
      data: { id: exam.examId, slug: exam.slug, child_id: exam.childId, points: 75, time_complete_minutes: 2, time_complete_seconds: 5 },
    });
    const row = await examRow(server, exam.examId);
    expect(row).toMatchObject({ status: 1, points: 75, correct_count: 15, duration_seconds: 125, prediction: 4321 });
    expect(row.submitted_at?.toISOString()).toBe(server.clock.now().toISOString());

    server.clock.advance(10_000);
    const again = await submit(exam, { answers: answersFor(exam, 20, 20), prediction: 1, seq: 3 });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ submited: true, already_submitted: true, data: { points: 75, time_complete_minutes: 2, time_complete_seconds: 5 } });
    expect(await examRow(server, exam.examId)).toEqual(row);
  });

  it('gives 100 points as a JSON number for all correct answers', async () => {
    const exam = await startExam(server);
    const response = await submit(exam, { answers: answersFor(exam, 20, 20), prediction: 0 });
    expect(response.body.data.points).toBe(100);
  });

  it('accepts an incomplete submit once the time is up, and caps the time at the deadline', async () => {
    const exam = await startExam(server);
    server.clock.advance(1200_000 + 2_000);
    const response = await submit(exam, { answers: answersFor(exam, 3, 2) });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ points: 10, time_complete_minutes: 20, time_complete_seconds: 0 });
  });

  it('counts only what was saved in time when the submit arrives after the grace period', async () => {
    const exam = await startExam(server);
    await save(exam, { answers: answersFor(exam, 4, 4), prediction: 7 });
    server.clock.advance(1200_000 + 60_000);
    const response = await submit(exam, { answers: answersFor(exam, 20, 20), prediction: 9 });
    expect(response.status).toBe(200);
    expect(response.body.data.points).toBe(20);
    expect(await examRow(server, exam.examId)).toMatchObject({ prediction: 7, points: 20, duration_seconds: 1200 });
  });

  it('does not let an older submit overwrite a newer save', async () => {
    const exam = await startExam(server);
    await save(exam, { answers: answersFor(exam, 20, 20), prediction: 5, seq: 9 });
    const response = await submit(exam, { answers: answersFor(exam, 20, 0), prediction: 6, seq: 4 });
    expect(response.body.data.points).toBe(100);
  });
});

describe('GET /api/exam-result', () => {
  it('gives the questions, the contestant answers, the correct answers, points, time, prediction and book after submission', async () => {
    const setup = await parentWithContestant(server);
    const exam = await startExam(server, setup);
    const early = await result(exam.slug, exam.token);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ success: false, code: 'exam_not_submitted', message: 'Bài thi chưa được nộp nên chưa có kết quả.' });

    server.clock.advance(61_000);
    await submit(exam, { answers: answersFor(exam, 20, 18), prediction: 999 });
    const response = await result(exam.slug, exam.token);
    expect(response.status).toBe(200);
    expect(response.body.children).toEqual({ id: exam.childId, fullname: setup.contestant.fullname });
    const data = response.body.data;
    expect(data).toMatchObject({
      id: exam.examId,
      slug: exam.slug,
      attempt: 1,
      child_id: exam.childId,
      book: { id: exam.bookId, name: setup.book.name },
      prediction: 999,
      points: 90,
      correct_count: 18,
      duration_seconds: 61,
      time_complete_minutes: 1,
      time_complete_seconds: 1,
    });
    expect(data.data_questions).toHaveLength(20);
    expect(data.data_answers).toHaveLength(20);
    expect(data.data_result).toHaveLength(20);
    const first = exam.key[exam.questions[0]!.id]!;
    expect(data.data_result[0]).toEqual({
      question_id: exam.questions[0]!.id,
      answer_id_user: first,
      answer_id_correct: first,
      answer_ids_correct: [first],
      is_correct: true,
      regrade_note: null,
    });
    expect(data.data_result[19].answer_id_user).not.toBe(data.data_result[19].answer_id_correct);
    expect(data.data_result[19].is_correct).toBe(false);

    const other = await createParent(server);
    expect((await result(exam.slug, other.token)).status).toBe(404);
    expect((await result(exam.slug, undefined)).status).toBe(401);
    expect((await result('short', exam.token)).status).toBe(400);
  });
});

describe('finaliseOverdueExams (the background sweep)', () => {
  it('scores abandoned exams on their saved answers with the deadline as completion time, and only once', async () => {
    const exam = await startExam(server);
    const fresh = await startExam(server);
    await save(exam, { answers: answersFor(exam, 6, 5), prediction: 77 });
    server.clock.advance(1200_000 + 30_000);
    // Still inside the grace period: nothing to do yet.
    await finaliseOverdueExams(server.db, server.clock);
    expect((await examRow(server, exam.examId)).status).toBe(2);
    // A fresh exam started now is not touched later on.
    const later = await startExam(server);
    server.clock.advance(1_000 + 3_600_000);
    // Exams of earlier tests of this file are overdue too: the two sweeps together finalise each
    // overdue exam exactly once (a row one holds, the other skips).
    const overdue = await server.db
      .selectFrom('exams')
      .select('id')
      .where('status', '=', 2)
      .where('end_time', '<', new Date(server.clock.now().getTime() - 30_000))
      .execute();
    expect(overdue.map((row) => row.id)).toEqual(expect.arrayContaining([exam.examId, fresh.examId, later.examId]));
    const [first, second] = await Promise.all([finaliseOverdueExams(server.db, server.clock), finaliseOverdueExams(server.db, server.clock)]);
    expect(first + second).toBe(overdue.length);
    const row = await examRow(server, exam.examId);
    expect(row).toMatchObject({ status: 1, correct_count: 5, points: 25, duration_seconds: 1200, prediction: 77 });
    expect(row.submitted_at?.getTime()).toBe(row.end_time.getTime());
    expect((await examRow(server, fresh.examId)).status).toBe(1);
    expect((await examRow(server, later.examId)).status).toBe(1);
    expect(await finaliseOverdueExams(server.db, server.clock)).toBe(0);
    const stillRunning = await server.db.selectFrom('exams').select('id').where('status', '=', 2).where('end_time', '<', new Date(server.clock.now().getTime() - 30_000)).execute();
    expect(stillRunning).toEqual([]);
  });
});
