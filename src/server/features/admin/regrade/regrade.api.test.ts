// Regrading a question: permissions, bad inputs, the dry run (exams, point changes, prize changes),
// the commit (points, bank key, audit, history, results computed again) checked against a ranking
// worked out by hand, a second regrade of the same question, the child's result review, and an
// exam in progress that finishes after a regrade.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { correctCount, type RegradeRule } from '../../../../shared/regrade-rules';
import { bookForClassRoom, insertFinishedExams, insertPupils, sessionAt } from '../../../demo/finished-exams';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createOrganiser, createParent, createSchoolAdmin, firstSchool, type CreatedUser } from '../../../test/factories';
import { answersFor, parentWithContestant, saveBody, startExam } from '../../../test/exam-fixtures';
import { computeResults } from '../../results/compute';

// The contest, worked by hand. Six pupils of one class took the same book; insertFinishedExams
// answers a book's first 20 questions (by id), the first `points / 5` right and the others with
// the first answer that is not the key (W). Q is the 19th question: right for 95 points and more.
// Prizes set for this test: 1 special, 1 first, 1 second, 1 third, nothing else.
//
//   pupil  points  seconds  Q       rank, prize before | new key W       | then everyone gets Q
//   P1     100     300      right   1 special          | 95  3 second    | 100 1 special
//   P2      95     200      right   2 first            | 90  5 -         |  95 4 third
//   P3      90     100      W       3 second           | 95  1 special   |  95 2 first
//   P4      90     150      W       4 third            | 95  2 first     |  95 3 second
//   P5      85     120      W       5 -                | 90  4 third     |  90 5 -
//   P6      80     100      W       6 -                | 85  6 -         |  85 6 -
//
// Dry run "accept both (key and W)": P3..P6 gain 5, P1 and P2 unchanged; ranks P1 1, P3 2, P4 3,
// P2 4: P2 first -> third, P3 second -> first, P4 third -> second.
const PLAN = [
  { points: 100, seconds: 300 },
  { points: 95, seconds: 200 },
  { points: 90, seconds: 100 },
  { points: 90, seconds: 150 },
  { points: 85, seconds: 120 },
  { points: 80, seconds: 100 },
];

let server: TestServer;
let organiser: CreatedUser;
let contestId: number;
let pupils: { id: number; userId: number }[];
let exams: { id: number; slug: string }[];
let questionId: number;
let keyId: number;
let wrongId: number;
const reason = 'Đáp án trong sách in sai, ban tổ chức đã kiểm tra lại.';

const post = (path: string, body: unknown, token = organiser.token) => server.request('POST', path, { token, body });
const pointsOf = async () => {
  const rows = await server.db.selectFrom('exams').select(['id', 'points']).where('id', 'in', exams.map((e) => e.id)).execute();
  return exams.map((exam) => rows.find((row) => row.id === exam.id)!.points);
};
const prizesOf = async () => {
  const rows = await server.db
    .selectFrom('individual_results')
    .select(['contestant_id', 'rank', 'prize_code'])
    .where('contest_id', '=', contestId)
    .where('contestant_id', 'in', pupils.map((p) => p.id))
    .execute();
  return pupils.map((pupil) => {
    const row = rows.find((r) => r.contestant_id === pupil.id)!;
    return [row.rank, row.prize_code];
  });
};

// Every case starts from the hand-worked contest on a server of its own: none reads another's writes.
beforeEach(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  contestId = (await server.db.selectFrom('contests').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
  await server.db.updateTable('prize_tiers').set({ winners: 0 }).where('contest_id', '=', contestId).execute();
  await server.db
    .updateTable('prize_tiers')
    .set({ winners: 1 })
    .where('contest_id', '=', contestId)
    .where('code', 'in', ['special', 'first', 'second', 'third'])
    .execute();

  const school = await firstSchool(server.db);
  pupils = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: PLAN.length, fullname: (i) => `Học Sinh Chấm Lại ${i + 1}` });
  const book = await bookForClassRoom(server.db, '5A1');
  const base = server.clock.now().getTime() - 3600_000;
  exams = await insertFinishedExams(
    server.db,
    PLAN.map((plan, i) => ({
      contestantId: pupils[i]!.id,
      bookId: book.id,
      attempt: 1,
      points: plan.points,
      durationSeconds: plan.seconds,
      submittedAt: new Date(base + i * 1000),
      prediction: null,
    })),
  );
  const questions = await server.db.selectFrom('questions').select('id').where('book_id', '=', book.id).orderBy('id').limit(20).execute();
  questionId = questions[18]!.id;
  const answers = await server.db.selectFrom('answers').select(['id', 'is_correct']).where('question_id', '=', questionId).orderBy('id').execute();
  keyId = answers.find((a) => a.is_correct)!.id;
  wrongId = answers.find((a) => a.id !== keyId)!.id;
  await computeResults(server, { contestId, force: true });
});
afterEach(() => server?.close());

