// The second season (issue 26): the organiser's preview and switch with its copy choices, the
// previous season read-only, a returning family's children a grade up with attempts reset, a
// certificate of the previous season still verified, and the family's report by season.
import { PRIVACY_NOTICE_VERSION } from '../../../../shared/privacy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createContestant, createOrganiser, createParent, createSchoolAdmin } from '../../../test/factories';
import { insertFinishedExams, sessionAt } from '../../../demo/finished-exams';

let server: TestServer;
let organiser: { id: number; token: string };
let parent: { id: number; token: string };
let schoolAdmin: { id: number; token: string; schoolId: number };
let oldSeason: { id: number; name: string; exam_starts_at: Date; exam_ends_at: Date; questions_per_exam: number };
/** Grade 2 (class 2A1 of Nhóm 1) this season: grade 3, Nhóm 2, next season. */
let younger: { id: number; books: { id: number; name: string }[] };
let certificateCode = '';

const DAY = 86_400_000;
const at = (base: Date, days: number) => new Date(base.getTime() + days * DAY).toISOString();

function newSeason(overrides: Record<string, unknown> = {}) {
  const start = new Date(oldSeason.exam_ends_at.getTime() + 300 * DAY);
  return {
    name: 'Cuộc thi Đại sứ Văn hoá đọc mùa sau',
    reading_starts_at: at(start, -30),
    reading_ends_at: at(start, -1),
    exam_starts_at: at(start, 0),
    exam_ends_at: at(start, 12),
    results_at: at(start, 20),
    ceremony_starts_at: at(start, 25),
    ceremony_ends_at: at(start, 26),
    copy: { prize_settings: false, class_teachers: true, school_admins: false, footer: true },
    books: [
      { name: 'Sách mới nhóm 1', author: 'Tác giả A', class_group_id: 0, copy_questions_from: null },
      { name: 'Sách mới nhóm 2', author: 'Tác giả B', class_group_id: 0, copy_questions_from: younger.books[0]!.id },
    ],
    ...overrides,
  };
}

let groupIds: number[] = [];
const body = (overrides: Record<string, unknown> = {}) => {
  const value = newSeason(overrides) as ReturnType<typeof newSeason>;
  value.books = value.books.map((book, i) => ({ ...book, class_group_id: book.class_group_id || groupIds[i]! }));
  return value;
};

beforeAll(async () => {
  server = await startTestServer();
  oldSeason = await server.db.selectFrom('contests').select(['id', 'name', 'exam_starts_at', 'exam_ends_at', 'questions_per_exam']).where('is_current', '=', true).executeTakeFirstOrThrow();
  groupIds = (await server.db.selectFrom('class_groups').select('id').orderBy('position').execute()).map((g) => g.id);
  organiser = await createOrganiser(server);
  parent = await createParent(server);
  schoolAdmin = await createSchoolAdmin(server);
  const room2 = await server.db.selectFrom('class_rooms').select('id').where('name', '=', '2A1').executeTakeFirstOrThrow();
  younger = await createContestant(server, parent, { fullname: 'Lê Minh An', groupPosition: 1 });
  // The parent agreed to the name on the winners' list (issue 37.2): the choice goes with the child.
  await server.db.updateTable('contestants').set({ class_room_id: room2.id, name_consent_version: PRIVACY_NOTICE_VERSION, name_consented_at: new Date() }).where('id', '=', younger.id).execute();
  // Grade 5: finished after this season.
  await createContestant(server, parent, { fullname: 'Lê Minh Châu', groupPosition: 3 });
  // Last season: a finished exam and its participation certificate.
  await insertFinishedExams(server.db, [
    { contestantId: younger.id, bookId: younger.books[0]!.id, attempt: 1, points: 80, durationSeconds: 600, submittedAt: new Date(oldSeason.exam_starts_at.getTime() + 3_600_000), prediction: 5 },
  ]);
  const certificates = await server.request('GET', `/api/chilren-certificate?child_id=${younger.id}`, { token: parent.token });
  certificateCode = certificates.body.data.certificates[0].code;
});

afterAll(async () => {
  await server?.close();
});

