// The integrity screening over finished exams written into the database (decision 027): 60
// pupils of one class answering the same 20 questions at random by their ability, each in its own
// shuffled order (as exam start shuffles the paper), all at about the same time (their starts 1 s
// apart), with one planted copy (every answer of another exam, wrong ones included), one planted
// in-step copy (12 answers given 8 s after the classmate's, and 8 more in the two pupils' second
// attempts an hour later: the test pools both), one exam answered in 40 s and two
// exams saved in turns from one login. The run finds exactly these (two strong siblings taking
// the exam at the same second are not flagged); the review shows the two sheets with the in-step
// answers marked; a dismissal and a withheld prize need a reason and are audited; the withheld
// prize moves the pupil down only at the next computation, and the family sees a neutral message.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrityFlag, IntegrityFlagDetail } from '../../../../shared/schemas/admin-integrity';
import { bookForClassRoom, insertFinishedExams, insertPupils, sessionAt } from '../../../demo/finished-exams';
import { computeResults } from '../../results';
import { seededRandom } from '../../../lib/seeded-random';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createOrganiser, createParent, firstSchool, type CreatedUser } from '../../../test/factories';

let server: TestServer;
let organiser: CreatedUser;
let exams: { id: number; contestantId: number; userId: number }[] = [];
/** The second attempts of pupils 5 and 6 (in step again). */
let secondAttempts: number[] = [];


beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  const school = await firstSchool(server.db);
  const pupils = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 60 });
  const book = await bookForClassRoom(server.db, '5A1');
  const now = server.clock.now().getTime();
  const inserted = await insertFinishedExams(
    server.db,
    pupils.map((pupil, i) => ({ contestantId: pupil.id, bookId: book.id, attempt: 1, points: 50, durationSeconds: 900, submittedAt: new Date(now - 7200_000 + i * 1000), prediction: null })),
  );
  exams = inserted.map((exam, i) => ({ id: exam.id, contestantId: pupils[i]!.id, userId: pupils[i]!.userId }));
  const rows = await server.db.selectFrom('exams').select(['id', 'questions', 'answer_key', 'start_time']).where('id', 'in', exams.map((e) => e.id)).orderBy('id').execute();
  const next = seededRandom(2025);
  const sheets = rows.map((row, i) => {
    // Abilities: most pupils 25-55 % right; exams 0 and 5 (the sources) 60 %, exam 2 (the fast one) 85 %, exams 7 and 8 (strong siblings taking it together) 90 %.
    const ability = i === 0 || i === 5 ? 0.6 : i === 2 ? 0.85 : i === 7 || i === 8 ? 0.9 : 0.25 + 0.3 * next();
    const answers: Record<string, number> = {};
    for (const question of row.questions) {
      const key = row.answer_key[String(question.id)]!;
      const wrong = question.answers.filter((answer) => answer.id !== key);
      answers[String(question.id)] = next() < ability ? key : wrong[Math.floor(next() * wrong.length)]!.id;
    }
    return answers;
  });
  // The planted copy: exam 1 gives every answer of exam 0.
  sheets[1] = { ...sheets[0]! };
  // The planted in-step copy: exam 6 gives exam 5's answer to 12 of the 20 questions.
  rows[5]!.questions.slice(0, 12).forEach((question) => (sheets[6]![question.id] = sheets[5]![question.id]!));
  // Each exam's own answering order: its paper shuffled (exam 6 follows exam 5's, 8 s behind).
  const orders = rows.map((row) => {
    const order = row.questions.map((question) => String(question.id));
    for (let k = order.length - 1; k > 0; k -= 1) {
      const j = Math.floor(next() * (k + 1));
      [order[k], order[j]] = [order[j]!, order[k]!];
    }
    return order;
  });
  orders[6] = orders[5]!;
  // Exams 4 and 8 start with exams 3 and 7; exam 6 with exam 5.
  const startOf = (i: number) => rows[i === 4 || i === 8 || i === 6 ? i - 1 : i]!.start_time;
  for (const [i, row] of rows.entries()) {
    const answers = sheets[i]!;
    const correct = Object.entries(answers).filter(([q, a]) => row.answer_key[q] === a).length;
    const start = startOf(i).getTime() / 1000;
    // Times: 35 s a question; exam 2 all in 40 s; exams 3 and 4 from one login in turns, 10 s apart; exam 6 8 s after exam 5.
    const times: Record<string, number> = {};
    orders[i]!.forEach((q, k) => {
      const at = i === 2 ? start + 2 * (k + 1) : i === 4 ? start + 35 * k + 10 : i === 6 ? start + 35 * k + 28 : start + 35 * k + 20;
      times[`${q}:${answers[q]}`] = Math.round(at);
    });
    if (i === 3 || i === 4) times.s = 777_000;
    await sql`UPDATE exams SET answers = ${JSON.stringify(answers)}::jsonb, answer_times = ${JSON.stringify(times)}::jsonb,
              correct_count = ${correct}, points = ${5 * correct}, start_time = ${startOf(i)}
              WHERE id = ${row.id}`.execute(server.db);
  }
  // Pupils 5 and 6 again an hour later, side by side: 6 gives 5's answer to 8 questions, 8 s after it.
  const again = await insertFinishedExams(
    server.db,
    [5, 6].map((i) => ({ contestantId: pupils[i]!.id, bookId: book.id, attempt: 2, points: 50, durationSeconds: 900, submittedAt: new Date(now - 3600_000), prediction: null })),
  );
  secondAttempts = again.map((exam) => exam.id);
  const [source, copier] = await server.db.selectFrom('exams').select(['id', 'questions', 'answer_key', 'start_time']).where('id', 'in', secondAttempts).orderBy('id').execute();
  const own = (row: NonNullable<typeof source>) =>
    Object.fromEntries(row.questions.map((question) => [String(question.id), next() < 0.5 ? row.answer_key[String(question.id)]! : question.answers.find((answer) => answer.id !== row.answer_key[String(question.id)])!.id]));
  const sourceAnswers = own(source!);
  const copierAnswers = own(copier!);
  const order = source!.questions.map((question) => String(question.id)).filter((q) => q in copierAnswers);
  order.slice(0, 8).forEach((q) => (copierAnswers[q] = sourceAnswers[q]!));
  for (const [row, answers, lag] of [[source!, sourceAnswers, 20], [copier!, copierAnswers, 28]] as const) {
    const start = source!.start_time.getTime() / 1000;
    const times: Record<string, number> = Object.fromEntries(order.map((q, k) => [`${q}:${answers[q]}`, Math.round(start + 35 * k + lag)]));
    const correct = Object.entries(answers).filter(([q, a]) => row.answer_key[q] === a).length;
    await sql`UPDATE exams SET answers = ${JSON.stringify(answers)}::jsonb, answer_times = ${JSON.stringify(times)}::jsonb,
              correct_count = ${correct}, points = ${5 * correct}, start_time = ${source!.start_time}
              WHERE id = ${row.id}`.execute(server.db);
  }
});
afterAll(() => server?.close());

const api = (method: string, path: string, body?: unknown, token = organiser.token) => server.request(method, `/api/admin/integrity${path}`, { token, body });

