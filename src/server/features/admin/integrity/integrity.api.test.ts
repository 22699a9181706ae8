// The integrity screening over finished exams written into the database (decision 027): 60
// pupils of one class answering the same 20 questions at random by their ability, with one
// planted copy (every answer of another exam, wrong ones included), one exam answered in 40 s and
// two exams saved in turns from one login. The run finds exactly these; the review shows the two
// sheets; a dismissal and a withheld prize need a reason and are audited; the withheld prize moves
// the pupil down only at the next computation, and the family sees a neutral message.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrityFlag, IntegrityFlagDetail } from '../../../../shared/schemas/admin-integrity';
import { bookForClassRoom, insertFinishedExams, insertPupils, sessionAt } from '../../../demo/finished-exams';
import { computeResults } from '../../results';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createOrganiser, createParent, firstSchool, type CreatedUser } from '../../../test/factories';

let server: TestServer;
let organiser: CreatedUser;
let exams: { id: number; contestantId: number; userId: number }[] = [];

/** A small deterministic generator (mulberry32): the same sheets on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  const next = random(2025);
  const sheets = rows.map((row, i) => {
    // Abilities: most pupils 25-55 % right; exam 0 (the source) 60 %, exam 2 (the fast one) 85 %.
    const ability = i === 0 ? 0.6 : i === 2 ? 0.85 : 0.25 + 0.3 * next();
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
  for (const [i, row] of rows.entries()) {
    const answers = sheets[i]!;
    const correct = Object.entries(answers).filter(([q, a]) => row.answer_key[q] === a).length;
    const start = row.start_time.getTime() / 1000;
    const questionIds = Object.keys(answers);
    // Times: 30-40 s a question; exam 2 all in 40 s; exams 3 and 4 from one login in turns, 10 s apart.
    const times: Record<string, number> = {};
    questionIds.forEach((q, k) => {
      const at = i === 2 ? start + 2 * (k + 1) : i === 4 ? start + 35 * k + 10 : start + 35 * k + 20;
      times[`${q}:${answers[q]}`] = Math.round(at);
    });
    if (i === 3 || i === 4) times.s = 777_000;
    await sql`UPDATE exams SET answers = ${JSON.stringify(answers)}::jsonb, answer_times = ${JSON.stringify(times)}::jsonb,
              correct_count = ${correct}, points = ${5 * correct}, start_time = ${i === 4 ? rows[3]!.start_time : row.start_time}
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
    expect(run.run.exams).toBe(60);
    expect(run.run.pairs).toBe((60 * 59) / 2);
    expect(run.run.family_rate_percent).toBe(1);
    // Half of the 1 % for the classmates: their threshold is 0.005 / K, K at most the sum less the close tier's (≥ 1).
    expect(run.run.threshold).toBeGreaterThanOrEqual(0.005 / (run.run.tests - 1));
    expect(run.run.threshold).toBeLessThanOrEqual(0.005);
    const list = await flags();
    const similarity = list.filter((flag) => flag.kind === 'similarity');
    expect(similarity.map(pairOf)).toEqual([[exams[0]!.id, exams[1]!.id]]);
    // insertPupils makes one parent account per three pupils: exams 0 and 1 are siblings' too.
    expect(similarity[0]!.contact).toEqual(['cùng lớp', 'cùng tài khoản phụ huynh']);
    expect(similarity[0]!.summary).toMatch(/^20 câu cả hai bài cùng có; 20 câu trả lời giống nhau, trong đó \d+ câu sai/);
    // Siblings: the close tier, tested at its own half of the rate.
    expect(similarity[0]!.evidence.tier).toBe('close');
    expect(similarity[0]!.evidence.p as number).toBeLessThanOrEqual(similarity[0]!.evidence.threshold as number);
    expect(similarity[0]!.summary).toMatch(/ngưỡng báo của nhóm cặp chung tài khoản hoặc lần đăng nhập: p ≤ /);
    expect(list.filter((flag) => flag.kind === 'speed').map((flag) => flag.exams[0]!.exam_id)).toEqual([exams[2]!.id]);
    const lockstep = list.filter((flag) => flag.kind === 'lockstep');
    expect(lockstep.map(pairOf)).toEqual([[exams[3]!.id, exams[4]!.id]]);
    expect(lockstep[0]!.contact[0]).toBe('cùng thiết bị');
    // Strongest first.
    const strengths = list.map((flag) => flag.strength);
    expect(strengths).toEqual([...strengths].sort((a, b) => b - a));
  });

  it('shows the two answer sheets side by side with the identical wrong answers', async () => {
    const flag = (await flags()).find((f) => f.kind === 'similarity')!;
    const detail = (await api('GET', `/flags/${flag.id}`)).body.data as IntegrityFlagDetail;
    expect(detail.exams.map((exam) => exam.exam_id)).toEqual([exams[0]!.id, exams[1]!.id]);
    expect(detail.sheet).toHaveLength(20);
    expect(detail.sheet.every((row) => row.identical && row.answers.every((answer) => answer.drew && answer.first_at !== null))).toBe(true);
    const wrong = detail.sheet.filter((row) => row.identical_wrong).length;
    expect(wrong).toBe(flag.evidence.identical_wrong);
    expect(wrong).toBeGreaterThan(3);
    expect(detail.sheet.filter((row) => !row.answers[0]!.right).length).toBe(wrong);
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

    const flag = (await flags()).find((f) => f.kind === 'similarity')!;
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