describe('Mùa thi mới: preview and checks', () => {
  it('lists one current season, for the organiser only', async () => {
    const list = await server.request('GET', '/api/admin/seasons', { token: organiser.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ id: oldSeason.id, name: oldSeason.name, is_current: true })]);
    expect((await server.request('GET', '/api/admin/seasons', { token: parent.token })).status).toBe(403);
    expect((await server.request('POST', '/api/admin/seasons', { token: schoolAdmin.token, body: body() })).status).toBe(403);
  });

  it('previews the children a grade up, the finished ones, the books and the copy choices, changing nothing', async () => {
    const { status, body: preview } = await server.request('POST', '/api/admin/seasons/preview', { token: organiser.token, body: body() });
    expect(status).toBe(200);
    expect(preview.data).toMatchObject({
      current: { id: oldSeason.id, name: oldSeason.name },
      name: 'Cuộc thi Đại sứ Văn hoá đọc mùa sau',
      carried: expect.arrayContaining([{ class_group_name: 'Nhóm 2', contestants: expect.any(Number) }]),
      prize_settings_copied: false,
      class_teachers_kept: true,
      school_admins_kept: false,
      footer_kept: true,
    });
    expect(preview.data.finished).toBeGreaterThanOrEqual(1);
    expect(preview.data.books[0]).toEqual({ name: 'Sách mới nhóm 1', class_group_name: 'Nhóm 1', questions: 0, copied_from: null });
    // What an exam draws, so that the screen says which books will be short (issue 42): the season's own.
    expect(preview.data.questions_per_exam).toBe(oldSeason.questions_per_exam);
    expect(preview.data.books[1]).toMatchObject({ name: 'Sách mới nhóm 2', class_group_name: 'Nhóm 2', copied_from: younger.books[0]!.name });
    expect(preview.data.books[1].questions).toBeGreaterThan(20);
    const seasons = await server.db.selectFrom('contests').select('id').execute();
    expect(seasons).toHaveLength(1);
  });

  it('refuses dates inside the current season, a name already used and a bank of an unknown book (422, nothing changed)', async () => {
    const early = await server.request('POST', '/api/admin/seasons', { token: organiser.token, body: body({ exam_starts_at: oldSeason.exam_starts_at.toISOString() }) });
    expect(early.status).toBe(422);
    expect(early.body.errors.exam_starts_at).toBe(`Phải sau ngày đóng thi của ${oldSeason.name}.`);
    const sameName = await server.request('POST', '/api/admin/seasons', { token: organiser.token, body: body({ name: oldSeason.name }) });
    expect(sameName.status).toBe(422);
    expect(sameName.body.message).toBe('Tên mùa thi này đã có. Vui lòng đặt tên khác.');
    const badBook = body();
    badBook.books[1]!.copy_questions_from = 999_999;
    const unknown = await server.request('POST', '/api/admin/seasons', { token: organiser.token, body: badBook });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors['books.1.copy_questions_from']).toBe('Sách để chép ngân hàng câu hỏi không thuộc mùa thi hiện tại.');
    expect(await server.db.selectFrom('contests').select('id').execute()).toHaveLength(1);
  });
});

