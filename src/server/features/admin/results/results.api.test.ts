// Results from the back office: the computation as a task with progress, ties that cross a prize
// boundary and the organiser's decision on them, publishing and its refusals, the prize lists, the
// .xlsx exports read back, and the ceremony's money against spec section 9.
//
// Hand-worked contest (one finished exam each, 110 pupils):
//   Lê Lợi (1250 pupils), 5A1: T1 and T2 100 pts 300 s, same instant, same prediction -> tied rank 1;
//     38 more 95 pts 400..437 s -> ranks 3..40 (3-5 second, 6-25 third, 26-40 consolation)
//   Nguyễn Trãi (980), 4A1: 40 pupils 90 pts 500..539 s -> ranks 41..80 (41-75 consolation)
//   Hương Sơn (188), 3A1: 30 pupils 85 pts 600..629 s -> ranks 81..110, no individual prize
// The rank-1 tie crosses the special/first boundary: sharing gives two special prizes and no first
// (46.000.000 đ in all, 5.000.000 đ more); the order T2, T1 gives T2 special and T1 first (41.000.000 đ).
// Schools (participants / size): Hương Sơn .5·30/40 + .5 = .875 first, Nguyễn Trãi .5 + .5·(40/980)/(30/188)
//   = .6278 second, Lê Lợi .5 + .5·(40/1250)/(30/188) = .6003 third: 30 best pupils each -> 90 gifts.
// Classes: 5A1 avg 95.25, 4A1 90, 3A1 85 -> teacher first, second, third.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import readExcelFile from 'read-excel-file/node';
import { PRIZE_TIERS, prizeTotal, prizesOfKind } from '../../../../shared/prizes';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createOrganiser, createParent, createSchoolAdmin, type CreatedUser } from '../../../test/factories';
import { bookForClassRoom, insertFinishedExams, insertPupils, sessionAt, type FinishedExamInput } from '../../../demo/finished-exams';
import type { Contest } from '../../../db/schema';

let server: TestServer;
let organiser: CreatedUser;
let contest: Contest;
const school: Record<'A' | 'B' | 'C', number> = { A: 0, B: 0, C: 0 };
let t1: number;
let t2: number;
const PAPERS = 110;

const api = (method: string, path: string, body?: unknown, token = organiser.token) => server.request(method, path, { token, body });
const overview = async () => (await api('GET', '/api/admin/results')).body.data;
const lastAudit = () => server.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
const individual = (contestantId: number) =>
  server.db.selectFrom('individual_results').selectAll().where('contestant_id', '=', contestantId).executeTakeFirstOrThrow();