/** The first regrade of the hand-worked table: the key moves to W. */
const commitNewKey = async () => {
  const response = await post('/api/admin/regrades', { question_id: questionId, mode: 'new_key', answer_id: wrongId, reason });
  expect(response.status).toBe(200);
  return response;
};

describe('permissions', () => {
  it('answers 401 without a session and 403 to parents and school administrators', async () => {
    const parent = await createParent(server);
    const schoolAdmin = await createSchoolAdmin(server);
    const rule = { question_id: questionId, mode: 'everyone', reason };
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/regrades'],
      ['POST', '/api/admin/regrades/preview', rule],
      ['POST', '/api/admin/regrades', rule],
    ];
    for (const [method, path, body] of calls) {
      expect((await server.request(method, path, { body })).status).toBe(401);
      expect((await server.request(method, path, { body, token: parent.token })).status).toBe(403);
      expect((await server.request(method, path, { body, token: schoolAdmin.token })).status).toBe(403);
    }
    expect(await pointsOf()).toEqual([100, 95, 90, 90, 85, 80]);
  });
});

describe('bad inputs', () => {
  it('refuses a commit without a reason (400, keyed by the field) and writes nothing', async () => {
    for (const body of [{ question_id: questionId, mode: 'everyone' }, { question_id: questionId, mode: 'everyone', reason: '   ' }]) {
      const response = await post('/api/admin/regrades', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, code: 'invalid_input', errors: { reason: 'Vui lòng nhập lý do chấm lại.' } });
    }
    expect(await server.db.selectFrom('question_regrades').selectAll().execute()).toEqual([]);
  });

  it('asks for the answer of a new key or an accepted answer, and refuses an unknown mode', async () => {
    const missing = await post('/api/admin/regrades/preview', { question_id: questionId, mode: 'new_key' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ answer_id: 'Vui lòng chọn đáp án.' });
    const mode = await post('/api/admin/regrades/preview', { question_id: questionId, mode: 'drop' });
    expect(mode.status).toBe(400);
    expect(mode.body.errors.mode).toBe('Vui lòng chọn cách chấm lại.');
  });

  it('refuses (422) an answer of another question, and the key as the "other" answer', async () => {
    const other = await server.db.selectFrom('answers').select('id').where('question_id', '<>', questionId).limit(1).executeTakeFirstOrThrow();
    const foreign = await post('/api/admin/regrades', { question_id: questionId, mode: 'new_key', answer_id: other.id, reason });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual({ answer_id: 'Đáp án này không thuộc câu hỏi.' });
    for (const mode of ['new_key', 'accept_both']) {
      const key = await post('/api/admin/regrades/preview', { question_id: questionId, mode, answer_id: keyId });
      expect(key.status).toBe(422);
      expect(key.body.errors.answer_id).toContain('đang là đáp án đúng');
    }
  });

  it('answers 404 for an unknown question and 409 for a question no exam of the contest used', async () => {
    expect((await post('/api/admin/regrades/preview', { question_id: 2_000_000_000, mode: 'everyone' })).status).toBe(404);
    const group1 = await bookForClassRoom(server.db, '1A1');
    const unused = await server.db.selectFrom('questions').select('id').where('book_id', '=', group1.id).limit(1).executeTakeFirstOrThrow();
    for (const path of ['/api/admin/regrades/preview', '/api/admin/regrades']) {
      const response = await post(path, { question_id: unused.id, mode: 'everyone', reason });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'question_not_used', message: expect.stringContaining('Chưa có bài thi nào') });
    }
  });
});