async function runScreening() {
  const started = await api('POST', '/runs', { family_rate_percent: 1 });
  expect(started.status).toBe(202);
  for (let i = 0; i < 200; i += 1) {
    const status = await api('GET', '');
    if (!status.body.data.running && status.body.data.run) return status.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the screening did not end');
}

const flags = async () => (await api('GET', '/flags')).body.data as IntegrityFlag[];
const pairOf = (flag: IntegrityFlag) => flag.exams.map((exam) => exam.exam_id).sort((a, b) => a - b);

describe('integrity screening', () => {
  it('finds the planted copy, the fast exam and the lockstep pair, and nothing else', async () => {
    const run = await runScreening();
    // The season's review setting, for the page's account of what the screening can see.
    expect(run.review_correct_answers).toBe('after_submit');
    expect(run.run.exams).toBe(62);
    // Pairs of exams of two pupils: 62 exams less the two pupils' own pairs of attempts.
    expect(run.run.pairs).toBe((62 * 61) / 2 - 2);
    expect(run.run.family_rate_percent).toBe(1);
    // A quarter of the 1 % for the classmates' similarity: its threshold is 0.0025 / K, K at most the sum less the three other families' (≥ 1 each).
    expect(run.run.threshold).toBeGreaterThanOrEqual(0.0025 / (run.run.tests - 3));
    expect(run.run.threshold).toBeLessThanOrEqual(0.0025);
    const list = await flags();
    const similarity = list.filter((flag) => flag.kind === 'similarity');
    expect(similarity.map(pairOf).sort((x, y) => x[0]! - y[0]!)).toEqual([
      [exams[0]!.id, exams[1]!.id],
      [exams[5]!.id, exams[6]!.id],
    ]);
    const copy = similarity.find((flag) => pairOf(flag)[0] === exams[0]!.id)!;
    // insertPupils makes one parent account per three pupils: exams 0 and 1 are siblings' too.
    expect(copy.contact).toEqual(['cùng lớp', 'cùng tài khoản phụ huynh']);
    expect(copy.evidence.tests).toEqual(['similarity']);
    expect(copy.summary).toMatch(/^20 câu cả hai bài cùng có; 20 câu trả lời giống nhau, trong đó \d+ câu sai/);
    // Siblings: the close tier, tested at its own share of the rate.
    expect(copy.evidence.tier).toBe('close');
    const copyEvidence = copy.evidence.similarity as { p: number; threshold: number };
    expect(copyEvidence.p).toBeLessThanOrEqual(copyEvidence.threshold);
    expect(copy.summary).toMatch(/ngưỡng báo của nhóm cặp chung tài khoản hoặc lần đăng nhập: p ≤ /);
    // The in-step copy: classmates of two accounts, exam 6 after exam 5; its 12 copied answers (and any other identical one) 8 s after.
    const step = similarity.find((flag) => pairOf(flag)[0] === exams[5]!.id)!;
    expect(step.contact).toEqual(['cùng lớp']);
    expect(step.evidence.tests).toContain('in_step');
    type Attempt = { copier_exam_id: number; source_exam_id: number; common: number; events: number };
    const stepEvidence = step.evidence.in_step as { p: number; threshold: number; events: number; common: number; copier_exam_id: number; window_seconds: number; attempts: Attempt[] };
    // Both attempts pooled: the flag names the first (more events), the evidence lists both.
    expect(stepEvidence).toMatchObject({ common: 40, copier_exam_id: exams[6]!.id, window_seconds: 30 });
    expect(stepEvidence.attempts.map((a) => [a.copier_exam_id, a.source_exam_id, a.common])).toEqual([
      [exams[6]!.id, exams[5]!.id, 20],
      [secondAttempts[1], secondAttempts[0], 20],
    ]);
    expect(stepEvidence.attempts[0]!.events).toBeGreaterThanOrEqual(12);
    expect(stepEvidence.attempts[1]!.events).toBeGreaterThanOrEqual(8);
    expect(stepEvidence.events).toBe(stepEvidence.attempts[0]!.events + stepEvidence.attempts[1]!.events);
    expect(stepEvidence.p).toBeLessThanOrEqual(stepEvidence.threshold);
    expect(step.summary).toContain(`Trả lời theo sát ở 2 lượt thi làm cùng lúc: trong 40 câu hai bài của cùng lượt cùng trả lời, ${stepEvidence.events} câu một bài trả lời giống hệt bài kia trong vòng 30 giây sau bài kia`);
    expect(step.summary).toMatch(/ngưỡng báo của nhóm cặp cùng lớp: p ≤ /);
    expect(list.filter((flag) => flag.kind === 'speed').map((flag) => flag.exams[0]!.exam_id)).toEqual([exams[2]!.id]);
    const lockstep = list.filter((flag) => flag.kind === 'lockstep');
    expect(lockstep.map(pairOf)).toEqual([[exams[3]!.id, exams[4]!.id]]);
    expect(lockstep[0]!.contact[0]).toBe('cùng thiết bị');
    // Strongest first.
    const strengths = list.map((flag) => flag.strength);
    expect(strengths).toEqual([...strengths].sort((a, b) => b - a));
  });

  it('shows the two answer sheets side by side with the identical wrong answers', async () => {
    const flag = (await flags()).find((f) => f.kind === 'similarity' && pairOf(f)[0] === exams[0]!.id)!;
    const detail = (await api('GET', `/flags/${flag.id}`)).body.data as IntegrityFlagDetail;
    expect(detail.exams.map((exam) => exam.exam_id)).toEqual([exams[0]!.id, exams[1]!.id]);
    expect(detail.sheet).toHaveLength(20);
    expect(detail.sheet.every((row) => row.identical && row.answers.every((answer) => answer.drew && answer.first_at !== null))).toBe(true);
    const wrong = detail.sheet.filter((row) => row.identical_wrong).length;
    expect(wrong).toBe((flag.evidence.similarity as { identical_wrong: number }).identical_wrong);
    expect(wrong).toBeGreaterThan(3);
    expect(detail.sheet.filter((row) => !row.answers[0]!.right).length).toBe(wrong);
  });

  it('marks the in-step answers with both times, in each attempt pooled', async () => {
    const flag = (await flags()).find((f) => f.kind === 'similarity' && pairOf(f)[0] === exams[5]!.id)!;
    const detail = (await api('GET', `/flags/${flag.id}`)).body.data as IntegrityFlagDetail;
    const attempts = (flag.evidence.in_step as { attempts: { events: number }[] }).attempts;
    expect(detail.sheet).toHaveLength(20);
    const marked = detail.sheet.filter((row) => row.in_step_seconds !== null);
    expect(marked.length).toBe(attempts[0]!.events);
    // The second attempts, the source's sheet first as in the flag.
    expect(detail.more.map((pair) => pair.exams.map((exam) => [exam.exam_id, exam.attempt]))).toEqual([
      [
        [secondAttempts[0], 2],
        [secondAttempts[1], 2],
      ],
    ]);
    const markedAgain = detail.more[0]!.sheet.filter((row) => row.in_step_seconds !== null);
    expect(markedAgain.length).toBe(attempts[1]!.events);
    expect(markedAgain.every((row) => row.identical && row.in_step_seconds === 8)).toBe(true);
    for (const row of marked) {
      expect(row.identical).toBe(true);
      expect(row.in_step_seconds).toBe(8);
      const [source, copier] = row.answers.map((answer) => Date.parse(answer.answered_at!));
      expect((copier! - source!) / 1000).toBe(8);
    }
    // The answers exam 6 did not copy are its own (8 s after too, as it answered along): not in step unless identical.
    expect(detail.sheet.filter((row) => !row.identical).every((row) => row.in_step_seconds === null)).toBe(true);
  });

  it("says the season's review setting, as the contest's settings change it", async () => {
    const put = (review: string) => server.request('PUT', '/api/admin/contest', { token: organiser.token, body: { review_correct_answers: review } });
    expect((await put('after_exam_window')).status).toBe(200);
    expect((await api('GET', '')).body.data.review_correct_answers).toBe('after_exam_window');
    expect((await put('after_submit')).status).toBe(200);
    expect((await api('GET', '')).body.data.review_correct_answers).toBe('after_submit');
  });

  it('is for organisers only', async () => {
    const parent = await createParent(server);
    expect((await api('GET', '/flags', undefined, parent.token)).status).toBe(403);
    expect((await server.request('GET', '/api/admin/integrity/flags')).status).toBe(401);
  });

  it('dismisses a flag only with a reason, in the audit log, once', async () => {
    const flag = (await flags()).find((f) => f.kind === 'lockstep')!;
    const empty = await api('POST', `/flags/${flag.id}/dismiss`, { reason: ' ' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.reason).toBe('Vui lòng nhập lý do (ít nhất 3 ký tự).');
    expect((await api('POST', `/flags/${flag.id}/dismiss`, { reason: 'Hai anh em sinh đôi dùng chung điện thoại, đã gọi xác minh' })).status).toBe(200);
    const again = await api('POST', `/flags/${flag.id}/dismiss`, { reason: 'Lần nữa' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Cảnh báo này đã được xử lý.');
    const audit = await server.db.selectFrom('audit_log').select(['kind', 'details']).where('kind', '=', 'integrity.dismiss').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ flag_id: flag.id, reason: 'Hai anh em sinh đôi dùng chung điện thoại, đã gọi xác minh' });
    // Decided flags come after the open ones, and a new run keeps the decision.
    await runScreening();
    const list = await flags();
    expect(list.at(-1)).toMatchObject({ id: flag.id, status: 'dismissed', reason: 'Hai anh em sinh đôi dùng chung điện thoại, đã gọi xác minh' });
  });

  it('withholds a prize: the pupil moves down at the next computation, the family sees a neutral message', async () => {
    const clock = server.clock;
    // Fewer individual prizes than pupils (the spec's encouragement prizes alone outnumber this class).
    await sql`UPDATE prize_tiers SET winners = 0 WHERE kind = 'individual' AND code NOT IN ('special', 'first', 'second', 'third')`.execute(server.db);
    await computeResults({ db: server.db, clock }, { force: true });
    const copier = exams[1]!;
    const resultOf = (contestantId: number) =>
      server.db.selectFrom('individual_results').select(['rank', 'prize_name', 'held']).where('contestant_id', '=', contestantId).executeTakeFirstOrThrow();
    const before = await resultOf(copier.contestantId);
    expect(before.prize_name).not.toBeNull();
    expect(before.held).toBe(false);
    // The pupil just outside the 1 + 1 + 3 + 20 individual prizes.
    const next = await server.db.selectFrom('individual_results').select(['contestant_id', 'prize_name']).where('rank', '>', 25).orderBy('rank').orderBy('contestant_id').executeTakeFirstOrThrow();
    expect(next.prize_name).toBeNull();

    const flag = (await flags()).find((f) => f.kind === 'similarity' && pairOf(f)[0] === exams[0]!.id)!;
    const outsider = await api('POST', `/flags/${flag.id}/withhold`, { contestant_id: exams[7]!.contestantId, reason: 'Nhầm người' });
    expect(outsider.status).toBe(400);
    expect((await api('POST', `/flags/${flag.id}/withhold`, { contestant_id: copier.contestantId, reason: '' })).status).toBe(400);
    const held = await api('POST', `/flags/${flag.id}/withhold`, { contestant_id: copier.contestantId, reason: 'Bài giống hệt bài của bạn cùng lớp, kể cả 8 câu sai' });
    expect(held.status).toBe(200);
    const audit = await server.db.selectFrom('audit_log').select(['summary', 'details']).where('kind', '=', 'integrity.withhold').executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ flag_id: flag.id, contestant_id: copier.contestantId });
    expect(audit.summary).toMatch(/áp dụng từ lần tính kết quả sau$/);

    // Nothing moves until the next computation.
    expect(await resultOf(copier.contestantId)).toEqual(before);
    await computeResults({ db: server.db, clock }, { force: true });
    const after = await resultOf(copier.contestantId);
    expect(after).toEqual({ rank: 60, prize_name: null, held: true });
    expect((await resultOf(next.contestant_id)).prize_name).not.toBeNull();

    // The family: a neutral message with the hotline, never the reason.
    await sql`UPDATE result_runs SET published_at = ${clock.now()}`.execute(server.db);
    const token = await sessionAt(server.db, copier.userId, clock.now());
    const page = await server.request('GET', `/api/chilren-certificate?child_id=${copier.contestantId}`, { token });
    expect(page.status).toBe(200);
    expect(page.body.data.results_held).toMatch(/^Kết quả của em đang được Ban tổ chức xem xét thêm\. Gia đình vui lòng liên hệ đường dây nóng .+ để được hướng dẫn\.$/);
    expect(JSON.stringify(page.body)).not.toMatch(/giống|sai|gian lận/);
    expect(page.body.data.prize_personal).toBeNull();
  });
});
