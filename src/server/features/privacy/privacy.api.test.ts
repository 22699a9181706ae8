// Issue 15: consent at registration and enrolment (and again for a new notice), the parent's copy
// of their data, the deletion of an account, and a log that holds no phone, password, code or token.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE_VERSION } from '../../../shared/privacy';
import { startTestServer, type TestServer } from '../../test/harness';
import { createContestant, createParent, createSchoolAdmin, firstSchool, classGroupAt, nextPhone, type CreatedUser } from '../../test/factories';
import { answersFor, saveBody, startExam } from '../../test/exam-fixtures';
import { bookForClassRoom, insertFinishedExams, insertPupils } from '../../demo/finished-exams';
import { computeResults } from '../results/compute';

let server: TestServer;
let log = '';
/** Everything that must never reach the log. */
const secrets = { phones: new Set<string>(), passwords: new Set<string>(), tokens: new Set<string>() };

const lastCode = (phone: string) => /(\d{6})/.exec(server.outbox().filter((m) => m.phone === phone).at(-1)!.message)![1]!;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      log += String(chunk);
      done();
    },
  });
  server = await startTestServer({ log: { stream: sink, level: 'debug' } });
});
afterAll(() => server.close());

async function register(phone: string, password: string, consent: unknown) {
  secrets.phones.add(phone);
  secrets.passwords.add(password);
  const sent = await server.request('POST', '/api/send-otp', { body: { phone, password, is_register: 1 } });
  expect(sent.status).toBe(200);
  return server.request('POST', '/api/register', { body: { phone, password, otp: lastCode(phone), consent } });
}

async function newContestantBody(fullname: string, childConsent?: boolean) {
  const school = await firstSchool(server.db);
  const group = await classGroupAt(server.db, 3);
  return {
    fullname,
    district_id: school.district_id,
    school_id: school.id,
    class_group_id: group.id,
    class_room_id: group.classRoom.id,
    ...(childConsent === undefined ? {} : { child_consent: childConsent }),
  };
}

const track = (user: CreatedUser) => {
  secrets.phones.add(user.phone);
  secrets.passwords.add(user.password);
  secrets.tokens.add(user.token);
  return user;
};