/** Starts a computation and waits for its task to finish; answers the finished task. */
async function compute(force = false) {
  const started = await api('POST', '/api/admin/results/compute', { force });
  expect(started.status).toBe(202);
  expect(started.body.data).toMatchObject({ status: 'running', forced: force });
  for (let i = 0; i < 200; i += 1) {
    const task = (await api('GET', '/api/admin/results/task')).body.data;
    if (task.status !== 'running') return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the computation did not finish');
}

/** Moves the clock (by weeks at times) with a session that is valid then. */
async function setClock(at: Date) {
  server.clock.set(at);
  organiser = { ...organiser, token: await sessionAt(server.db, organiser.id, at) };
}
const later = (ms: number) => setClock(new Date(server.clock.now().getTime() + ms));

async function downloadBytes(file: string, query = '') {
  const response = await fetch(`${server.url}/api/admin/results/exports/${file}${query}`, { headers: { authorization: `Bearer ${organiser.token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('spreadsheetml');
  return Buffer.from(await response.arrayBuffer());
}
const download = async (file: string, query = '') => readExcelFile(await downloadBytes(file, query));

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  contest = await server.db.selectFrom('contests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  for (const [key, name] of [
    ['A', 'Trường Tiểu học Lê Lợi'],
    ['B', 'Trường Tiểu học Nguyễn Trãi'],
    ['C', 'Trường Tiểu học Hương Sơn'],
  ] as const) {
    school[key] = (await server.db.selectFrom('schools').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  }
  const T = contest.exam_starts_at.getTime() + 3_600_000;
  const exams: FinishedExamInput[] = [];
  const add = async (key: 'A' | 'B' | 'C', classRoom: string, count: number, name: string, make: (index: number) => { points: number; duration: number; second: number }) => {
    const pupils = await insertPupils(server.db, { schoolId: school[key], classRooms: [classRoom], count, fullname: (i) => `${name} ${i + 1}` });
    const book = (await bookForClassRoom(server.db, classRoom)).id;
    pupils.forEach((pupil, index) => {
      const { points, duration, second } = make(index);
      exams.push({ contestantId: pupil.id, bookId: book, attempt: 1, points, durationSeconds: duration, submittedAt: new Date(T + second * 1000), prediction: PAPERS });
    });
    return pupils.map((pupil) => pupil.id);
  };
  [t1, t2] = (await add('A', '5A1', 2, 'Đồng Hạng', () => ({ points: 100, duration: 300, second: 10 }))) as [number, number];
  await add('A', '5A1', 38, 'Lê Lợi', (i) => ({ points: 95, duration: 400 + i, second: 100 + i }));
  await add('B', '4A1', 40, 'Nguyễn Trãi', (i) => ({ points: 90, duration: 500 + i, second: 200 + i }));
  await add('C', '3A1', 30, 'Hương Sơn', (i) => ({ points: 85, duration: 600 + i, second: 300 + i }));
  await insertFinishedExams(server.db, exams);
});
afterAll(() => server?.close());

describe('permissions', () => {
  it('answers 401 without a session and 403 to parents and school administrators, on every results route', async () => {
    const parent = await createParent(server);
    const schoolAdmin = await createSchoolAdmin(server);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/results'],
      ['POST', '/api/admin/results/compute', { force: true }],
      ['GET', '/api/admin/results/task'],
      ['POST', '/api/admin/results/ties', { scope: 'individual', ids: [1, 2], decision: 'share', reason: 'bốc thăm' }],
      ['POST', '/api/admin/results/publish'],
      ['GET', '/api/admin/results/prizes'],
      ['GET', '/api/admin/results/exports/winners.xlsx'],
    ];
    for (const [method, path, body] of calls) {
      expect((await server.request(method, path, { body })).status).toBe(401);
      expect((await server.request(method, path, { body, token: parent.token })).status).toBe(403);
      expect((await server.request(method, path, { body, token: schoolAdmin.token })).status).toBe(403);
    }
    expect(await server.db.selectFrom('result_tasks').selectAll().execute()).toEqual([]);
  });
});

describe('before the window closes', () => {
  it('refuses a final computation (409) and computes a draft with "tính tạm", not publishable', async () => {
    const early = await api('POST', '/api/admin/results/compute', { force: false });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('results_too_early');

    const task = await compute(true);
    expect(task).toMatchObject({ status: 'done', forced: true, stage: 'done', error: null });
    expect(task.summary).toMatchObject({ participants: 110, exam_papers: 110 });
    expect(task.total).toBe(task.done);
    expect(task.total).toBeGreaterThanOrEqual(110);
    expect(await lastAudit()).toMatchObject({ kind: 'results.compute', actor_phone: organiser.phone });
    expect((await lastAudit()).details).toMatchObject({ forced: true });

    // Even past the results date, a draft is never published.
    await setClock(new Date(contest.results_at.getTime() + 60_000));
    const data = await overview();
    expect(data.run).toMatchObject({ forced: true, published_at: null });
    expect(data.publish.allowed).toBe(false);
    const refused = await api('POST', '/api/admin/results/publish');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('results_not_final');
  });
});

describe('after the window closes', () => {
  it('computes as a task, one at a time; a task whose process died is shown failed and does not block', async () => {
    await setClock(new Date(contest.exam_ends_at.getTime() + 60_000));
    const now = server.clock.now();
    // A computation running in another process (fresh heartbeat) blocks a second one...
    const other = await server.db
      .insertInto('result_tasks')
      .values({ contest_id: contest.id, kind: 'compute', started_at: now, heartbeat_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const blocked = await api('POST', '/api/admin/results/compute', { force: false });
    expect(blocked.status).toBe(409);
    expect(blocked.body.code).toBe('results_computing');
    // ...until that process stops beating for more than 30 s: then it is failed, and a new one starts.
    await setClock(new Date(now.getTime() + 31_000));
    const task = (await api('GET', '/api/admin/results/task')).body.data;
    expect(task).toMatchObject({ id: other.id, status: 'failed' });
    expect(task.error).toContain('dừng giữa chừng');
    const done = await compute();
    expect(done).toMatchObject({ status: 'done', forced: false });
    expect(done.summary).toMatchObject({ participants: 110, crossing_ties: 1 });
    expect(await server.db.selectFrom('result_tasks').select('status').where('id', '=', other.id).executeTakeFirstOrThrow()).toEqual({ status: 'failed' });
  });

  it('refuses to publish before the results date (409), saying when', async () => {
    const refused = await api('POST', '/api/admin/results/publish');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('results_too_early');
    const data = await overview();
    expect(data.publish.allowed).toBe(false);
    expect(data.publish.reasons.join(' ')).toContain('Chưa đến ngày công bố');
  });

  it('shows the tie crossing the special/first boundary with names, points, time, prediction and the extra money', async () => {
    const data = await overview();
    expect(data.ties).toHaveLength(1);
    const [tie] = data.ties;
    expect(tie).toMatchObject({
      scope: 'individual',
      rank: 1,
      size: 2,
      crosses_prize: true,
      shared_prize: 'Giải Đặc biệt',
      extra_amount: 5_000_000,
      decision: null,
      decision_state: 'none',
    });
    expect(tie.members.map((m: { id: number }) => m.id).sort()).toEqual([t1, t2].sort());
    expect(tie.members[0]).toMatchObject({ school: 'Trường Tiểu học Lê Lợi', class_name: '5A1', points: 100, duration_seconds: 300, prediction: PAPERS });
    // Without a decision both get the special prize and nobody the first.
    expect([(await individual(t1)).prize_code, (await individual(t2)).prize_code]).toEqual(['special', 'special']);
  });

  it('refuses to publish while the crossing tie is undecided', async () => {
    await setClock(new Date(contest.results_at.getTime() + 60_000));
    const refused = await api('POST', '/api/admin/results/publish');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('tie_undecided');
  });

  it('refuses a decision without a reason, on a group that is not a tie, or with an order that is not the group', async () => {
    const noReason = await api('POST', '/api/admin/results/ties', { scope: 'individual', ids: [t1, t2], decision: 'share', reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toHaveProperty('reason');
    const notATie = await api('POST', '/api/admin/results/ties', { scope: 'individual', ids: [t1, t2 + 1], decision: 'share', reason: 'Bốc thăm' });
    expect(notATie.status).toBe(404);
    expect(notATie.body.code).toBe('tie_not_found');
    const badOrder = await api('POST', '/api/admin/results/ties', { scope: 'individual', ids: [t1, t2], decision: 'order', order: [t2, t2], reason: 'Bốc thăm' });
    expect(badOrder.status).toBe(422);
    expect(badOrder.body.errors).toHaveProperty('order');
    const noOrder = await api('POST', '/api/admin/results/ties', { scope: 'individual', ids: [t1, t2], decision: 'order', reason: 'Bốc thăm' });
    expect(noOrder.status).toBe(400);
    expect(await server.db.selectFrom('tie_decisions').selectAll().execute()).toEqual([]);
  });

  it('records an order after a draw, applies it at the next computation, then publishes', async () => {
    await later(1000);
    const decided = await api('POST', '/api/admin/results/ties', {
      scope: 'individual',
      ids: [t1, t2],
      decision: 'order',
      order: [t2, t1],
      reason: 'Bốc thăm trước hội đồng ngày 20/04',
    });
    expect(decided.status).toBe(200);
    expect(decided.body.data).toMatchObject({ decision: 'order', ordered_ids: [t2, t1], applicable: true });
    const entry = await lastAudit();
    expect(entry).toMatchObject({ kind: 'results.tie_decision' });
    expect(entry.summary).toContain('Bốc thăm trước hội đồng');
    // By the pupils' names, never by their ids.
    expect(entry.summary).toContain('xếp thứ tự Đồng Hạng 2, Đồng Hạng 1');
    expect(entry.details).toMatchObject({ after: { decision: 'order', order: [t2, t1] }, member_names: ['Đồng Hạng 1', 'Đồng Hạng 2'] });

    // Decided after the computation: not yet applied, so publishing still waits.
    expect((await overview()).ties[0]).toMatchObject({ decision: 'order', decision_state: 'pending' });
    expect((await api('POST', '/api/admin/results/publish')).body.code).toBe('tie_undecided');

    await later(1000);
    await compute();
    expect((await overview()).ties[0]).toMatchObject({ decision: 'order', decision_state: 'applied' });
    const [r1, r2] = [await individual(t1), await individual(t2)];
    expect([r2.rank, r2.tied, r2.prize_code]).toEqual([1, false, 'special']);
    expect([r1.rank, r1.tied, r1.prize_code]).toEqual([2, false, 'first']);

    const published = await api('POST', '/api/admin/results/publish');
    expect(published.status).toBe(200);
    expect(published.body.data.published_at).toBe(server.clock.now().toISOString());
    expect(await lastAudit()).toMatchObject({ kind: 'results.publish', actor_phone: organiser.phone });
    const data = await overview();
    expect(data.run.published_at).toBe(server.clock.now().toISOString());
    expect(data.publish).toEqual({ allowed: false, reasons: [] });
  });

  it('lists each tier with filters by school and district, paged on the server', async () => {
    const page = (await api('GET', '/api/admin/results/prizes?kind=individual&per_page=10')).body.data;
    expect(page.total).toBe(75);
    expect(page.items).toHaveLength(10);
    expect(page.items[0]).toMatchObject({ rank: 1, name: 'Đồng Hạng 2', prize: 'Giải Đặc biệt', amount: 10_000_000, school: 'Trường Tiểu học Lê Lợi' });
    expect(page.items[0]).not.toHaveProperty('parent_phone');
    // Rank 2 looks like rank 1 (100 points, 300 s, same prediction): the list says what decided it.
    expect(page.items[0]).toMatchObject({ decided_by: null, submitted_at: expect.stringMatching(/^\d\d:\d\d:\d\d \d\d\/\d\d\/\d{4}$/) });
    expect(page.items[1]).toMatchObject({ rank: 2, points: 100, duration_seconds: 300, decided_by: 'Bằng nhau cả bốn tiêu chí: theo quyết định của Ban tổ chức về đồng hạng' });
    expect(page.items[2].decided_by).toBeNull();
    const second = (await api('GET', '/api/admin/results/prizes?kind=individual&per_page=10&page=8')).body.data;
    expect(second.items).toHaveLength(5);

    const b = (await api('GET', `/api/admin/results/prizes?kind=individual&school_id=${school.B}`)).body.data;
    expect(b.total).toBe(35);
    expect(new Set(b.items.map((row: { prize: string }) => row.prize))).toEqual(new Set(['Giải Khuyến khích']));
    const district = await server.db.selectFrom('schools').select('district_id').where('id', '=', school.C).executeTakeFirstOrThrow();
    const inDistrict = (await api('GET', `/api/admin/results/prizes?kind=school_pupils&district_id=${district.district_id}&per_page=200`)).body.data;
    const schoolsInDistrict = await server.db.selectFrom('schools').select('name').where('district_id', '=', district.district_id).execute();
    expect(inDistrict.items.every((row: { school: string }) => schoolsInDistrict.some((s) => s.name === row.school))).toBe(true);
    expect(inDistrict.items.some((row: { school: string }) => row.school === 'Trường Tiểu học Hương Sơn')).toBe(true);

    const schools = (await api('GET', '/api/admin/results/prizes?kind=school')).body.data.items;
    expect(schools.map((row: { name: string; prize: string }) => [row.name, row.prize])).toEqual([
      ['Trường Tiểu học Hương Sơn', 'Giải Nhất tập thể trường'],
      ['Trường Tiểu học Nguyễn Trãi', 'Giải Nhì tập thể trường'],
      ['Trường Tiểu học Lê Lợi', 'Giải Ba tập thể trường'],
    ]);
    const teachers = (await api('GET', '/api/admin/results/prizes?kind=teacher')).body.data.items;
    expect(teachers.map((row: { class_name: string; points: number }) => [row.class_name, row.points])).toEqual([
      ['5A1', 95.25],
      ['4A1', 90],
      ['3A1', 85],
    ]);
    expect((await api('GET', '/api/admin/results/prizes?kind=school_pupils&per_page=1')).body.data.total).toBe(90);
    expect((await api('GET', '/api/admin/results/prizes?kind=nothing')).status).toBe(400);
  });

  it('adds up the ceremony: the settings give spec section 9 totals, and so do the results after the decision', async () => {
    const { ceremony } = await overview();
    const byKind = (kind: string, field: 'planned_total' | 'total') =>
      ceremony.tiers.filter((tier: { kind: string }) => tier.kind === kind).reduce((sum: number, tier: Record<string, number>) => sum + tier[field]!, 0);
    // Spec section 9: individual 41,000,000; teacher 6,000,000; 30 pupils × 70,000 = 2,100,000 per prized school.
    expect(prizeTotal(prizesOfKind('individual'))).toBe(41_000_000);
    expect(byKind('individual', 'planned_total')).toBe(41_000_000);
    expect(byKind('teacher', 'planned_total')).toBe(6_000_000);
    expect(byKind('school', 'planned_total')).toBe(prizeTotal(prizesOfKind('school')));
    expect(byKind('school_pupils', 'planned_total')).toBe(3 * 2_100_000);
    expect(ceremony.planned_total).toBe(41_000_000 + 18_000_000 + 6_300_000 + 6_000_000);
    expect(ceremony.tiers).toHaveLength(PRIZE_TIERS.length);
    // Every place filled once (the tie ordered): what is given is what is planned.
    for (const tier of ceremony.tiers) expect([tier.code, tier.winners]).toEqual([tier.code, tier.planned_winners]);
    expect(ceremony.total).toBe(ceremony.planned_total);
  });

  it('exports the winners with the parents’ phones, per tier, per school and per district, and audits it', async () => {
    const sheets = await download('winners.xlsx');
    expect(sheets.map((s) => s.sheet)).toEqual(['Giải cá nhân', 'Giải tập thể trường', 'Học sinh tiêu biểu', 'Giáo viên truyền lửa', 'Theo trường', 'Theo quận, huyện']);
    const individualSheet = sheets[0]!.data;
    expect(individualSheet[0]).toContain('SĐT phụ huynh');
    expect(individualSheet).toHaveLength(76);
    const phone = await server.db
      .selectFrom('contestants')
      .innerJoin('users', 'users.id', 'contestants.user_id')
      .select('users.phone')
      .where('contestants.id', '=', t2)
      .executeTakeFirstOrThrow();
    expect(individualSheet[1]).toEqual([1, null, 'Đồng Hạng 2', expect.any(String), 'Trường Tiểu học Lê Lợi', '5A1', 100, 300, PAPERS, 'Giải Đặc biệt', 10_000_000, phone.phone, null]);
    expect(sheets[2]!.data).toHaveLength(91);
    const bySchool = sheets[4]!.data;
    const huongSon = bySchool.find((row) => row[1] === 'Trường Tiểu học Hương Sơn')!;
    // School first prize + 30 gifts + the third teacher prize of its class 3A1.
    expect(huongSon.slice(2)).toEqual([32, 10_000_000 + 30 * 70_000 + 1_000_000]);
    const entry = await lastAudit();
    expect(entry).toMatchObject({ kind: 'results.export', actor_phone: organiser.phone });
    expect(entry.summary).toContain('số điện thoại phụ huynh');

    const onlyB = await download('winners.xlsx', `?school_id=${school.B}`);
    expect(onlyB[0]!.data).toHaveLength(36);
    expect(onlyB[4]!.data.slice(1).map((row) => row[1])).toEqual(['Trường Tiểu học Nguyễn Trãi']);
  });

  it('exports every contestant’s best result in rank order, and the ceremony’s numbers', async () => {
    const [all] = await download('contestants.xlsx');
    expect(all!.data).toHaveLength(PAPERS + 1);
    expect(all!.data.slice(1).map((row) => row[0])).toEqual([...all!.data.slice(1).map((row) => row[0] as number)].sort((a, b) => a - b));
    expect(all!.data[PAPERS]!.slice(0, 3)).toEqual([110, null, 'Hương Sơn 30']);

    const [ceremony] = await download('ceremony.xlsx');
    expect(ceremony!.data).toHaveLength(PRIZE_TIERS.length + 2);
    expect(ceremony!.data[ceremony!.data.length - 1]).toEqual(['Tổng cộng', null, null, null, 71_300_000, null, 71_300_000]);
    expect((await lastAudit()).details).toMatchObject({ file: 'kinh_phi_trao_giai.xlsx' });
    expect((await fetch(`${server.url}/api/admin/results/exports/phones.xlsx`, { headers: { authorization: `Bearer ${organiser.token}` } })).status).toBe(400);
  });

  it('writes money, scores and times as formatted numbers and dates under a bold, frozen, filtered heading; one tier alone on request', async () => {
    const bytes = await downloadBytes('contestants.xlsx');
    const files = unzipSync(bytes);
    const xml = (name: string) => strFromU8(files[name]!);
    const styles = xml('xl/styles.xml');
    expect(styles).toContain('formatCode="#,##0 &quot;đ&quot;"');
    expect(styles).toContain('formatCode="0.0"');
    expect(styles).toContain('formatCode="dd/mm/yyyy hh:mm"');
    expect(xml('xl/workbook.xml')).toContain('<sheet name="Kết quả thí sinh"');
    expect(xml('xl/workbook.xml')).not.toContain('Sheet1');
    const sheet = xml('xl/worksheets/sheet1.xml');
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    expect(sheet).toContain(`<autoFilter ref="A1:Q${PAPERS + 1}"/>`);
    // Cell styles by column kind (lib/xlsx-writer-worker.mjs): score 6, date 8, money 4; the heading bold text (1).
    expect(sheet).toMatch(/<c r="A1" s="1" t="inlineStr">/);
    // (E is "Tỉnh cũ", decision 038.)
    expect(sheet).toMatch(/<c r="I2" s="6"><v>\d+<\/v><\/c>/);
    expect(sheet).toMatch(/<c r="K2" s="8"><v>\d+\.\d+<\/v><\/c>/);
    expect(sheet).toMatch(/<c r="P2" s="4"><v>\d+<\/v><\/c>/);
    // Read back: the submission time is a date, in Vietnamese local time (UTC+7) as Excel shows it.
    const [all] = await readExcelFile(bytes);
    const first = await server.db
      .selectFrom('individual_results as r')
      .innerJoin('contestants as c', 'c.id', 'r.contestant_id')
      .select('r.submitted_at')
      .where('r.contest_id', '=', contest.id)
      .where('c.fullname', '=', all!.data[1]![2] as string)
      .executeTakeFirstOrThrow();
    const submitted = all!.data[1]![10] as unknown as Date;
    expect(submitted).toBeInstanceOf(Date);
    // (A date serial is a fraction of a day: exact to about a millisecond.)
    expect(Math.abs(submitted.getTime() - (new Date(first.submitted_at!).getTime() + 7 * 3600_000))).toBeLessThan(2);

    // 'Xuất danh sách này' on the teacher tab: that tier's sheet alone.
    const teachers = await download('winners.xlsx', '?tier=teacher');
    expect(teachers.map((s) => s.sheet)).toEqual(['Giáo viên truyền lửa']);
    expect((await lastAudit()).summary).toContain('(Giải Giáo viên truyền lửa)');
    expect((await fetch(`${server.url}/api/admin/results/exports/winners.xlsx?tier=bogus`, { headers: { authorization: `Bearer ${organiser.token}` } })).status).toBe(400);
  });

  it('keeps the publication and the decision when computed again; a decision whose group changed is no longer applicable', async () => {
    // T1 gets one more second: the tie is gone, so the decision no longer applies.
    await server.db.updateTable('exams').set({ duration_seconds: 301 }).where('contestant_id', '=', t1).execute();
    await later(1000);
    await compute();
    const data = await overview();
    expect(data.run.published_at).not.toBeNull();
    expect(data.ties).toEqual([]);
    expect(data.decisions).toHaveLength(1);
    expect(data.decisions[0]).toMatchObject({ decision: 'order', applicable: false });
    expect([(await individual(t2)).prize_code, (await individual(t1)).prize_code]).toEqual(['special', 'first']);
  });

  it('applies the decision again when the same group ties again, and a later "share" replaces it', async () => {
    await server.db.updateTable('exams').set({ duration_seconds: 300 }).where('contestant_id', '=', t1).execute();
    await later(1000);
    await compute();
    let data = await overview();
    expect(data.decisions[0]).toMatchObject({ decision: 'order', applicable: true });
    expect(data.ties[0]).toMatchObject({ decision: 'order', decision_state: 'applied' });
    expect([(await individual(t2)).prize_code, (await individual(t1)).prize_code]).toEqual(['special', 'first']);

    await later(1000);
    const shared = await api('POST', '/api/admin/results/ties', { scope: 'individual', ids: [t2, t1], decision: 'share', reason: 'Hội đồng quyết định trao hai giải Đặc biệt' });
    expect(shared.status).toBe(200);
    expect((await lastAudit()).details).toMatchObject({ before: { decision: 'order' }, after: { decision: 'share', order: null } });
    await later(1000);
    await compute();
    data = await overview();
    expect(data.decisions).toHaveLength(1);
    expect(data.ties[0]).toMatchObject({ decision: 'share', decision_state: 'applied' });
    expect([(await individual(t1)).prize_code, (await individual(t2)).prize_code]).toEqual(['special', 'special']);
    // Two special prizes, no first: 5.000.000 đ more than the settings.
    expect(data.ceremony.total - data.ceremony.planned_total).toBe(5_000_000);
  });
});