describe('Mùa thi mới: the switch', () => {
  let newSeasonId = 0;

  it('opens the new season as the current one, with the chosen copies, and records it in the audit log', async () => {
    const { code } = await server.db.selectFrom('prize_tiers').select('code').where('contest_id', '=', oldSeason.id).orderBy('id').executeTakeFirstOrThrow();
    await server.db.updateTable('prize_tiers').set({ amount: 123_000 }).where('contest_id', '=', oldSeason.id).where('code', '=', code).execute();
    const { status, body: answer } = await server.request('POST', '/api/admin/seasons', { token: organiser.token, body: body() });
    expect(status).toBe(200);
    expect(answer.message).toBe('Đã mở Cuộc thi Đại sứ Văn hoá đọc mùa sau.');
    newSeasonId = answer.data.id;
    const list = await server.request('GET', '/api/admin/seasons', { token: organiser.token });
    expect(list.body.data.map((s: { id: number; is_current: boolean }) => [s.id, s.is_current])).toEqual([
      [newSeasonId, true],
      [oldSeason.id, false],
    ]);
    // Prize settings not copied: the spec's tiers; the previous season keeps its own.
    const tiers = await server.db.selectFrom('prize_tiers').select(['code', 'amount']).where('contest_id', '=', newSeasonId).execute();
    expect(tiers.find((t) => t.code === code)!.amount).not.toBe(123_000);
    const oldTier = await server.db.selectFrom('prize_tiers').select('amount').where('contest_id', '=', oldSeason.id).where('code', '=', code).executeTakeFirstOrThrow();
    expect(oldTier.amount).toBe(123_000);
    // School administrators not kept: locked out.
    expect((await server.request('GET', '/api/report-school', { token: schoolAdmin.token })).status).toBe(401);
    // The books of the new season, one bank copied.
    const books = await server.request('GET', '/api/admin/books', { token: organiser.token });
    expect(books.body.data.items.map((b: { name: string; question_count: number }) => [b.name, b.question_count > 0])).toEqual([
      ['Sách mới nhóm 1', false],
      ['Sách mới nhóm 2', true],
    ]);
    const audit = await server.request('GET', '/api/admin/audit?kind=season', { token: organiser.token });
    expect(audit.body.data.items[0]).toMatchObject({ kind: 'season.open' });
    expect(audit.body.data.items[0].summary).toContain('Mở Cuộc thi Đại sứ Văn hoá đọc mùa sau');
  });

  it('keeps the previous season read-only: its question banks refuse a write with a clear message', async () => {
    const question = await server.db.selectFrom('questions').select('id').where('book_id', '=', younger.books[1]!.id).executeTakeFirstOrThrow();
    const deleted = await server.request('DELETE', `/api/admin/questions/${question.id}`, { token: organiser.token });
    expect(deleted.status).toBe(409);
    expect(deleted.body).toMatchObject({ success: false, code: 'season_read_only', message: `${oldSeason.name} đã kết thúc: dữ liệu của mùa thi trước chỉ được xem, không sửa được.` });
    const renamed = await server.request('PUT', `/api/admin/books/${younger.books[1]!.id}`, {
      token: organiser.token,
      body: { name: 'Đổi tên', author: '', class_group_id: groupIds[0] },
    });
    expect(renamed.status).toBe(409);
    expect(renamed.body.code).toBe('season_read_only');
    // Its questions cannot be regraded either: the season's results are history.
    const regrade = await server.request('POST', '/api/admin/regrades/preview', { token: organiser.token, body: { question_id: question.id, mode: 'everyone' } });
    expect(regrade.status).toBe(409);
    expect(regrade.body.code).toBe('season_read_only');
  });

  it('brings a returning child a grade up with the class asked again, shows a grade-5 child as finished, and resets attempts', async () => {
    const profile = await server.request('GET', '/api/profile', { token: parent.token });
    expect(profile.status).toBe(200);
    expect(profile.body.data.childrens).toHaveLength(1);
    const child = profile.body.data.childrens[0];
    expect(child).toMatchObject({ fullname: 'Lê Minh An', class_group_id: groupIds[1], class_pending: true, exams: [], publish_name: true });
    expect(child.id).not.toBe(younger.id);
    expect(profile.body.data.finished_childrens).toEqual([{ fullname: 'Lê Minh Châu', season: oldSeason.name }]);

    // Exams: last season's row is history; this season's waits for its class.
    const newBooks = await server.request('GET', `/api/children/${child.id}/books`, { token: parent.token });
    const bookId = newBooks.body.data?.[0]?.id ?? newBooks.body[0]?.id;
    const examDay = new Date(Date.parse(body().exam_starts_at) + 3_600_000);
    server.clock.set(examDay);
    parent.token = await sessionAt(server.db, parent.id, examDay);
    const old = await server.request('POST', '/api/start-exam', { token: parent.token, body: { book_id: younger.books[0]!.id, child_id: younger.id } });
    expect(old.status).toBe(409);
    expect(old.body.code).toBe('contestant_of_past_season');
    const pending = await server.request('POST', '/api/start-exam', { token: parent.token, body: { book_id: bookId, child_id: child.id } });
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ code: 'class_pending', message: 'Bé đã lên lớp mới: vui lòng cập nhật nhóm lớp và lớp của bé cho mùa thi mới trước khi vào thi.' });

    // The parent answers the class: no longer pending, and the first attempt of the new season.
    const room = await server.db.selectFrom('class_rooms').select('id').where('name', '=', '3A2').executeTakeFirstOrThrow();
    const saved = await server.request('POST', '/api/customer/profile', {
      token: parent.token,
      body: { childrens: [{ id: child.id, fullname: child.fullname, district_id: child.district_id, school_id: child.school_id, class_group_id: groupIds[1], class_room_id: room.id }] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.childrens[0]).toMatchObject({ class: '3A2', class_pending: false });
    const started = await server.request('POST', '/api/start-exam', { token: parent.token, body: { book_id: bookId, child_id: child.id } });
    expect(started.status).toBe(200);
    const exam = await server.db.selectFrom('exams').select(['attempt', 'contest_id']).where('slug', '=', started.body.slug).executeTakeFirstOrThrow();
    expect(exam).toEqual({ attempt: 1, contest_id: newSeasonId });
  });

  it('still verifies a certificate of the previous season, saying which season', async () => {
    const { status, body: verified } = await server.request('GET', `/api/certificates/verify/${certificateCode}`);
    expect(status).toBe(200);
    expect(verified.data).toMatchObject({ code: certificateCode, name: 'Lê Minh An', contest: oldSeason.name, season: { name: oldSeason.name, current: false } });
  });

  it('gives a school report of the previous season on request, of the current one by default', async () => {
    const school = await server.db.selectFrom('contestants').select('school_id').where('id', '=', younger.id).executeTakeFirstOrThrow();
    const admin = await createSchoolAdmin(server, school.school_id);
    admin.token = await sessionAt(server.db, admin.id, server.clock.now());
    const current = await server.request('GET', '/api/report-school', { token: admin.token });
    expect(current.status).toBe(200);
    expect(current.body.data.contest.name).toBe('Cuộc thi Đại sứ Văn hoá đọc mùa sau');
    expect(current.body.seasons.find((s: { selected: boolean }) => s.selected).id).toBe(newSeasonId);
    const previous = await server.request('GET', `/api/report-school?season=${oldSeason.id}`, { token: admin.token });
    expect(previous.status).toBe(200);
    expect(previous.body.data.contest.name).toBe(oldSeason.name);
    expect(previous.body.data.score.map((row: { fullname: string }) => row.fullname)).toContain('Lê Minh An');
    expect(previous.body.data.total_register).toBeGreaterThanOrEqual(2);
    expect((await server.request('GET', '/api/report-school?season=999999', { token: admin.token })).status).toBe(404);
  });

  it('gives the returning family last season’s exams and certificate in its report by season, this season by default', async () => {
    const seasons = await server.request('GET', '/api/report-parent/seasons', { token: parent.token });
    expect(seasons.body.data.map((s: { id: number; selected: boolean }) => [s.id, s.selected])).toEqual([
      [newSeasonId, true],
      [oldSeason.id, false],
    ]);
    const last = await server.request('GET', `/api/report-parent?season=${oldSeason.id}`, { token: parent.token });
    expect(last.status).toBe(200);
    expect(last.body.data.season).toMatchObject({ id: oldSeason.id, is_current: false });
    const [an, chau] = last.body.data.childrens;
    expect([an.id, an.fullname, an.class, an.exams.length, chau.fullname]).toEqual([younger.id, 'Lê Minh An', '2A1', 1, 'Lê Minh Châu']);
    // The very certificate issued last season, still in force.
    expect(an.certificates.map((c: { code: string }) => c.code)).toContain(certificateCode);
    const now = await server.request('GET', '/api/report-parent', { token: parent.token });
    expect(now.body.data.season.id).toBe(newSeasonId);
    expect(now.body.data.childrens.map((c: { fullname: string; class: string }) => [c.fullname, c.class])).toEqual([['Lê Minh An', '3A2']]);
  });
});