describe('dry run', () => {
  it('lists the exams whose points change, the counts and the prize changes, and writes nothing', async () => {
    const response = await post('/api/admin/regrades/preview', { question_id: questionId, mode: 'accept_both', answer_id: wrongId });
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data.rule).toEqual({ mode: 'accept_both', accepted_answer_ids: [keyId, wrongId], previous_key_answer_id: keyId });
    expect(data.current_rule).toBeNull();
    expect(data.summary).toEqual({ exams_affected: 6, exams_gained: 4, exams_lost: 0, exams_unchanged: 2, exams_in_progress: 0 });
    expect(data.exams.total).toBe(4);
    expect(data.exams.items.map((e: { exam_id: number }) => e.exam_id)).toEqual(exams.slice(2).map((e) => e.id));
    expect(data.exams.items[0]).toMatchObject({ fullname: 'Học Sinh Chấm Lại 3', attempt: 1, answer_id: wrongId, points_before: 90, points_after: 95 });
    const changes = data.ranking.prize_changes.filter((c: { kind: string }) => c.kind === 'individual');
    expect(changes).toEqual([
      { kind: 'individual', change: 'change', contestant_id: pupils[1]!.id, name: 'Học Sinh Chấm Lại 2', school_name: expect.any(String), rank_before: 2, rank_after: 4, prize_before: 'Giải Nhất', prize_after: 'Giải Ba' },
      { kind: 'individual', change: 'change', contestant_id: pupils[2]!.id, name: 'Học Sinh Chấm Lại 3', school_name: expect.any(String), rank_before: 3, rank_after: 2, prize_before: 'Giải Nhì', prize_after: 'Giải Nhất' },
      { kind: 'individual', change: 'change', contestant_id: pupils[3]!.id, name: 'Học Sinh Chấm Lại 4', school_name: expect.any(String), rank_before: 4, rank_after: 3, prize_before: 'Giải Ba', prize_after: 'Giải Nhì' },
    ]);
    // Pages of the list.
    const second = await post('/api/admin/regrades/preview', { question_id: questionId, mode: 'accept_both', answer_id: wrongId, page: 2, per_page: 3 });
    expect(second.body.data.exams.items.map((e: { exam_id: number }) => e.exam_id)).toEqual([exams[5]!.id]);
    // Nothing written.
    expect(await pointsOf()).toEqual([100, 95, 90, 90, 85, 80]);
    expect(await server.db.selectFrom('question_regrades').selectAll().execute()).toEqual([]);
  });
});