describe('consent', () => {
  it('refuses registration without the ticked box, with a Vietnamese field error', async () => {
    const phone = nextPhone();
    for (const consent of [false, undefined]) {
      const refused = await register(phone, 'matkhau123', consent);
      expect(refused.status).toBe(400);
      expect(refused.body.errors.consent).toBe('Vui lòng đồng ý với Chính sách bảo mật để tiếp tục.');
      // A new code for the next try (the cooldown is moved past).
      server.clock.advance(120_000);
    }
    expect(await server.db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst()).toBeUndefined();
  });

  it('stores the notice version and the time with the account', async () => {
    const phone = nextPhone();
    const done = await register(phone, 'matkhau123', true);
    expect(done.status).toBe(200);
    secrets.tokens.add(done.body.access_token);
    const row = await server.db.selectFrom('users').select(['privacy_version', 'privacy_consented_at']).where('phone', '=', phone).executeTakeFirstOrThrow();
    expect(row.privacy_version).toBe(PRIVACY_NOTICE_VERSION);
    expect(row.privacy_consented_at?.getTime()).toBe(server.clock.now().getTime());

    const login = await server.request('POST', '/api/login', { body: { phone, password: 'matkhau123' } });
    expect(login.body.consent_required).toBe(false);
    secrets.tokens.add(login.body.access_token);
  });

  it('asks again for a new version of the notice, and enrolment waits for it', async () => {
    const parent = track(await createParent(server));
    await server.db.updateTable('users').set({ privacy_version: '2000-01-01' }).where('id', '=', parent.id).execute();
    const login = await server.request('POST', '/api/login', { body: { phone: parent.phone, password: parent.password } });
    expect(login.body.consent_required).toBe(true);
    secrets.tokens.add(login.body.access_token);
    const profile = await server.request('GET', '/api/profile', { token: parent.token });
    expect(profile.body.data.privacy_consent_required).toBe(true);
    const body = { childrens: [await newContestantBody('Lê Thu Hà', true)] };
    const refused = await server.request('POST', '/api/customer/profile', { token: parent.token, body });
    expect([refused.status, refused.body.code]).toEqual([403, 'consent_required']);

    expect((await server.request('POST', '/api/privacy/consent', { token: parent.token, body: { consent: false } })).status).toBe(400);
    const agreed = await server.request('POST', '/api/privacy/consent', { token: parent.token, body: { consent: true } });
    expect(agreed.status).toBe(200);
    expect(agreed.body.version).toBe(PRIVACY_NOTICE_VERSION);
    expect((await server.request('GET', '/api/profile', { token: parent.token })).body.data.privacy_consent_required).toBe(false);
    expect((await server.request('POST', '/api/customer/profile', { token: parent.token, body })).status).toBe(200);
  });

  it("refuses a new contestant without the child's agreement and stores it with the contestant", async () => {
    const parent = track(await createParent(server));
    const refused = await server.request('POST', '/api/customer/profile', { token: parent.token, body: { childrens: [await newContestantBody('Phan Minh Anh')] } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors['childrens.0.child_consent']).toBe('Vui lòng xác nhận con đã đồng ý tham gia.');
    const saved = await server.request('POST', '/api/customer/profile', { token: parent.token, body: { childrens: [await newContestantBody('Phan Minh Anh', true)] } });
    expect(saved.status).toBe(200);
    const row = await server.db.selectFrom('contestants').select(['consent_version', 'consented_at']).where('user_id', '=', parent.id).executeTakeFirstOrThrow();
    expect(row.consent_version).toBe(PRIVACY_NOTICE_VERSION);
    // Saving the contestant again (with its id) needs no new confirmation.
    const again = { childrens: [{ ...(await newContestantBody('Phan Minh Anh')), id: saved.body.data.childrens[0].id }] };
    expect((await server.request('POST', '/api/customer/profile', { token: parent.token, body: again })).status).toBe(200);
  });
});

describe("the parent's copy", () => {
  it('holds every exam and answer of the account and nothing of another account', async () => {
    const mine = track(await createParent(server));
    const first = await createContestant(server, mine, { fullname: 'Đặng Bảo Châu' });
    await createContestant(server, mine, { fullname: 'Đặng Bảo Nam' });
    const exam = await startExam(server, { parent: mine, contestant: first, book: first.books[0]! });
    const answers = answersFor(exam, 5, 3);
    expect((await server.request('POST', '/api/store-answers-exam', { token: mine.token, body: saveBody(exam, { answers, seq: 1 }) })).status).toBeLessThan(300);

    // A practice round, with one answer saved: in the copy too, apart from the exams.
    const practice = await server.request('POST', '/api/practice/start', { token: mine.token, body: { child_id: first.id } });
    expect(practice.status).toBe(200);
    const practicePath = `/api/practice/exams/${practice.body.slug}`;
    const practiceQuestions = (await server.request('GET', practicePath, { token: mine.token })).body.data.data_questions as { id: number; answers: { id: number; value: string }[] }[];
    const practiceChoice = practiceQuestions[0]!.answers[1]!;
    const practiceSave = { answers: [{ question_id: practiceQuestions[0]!.id, answer_id: practiceChoice.id }], seq: 1 };
    expect((await server.request('POST', `${practicePath}/answers`, { token: mine.token, body: practiceSave })).status).toBe(200);

    const other = track(await createParent(server));
    const otherChild = await createContestant(server, other, { fullname: 'Người Khác Hoàn Toàn' });
    await startExam(server, { parent: other, contestant: otherChild, book: otherChild.books[0]! });

    const copy = await server.request('GET', '/api/customer/my-data', { token: mine.token });
    expect(copy.status).toBe(200);
    const data = copy.body.data;
    expect(data.account.phone).toBe(mine.phone);
    expect(data.contestants.map((c: { fullname: string }) => c.fullname)).toEqual(['Đặng Bảo Châu', 'Đặng Bảo Nam']);
    const exams = data.contestants[0].exams;
    expect(exams).toHaveLength(1);
    expect(exams[0].questions).toHaveLength(exam.questions.length);
    const chosen = exams[0].questions.filter((q: { chosen_answer: string | null }) => q.chosen_answer !== null);
    expect(chosen).toHaveLength(5);
    expect(chosen[0].chosen_answer).toBe(exam.questions[0]!.answers.find((a) => a.id === answers[0]!.answer_id)!.value);
    const rounds = data.contestants[0].practice_rounds;
    expect(rounds).toHaveLength(1);
    expect(rounds[0]).toMatchObject({ status: 'Đang làm', submitted_at: null, correct_count: null });
    expect(rounds[0].questions).toHaveLength(practiceQuestions.length);
    expect(rounds[0].questions[0].chosen_answer).toBe(practiceChoice.value);
    expect(data.contestants[1].practice_rounds).toEqual([]);
    expect(data.logins.length).toBeGreaterThan(0);
    const text = JSON.stringify(copy.body);
    expect(text).not.toContain(other.phone);
    expect(text).not.toContain('Người Khác');

    const page = await server.request('GET', '/api/customer/my-data.html', { token: mine.token });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain('Đặng Bảo Châu');
    expect(page.body).toContain('Thi thử lần 1');
    expect(page.body).toContain(`Đã chọn: <strong>${practiceChoice.value}</strong>`);
    expect(page.body).not.toContain('Người Khác');
    expect((await server.request('GET', '/api/customer/my-data')).status).toBe(401);
  });
});

describe('deleting an account', () => {
  const snapshot = async () => ({
    individual: await server.db
      .selectFrom('individual_results')
      .select(['contestant_id', 'points', 'rank', 'school_rank', 'prize_code', 'school_top'])
      .orderBy('contestant_id')
      .execute(),
    schools: await server.db.selectFrom('school_results').select(['school_id', 'participants', 'score', 'rank', 'prize_code']).orderBy('school_id').execute(),
    classes: await server.db.selectFrom('class_results').select(['school_id', 'class_name', 'participants', 'avg_points', 'rank']).orderBy('school_id').orderBy('class_name').execute(),
  });

  it('deletes contestants without exams, anonymises those with exams, ends the sessions and keeps the results', async () => {
    const school = await firstSchool(server.db);
    const contest = await server.db.selectFrom('contests').select(['exam_starts_at']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const at = (s: number) => new Date(contest.exam_starts_at.getTime() + 3_600_000 + s * 1000);
    const pupils = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 12, phonePrefix: '0388' });
    const book = await bookForClassRoom(server.db, '5A1');
    await insertFinishedExams(
      server.db,
      pupils.map((p, i) => ({ contestantId: p.id, bookId: book.id, attempt: 1, points: 40 + i * 5, durationSeconds: 300 + i, submittedAt: at(i), prediction: null })),
    );
    const parent = track(await createParent(server));
    const withExam = await createContestant(server, parent, { fullname: 'Vũ Hải Đăng', schoolId: school.id });
    const withoutExam = await createContestant(server, parent, { fullname: 'Vũ Hải Yến' });
    await insertFinishedExams(server.db, [{ contestantId: withExam.id, bookId: withExam.books[0]!.id, attempt: 1, points: 80, durationSeconds: 310, submittedAt: at(30), prediction: 100 }]);
    await computeResults(server, { force: true });
    const before = await snapshot();
    expect(before.individual.some((r) => r.contestant_id === withExam.id)).toBe(true);

    // Only the account's own phone gets the code; a wrong code is refused.
    const sent = await server.request('POST', '/api/customer/delete-account/send-otp', { token: parent.token });
    expect(sent.status).toBe(200);
    const code = lastCode(parent.phone);
    const wrong = await server.request('POST', '/api/customer/delete-account', { token: parent.token, body: { otp: code === '000000' ? '111111' : '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.otp).toBeTruthy();
    const deleted = await server.request('POST', '/api/customer/delete-account', { token: parent.token, body: { otp: code } });
    expect(deleted.status).toBe(200);

    expect((await server.request('GET', '/api/profile', { token: parent.token })).status).toBe(401);
    expect((await server.request('POST', '/api/login', { body: { phone: parent.phone, password: parent.password } })).status).toBe(401);
    const user = await server.db.selectFrom('users').selectAll().where('id', '=', parent.id).executeTakeFirstOrThrow();
    expect(user.phone).not.toBe(parent.phone);
    expect(user.phone).toMatch(/^00\d{9}$/);
    expect(user.deleted_at).not.toBeNull();
    const kept = await server.db.selectFrom('contestants').select(['id', 'fullname']).where('user_id', '=', parent.id).execute();
    expect(kept).toEqual([{ id: withExam.id, fullname: `Thí sinh đã xoá #${withExam.id}` }]);
    expect(await server.db.selectFrom('otp_codes').select('id').where('phone', '=', parent.phone).execute()).toEqual([]);
    // The contestant without an exam is gone, not only detached from the account.
    expect(await server.db.selectFrom('contestants').select('id').where('id', '=', withoutExam.id).executeTakeFirst()).toBeUndefined();

    // The results, computed again, are the same points, ranks and prizes.
    await computeResults(server, { force: true });
    expect(await snapshot()).toEqual(before);
  });

  it('removes an account without exams entirely, and refuses school administrators', async () => {
    const parent = track(await createParent(server));
    await createContestant(server, parent);
    await server.request('POST', '/api/customer/delete-account/send-otp', { token: parent.token });
    const done = await server.request('POST', '/api/customer/delete-account', { token: parent.token, body: { otp: lastCode(parent.phone) } });
    expect(done.status).toBe(200);
    expect(await server.db.selectFrom('users').select('id').where('id', '=', parent.id).executeTakeFirst()).toBeUndefined();
    expect(await server.db.selectFrom('contestants').select('id').where('user_id', '=', parent.id).execute()).toEqual([]);

    const admin = await createSchoolAdmin(server);
    track({ ...admin });
    const refused = await server.request('POST', '/api/customer/delete-account/send-otp', { token: admin.token });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
  });
});

describe('the log', () => {
  it('holds no full phone number, password, one-time code or token', async () => {
    // The remaining flows: a wrong login, a forgotten password, a reset link in the query string.
    const parent = track(await createParent(server));
    await server.request('POST', '/api/login', { body: { phone: parent.phone, password: 'sai-mat-khau' } });
    secrets.passwords.add('sai-mat-khau');
    server.clock.advance(120_000);
    await server.request('POST', '/api/send-otp', { body: { phone: parent.phone } });
    const reset = await server.request('POST', '/api/forgot-password', { body: { phone: parent.phone, otp: lastCode(parent.phone) } });
    expect(reset.status).toBe(200);
    secrets.tokens.add(reset.body.access_token);
    const link = 'a'.repeat(20) + 'ResetLinkToken123';
    secrets.tokens.add(link);
    await server.request('GET', `/api/customer/change-password?token=${link}`);

    expect(log).toContain('SMS (log driver)');
    expect(log).toContain('incoming request');
    const codes = server.outbox().map((m) => /(\d{6})/.exec(m.message)![1]!);
    for (const phone of secrets.phones) expect(log, phone).not.toContain(phone);
    for (const password of secrets.passwords) expect(log, password).not.toContain(password);
    for (const token of secrets.tokens) expect(log).not.toContain(token);
    // Codes are 6 digits: look for them as whole numbers only.
    for (const code of codes) expect(log).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
    // Masked phones are there, in the form 098****321.
    expect(log).toMatch(/0\d{2}\*{4}\d{3}/);
  });
});