describe('commit', () => {
  it('stores the rule, moves the key, rescores the exams, records it and computes the results again (hand-worked)', async () => {
    const computedBefore = (await server.db.selectFrom('result_runs').select('computed_at').where('contest_id', '=', contestId).executeTakeFirstOrThrow()).computed_at;
    expect(await prizesOf()).toEqual([[1, 'special'], [2, 'first'], [3, 'second'], [4, 'third'], [5, null], [6, null]]);
    server.clock.advance(60_000);

    const response = await commitNewKey();
    expect(response.body.data).toMatchObject({
      summary: { exams_affected: 6, exams_gained: 4, exams_lost: 2, exams_unchanged: 0, exams_in_progress: 0 },
      results_recomputed: true,
      results_note: null,
      regrade: { question_id: questionId, mode: 'new_key', accepted_answer_ids: [wrongId], reason, actor_phone: organiser.phone, actor_name: 'Ban tổ chức', active: true, exams_gained: 4, exams_lost: 2 },
    });
    expect(await pointsOf()).toEqual([95, 90, 95, 95, 90, 85]);
    expect(await prizesOf()).toEqual([[3, 'second'], [5, null], [1, 'special'], [2, 'first'], [4, 'third'], [6, null]]);
    const run = await server.db.selectFrom('result_runs').select(['computed_at', 'forced']).where('contest_id', '=', contestId).executeTakeFirstOrThrow();
    expect(run.computed_at.getTime()).toBeGreaterThan(computedBefore.getTime());
    expect(run.forced).toBe(true);

    // The bank's key moved, so exams drawn from now on carry it.
    const bank = await server.db.selectFrom('answers').select(['id']).where('question_id', '=', questionId).where('is_correct', '=', true).execute();
    expect(bank).toEqual([{ id: wrongId }]);

    const audit = await server.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ kind: 'question.regrade', actor_phone: organiser.phone });
    expect(audit.summary).toContain('Đổi đáp án đúng');
    expect(audit.details).toMatchObject({ question_id: questionId, mode: 'new_key', reason, before: { key_answer_id: keyId, rule: null }, after: { accepted_answer_ids: [wrongId] } });
  });

  it('the database and the shared rule agree on every exam', async () => {
    await commitNewKey();
    const rules = await server.db.selectFrom('question_regrades').select(['question_id', 'mode', 'accepted_answer_ids']).where('active', '=', true).execute();
    const map = new Map<number, RegradeRule>(rules.map((r) => [r.question_id, { mode: r.mode, acceptedAnswerIds: r.accepted_answer_ids }]));
    const rows = await server.db.selectFrom('exams').select(['answer_key', 'answers', 'correct_count']).where('id', 'in', exams.map((e) => e.id)).execute();
    for (const row of rows) expect(row.correct_count).toBe(correctCount(row.answer_key, row.answers, map));
  });

  it('shows the child the new points and the question marked by the new key in the result review', async () => {
    await commitNewKey();
    const token = await sessionAt(server.db, pupils[2]!.userId, server.clock.now());
    const response = await server.request('GET', `/api/exam-result?slug=${exams[2]!.slug}`, { token });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ points: 95, correct_count: 19 });
    const item = response.body.data.data_result.find((r: { question_id: number }) => r.question_id === questionId);
    expect(item).toEqual({
      question_id: questionId,
      answer_id_user: wrongId,
      answer_id_correct: wrongId,
      answer_ids_correct: [wrongId],
      is_correct: true,
      regrade_note: 'Câu hỏi đã được chấm lại: đáp án đúng đã được sửa.',
    });
    const untouched = response.body.data.data_result.find((r: { question_id: number }) => r.question_id !== questionId);
    expect(untouched.regrade_note).toBeNull();
  });

  it('regrading the same question again replaces the rule, from the exams own answers (everyone gets the point)', async () => {
    await commitNewKey();
    const preview = await post('/api/admin/regrades/preview', { question_id: questionId, mode: 'everyone' });
    expect(preview.body.data.current_rule).toEqual({ mode: 'new_key', accepted_answer_ids: [wrongId], previous_key_answer_id: keyId });
    expect(preview.body.data.summary).toMatchObject({ exams_gained: 2, exams_lost: 0, exams_unchanged: 4 });
    // The same rule again changes nothing: refused.
    const same = await post('/api/admin/regrades/preview', { question_id: questionId, mode: 'new_key', answer_id: wrongId });
    expect(same.status).toBe(422);

    const response = await post('/api/admin/regrades', { question_id: questionId, mode: 'everyone', reason: 'Câu hỏi có hai cách hiểu.' });
    expect(response.status).toBe(200);
    expect(await pointsOf()).toEqual([100, 95, 95, 95, 90, 85]);
    expect(await prizesOf()).toEqual([[1, 'special'], [4, 'third'], [2, 'first'], [3, 'second'], [5, null], [6, null]]);
    // 'everyone' leaves the bank's key where the previous regrade put it.
    const bank = await server.db.selectFrom('answers').select('id').where('question_id', '=', questionId).where('is_correct', '=', true).execute();
    expect(bank).toEqual([{ id: wrongId }]);

    const history = await server.request('GET', '/api/admin/regrades', { token: organiser.token });
    expect(history.status).toBe(200);
    expect(history.body.data.total).toBe(2);
    expect(history.body.data.items.map((e: { mode: string; active: boolean }) => [e.mode, e.active])).toEqual([
      ['everyone', true],
      ['new_key', false],
    ]);
    expect(history.body.data.items[1].accepted_answers).toHaveLength(1);
  });
});

describe('an exam in progress', () => {
  it('finishes after a regrade and is scored with it', async () => {
    const setup = await parentWithContestant(server);
    const exam = await startExam(server, { ...setup, book: setup.contestant.books[1]! });
    const target = exam.questions[0]!;
    // Every answer wrong: without the regrade the exam would score 0.
    const answers = answersFor(exam, exam.questions.length, 0);
    expect((await server.request('POST', '/api/store-answers-exam', { token: exam.token, body: saveBody(exam, { answers, prediction: 1000 }) })).status).toBe(200);

    const preview = await post('/api/admin/regrades/preview', { question_id: target.id, mode: 'everyone' });
    expect(preview.status).toBe(200);
    expect(preview.body.data.summary).toEqual({ exams_affected: 0, exams_gained: 0, exams_lost: 0, exams_unchanged: 0, exams_in_progress: 1 });
    const committed = await post('/api/admin/regrades', { question_id: target.id, mode: 'everyone', reason });
    expect(committed.status).toBe(200);
    expect(committed.body.data.summary.exams_in_progress).toBe(1);

    const submitted = await server.request('POST', '/api/submit-exam', { token: exam.token, body: saveBody(exam, { answers, prediction: 1000 }) });
    expect(submitted.status).toBe(200);
    expect(submitted.body.data.points).toBe(5);
    const review = await server.request('GET', `/api/exam-result?slug=${exam.slug}`, { token: exam.token });
    const item = review.body.data.data_result.find((r: { question_id: number }) => r.question_id === target.id);
    expect(item).toMatchObject({ is_correct: true, regrade_note: 'Câu hỏi đã được chấm lại: mọi thí sinh đều được tính điểm câu này.' });
  });
});
