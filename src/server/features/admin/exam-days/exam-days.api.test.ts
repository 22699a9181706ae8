// The exam days in the back office: permissions; the dashboard's numbers on a small data set, its
// snapshot shared for a few seconds, the autosave rates from the processes' rows; the incident
// desk (search, one extra attempt, extensions within 20 minutes, both in the audit log and in the
// family's profile, both held by the database too); questions frozen while the window is open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examDaysMessages } from '../../../../shared/messages';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createContestant, createOrganiser, createParent, createSchoolAdmin, refusedStatuses, type CreatedUser } from '../../../test/factories';
import { examRow, parentWithContestant, saveBody, startExam, answersFor } from '../../../test/exam-fixtures';
import { createAutosaveReporter } from './autosave-reporter';
import { DASHBOARD_SERVED_FOR_MS, DASHBOARD_WATCHED_FOR_MS, REGISTRATIONS_MAX_AGE_MS, refreshDashboard, vietnamDayStart } from './service';

let server: TestServer;
let organiser: CreatedUser;

const as = (method: string, path: string, body?: unknown, token = organiser.token) => server.request(method, path, { token, body });
const dashboard = (query = '') => as('GET', `/api/admin/exam-days/dashboard${query}`);
/** Past the stored snapshot's lifetime: the next request counts the figures for itself. */
const expireSnapshot = () => server.clock.advance(DASHBOARD_SERVED_FOR_MS + 1000);
const storedSnapshot = () => server.db.selectFrom('dashboard_snapshots').select(['computed_at']).executeTakeFirst();
const lastAudit = () => server.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

/** Ends an exam in progress as a submit would (state set in the database). */
async function finish(examId: number) {
  const now = server.clock.now();
  await server.db
    .updateTable('exams')
    .set({ status: 1, submitted_at: now, points: 50, correct_count: 10, duration_seconds: 300 })
    .where('id', '=', examId)
    .execute();
}

const startFor = (token: string, bookId: number, childId: number) =>
  server.request('POST', '/api/start-exam', { token, body: { book_id: bookId, child_id: childId } });

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
});
afterAll(() => server?.close());

describe('permissions', () => {
  it('answers 401 without a session and 403 to parents and school administrators', async () => {
    const visitors = { parent: await createParent(server), schoolAdmin: await createSchoolAdmin(server) };
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/exam-days/dashboard'],
      ['GET', '/api/admin/exam-days/contestants?phone=0987'],
      ['GET', '/api/admin/exam-days/contestants/1'],
      ['POST', '/api/admin/exam-days/contestants/1/extra-attempt', { reason: 'Mất điện' }],
      ['POST', '/api/admin/exam-days/exams/1/extend', { minutes: 5, reason: 'Mất điện' }],
    ];
    for (const [method, path, body] of calls) expect(await refusedStatuses(server, visitors, method, path, body)).toEqual([401, 403, 403]);
    expect(await server.db.selectFrom('extra_attempts').selectAll().execute()).toEqual([]);
  });
});

describe('dashboard', () => {
  it('counts registrations and today’s exams in total, per district, per school, per class group and per hour', async () => {
    // Nobody watches yet: the job stores nothing. A request counts for itself, and from then on the
    // job keeps a snapshot that requests serve.
    await refreshDashboard(server);
    expect(await storedSnapshot()).toBeUndefined();
    await dashboard();
    await refreshDashboard(server);
    const before = (await dashboard()).body.data;
    expect(before.computed_at).toBe((await storedSnapshot())!.computed_at.toISOString());
    expect(before.started_per_hour).toHaveLength(24);
    expect(before.today).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);

    // A school of its own, so its line starts from nothing.
    const district = await server.db.selectFrom('districts').select(['id', 'name']).orderBy('id').limit(1).executeTakeFirstOrThrow();
    const school = await server.db
      .insertInto('schools')
      .values({ district_id: district.id, name: 'Trường Tiểu học Bảng Theo Dõi' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const running = await parentWithContestant(server, { schoolId: school.id, groupPosition: 1 });
    const done = await parentWithContestant(server, { schoolId: school.id, groupPosition: 1 });
    await parentWithContestant(server, { schoolId: school.id, groupPosition: 2 });
    await startExam(server, running);
    const finished = await startExam(server, done);
    await finish(finished.examId);

    // Within the snapshot's lifetime the stored figures are served, whatever happened since.
    const cached = (await dashboard()).body.data;
    expect(cached.computed_at).toBe(before.computed_at);
    expect(cached.totals).toEqual(before.totals);

    // A few seconds later the exams are counted again; registrations are recounted once a minute.
    expireSnapshot();
    const soon = (await dashboard()).body.data;
    expect(soon.computed_at).not.toBe(before.computed_at);
    expect(soon.totals.in_progress - before.totals.in_progress).toBe(1);
    expect(soon.totals.contestants).toBe(before.totals.contestants);

    server.clock.advance(REGISTRATIONS_MAX_AGE_MS);
    const after = (await dashboard('?school_q=bang theo doi')).body.data;
    const delta = (key: keyof typeof before.totals) => after.totals[key] - before.totals[key];
    expect([delta('parents'), delta('contestants'), delta('in_progress'), delta('started_today'), delta('finished_today')]).toEqual([3, 3, 1, 2, 1]);
    expect([delta('started_total'), delta('finished_total')]).toEqual([2, 1]);

    // The school found by its name without accents, with its own counts.
    expect(after.schools.total).toBe(1);
    expect(after.schools.items[0]).toEqual({
      id: school.id,
      name: 'Trường Tiểu học Bảng Theo Dõi',
      district: district.name,
      contestants: 3,
      in_progress: 1,
      started_today: 2,
      finished_today: 1,
    });
    const line = (rows: { id: number; contestants: number; in_progress: number; started_today: number }[], id: number) => rows.find((r) => r.id === id)!;
    const districtBefore = line(before.districts, district.id);
    const districtAfter = line(after.districts, district.id);
    expect(districtAfter.contestants - districtBefore.contestants).toBe(3);
    expect(districtAfter.in_progress - districtBefore.in_progress).toBe(1);
    const group1 = await server.db.selectFrom('class_groups').select('id').where('position', '=', 1).executeTakeFirstOrThrow();
    expect(line(after.class_groups, group1.id).started_today - line(before.class_groups, group1.id).started_today).toBe(2);

    // Both exams started this hour (Asia/Ho_Chi_Minh).
    const startedAt = await examRow(server, finished.examId);
    const startHour = Math.floor((startedAt.start_time.getTime() - vietnamDayStart(server.clock.now()).getTime()) / 3_600_000);
    expect(after.started_per_hour[startHour] - before.started_per_hour[startHour]).toBe(2);
    expect(after.started_per_hour.reduce((a: number, b: number) => a + b, 0)).toBe(after.totals.started_today);
  });

  it('is stored by the background job only: a request past its lifetime counts for itself and writes nothing', async () => {
    expireSnapshot();
    const stale = await storedSnapshot();
    await server.db
      .insertInto('process_counters')
      .values({
        process_id: 'long-gone',
        started_at: new Date(server.clock.now().getTime() - 3 * 3_600_000),
        updated_at: new Date(server.clock.now().getTime() - 2 * 3_600_000),
        baseline_at: new Date(server.clock.now().getTime() - 2 * 3_600_000),
        counters: JSON.stringify({ acknowledged: 1, within_2s: 1, rejected: 0, shed: 0 }),
        baseline: JSON.stringify({ acknowledged: 0, within_2s: 0, rejected: 0, shed: 0 }),
      })
      .execute();
    const served = (await dashboard()).body.data;
    expect(served.computed_at).toBe(server.clock.now().toISOString());
    expect(await storedSnapshot()).toEqual(stale);
    expect(await server.db.selectFrom('process_counters').select('process_id').where('process_id', '=', 'long-gone').execute()).toHaveLength(1);

    // The job, in the process that wins the lock, stores it and forgets the long-gone process.
    await refreshDashboard(server);
    expect((await storedSnapshot())!.computed_at.toISOString()).toBe(server.clock.now().toISOString());
    expect(await server.db.selectFrom('process_counters').select('process_id').where('process_id', '=', 'long-gone').execute()).toHaveLength(0);
    // Not due again until it is a few seconds old.
    server.clock.advance(1000);
    await refreshDashboard(server);
    expect((await storedSnapshot())!.computed_at.getTime()).toBe(server.clock.now().getTime() - 1000);
    // A minute after the last request for it, nobody watches: the job stops counting.
    server.clock.advance(DASHBOARD_WATCHED_FOR_MS + 1000);
    const unwatched = await storedSnapshot();
    await refreshDashboard(server);
    expect(await storedSnapshot()).toEqual(unwatched);
  });

  it('lists the season’s books whose bank is short of an exam (families are not offered them), until it is filled', async () => {
    const perExam = (await dashboard()).body.data.questions_per_exam;
    expect(perExam).toBeGreaterThan(1);
    expect((await dashboard()).body.data.short_books).toEqual([]);
    const group = await server.db.selectFrom('class_groups').select(['id', 'name']).orderBy('position').executeTakeFirstOrThrow();
    const last = await server.db.selectFrom('books').select((eb) => eb.fn.max('position').as('p')).executeTakeFirstOrThrow();
    const book = await server.db
      .insertInto('books')
      .values({ class_group_id: group.id, name: 'Sách để trống', image: '/images/books/no-cover.svg', position: Number(last.p) + 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const addQuestions = async (count: number) => {
      for (let i = 0; i < count; i += 1) {
        const question = await server.db.insertInto('questions').values({ book_id: book.id, value: `Câu ${i}?` }).returning('id').executeTakeFirstOrThrow();
        await server.db.insertInto('answers').values([{ question_id: question.id, value: 'Đúng', is_correct: true }, { question_id: question.id, value: 'Sai', is_correct: false }]).execute();
      }
    };
    await addQuestions(perExam - 1);
    expect((await dashboard()).body.data.short_books).toEqual([{ id: book.id, name: 'Sách để trống', class_group: group.name, questions: perExam - 1 }]);
    await addQuestions(1);
    expect((await dashboard()).body.data.short_books).toEqual([]);
    await server.db.deleteFrom('books').where('id', '=', book.id).execute();
  });

  it('counts an exam past its deadline and grace as no longer in progress', async () => {
    expireSnapshot();
    const before = (await dashboard()).body.data.totals;
    const exam = await startExam(server);
    await server.db
      .updateTable('exams')
      .set({ start_time: new Date(server.clock.now().getTime() - 3_600_000), end_time: new Date(server.clock.now().getTime() - 60_000) })
      .where('id', '=', exam.examId)
      .execute();
    expireSnapshot();
    expect((await dashboard()).body.data.totals.in_progress).toBe(before.in_progress);
  });

  it('adds up the autosave figures of the processes alive, from their counters now and a minute before', async () => {
    const now = server.clock.now();
    const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
    const row = (id: string, updatedAgo: number, counters: number[], baseline: number[]) => ({
      process_id: id,
      started_at: ago(3600),
      updated_at: ago(updatedAgo),
      baseline_at: ago(updatedAgo + 60),
      counters: JSON.stringify({ acknowledged: counters[0], within_2s: counters[1], rejected: counters[2], shed: counters[3] }),
      baseline: JSON.stringify({ acknowledged: baseline[0], within_2s: baseline[1], rejected: baseline[2], shed: baseline[3] }),
    });
    await server.db.deleteFrom('process_counters').execute();
    await server.db
      .insertInto('process_counters')
      .values([
        // 600 saves a minute, 540 of them within 2 s, 6 rejected, 12 shed.
        row('a', 2, [10_600, 10_040, 106, 12], [10_000, 9_500, 100, 0]),
        // 300 a minute, all within 2 s.
        row('b', 4, [300, 300, 0, 0], [0, 0, 0, 0]),
        // Gone for two minutes: ignored.
        row('c', 120, [99_999, 0, 0, 0], [0, 0, 0, 0]),
      ])
      .execute();
    expireSnapshot();
    const autosave = (await dashboard()).body.data.autosave;
    expect(autosave).toMatchObject({ processes: 2, window_seconds: 60, saves_per_minute: 900, rejected_per_minute: 6, shed_per_minute: 12 });
    expect(autosave.acknowledged_within_2s).toBeCloseTo(840 / 900, 5);
  });
});

describe('autosave reporter', () => {
  it('writes this process’s counters every few seconds with the counters of about a minute before as the baseline', async () => {
    const totals = { acknowledged: 0, within_2s: 0, rejected: 0, shed: 0 };
    const report = createAutosaveReporter(() => ({ ...totals }), server.clock);
    const startedAt = server.clock.now();
    for (let tick = 1; tick <= 15; tick += 1) {
      server.clock.advance(5_000);
      totals.acknowledged += 100;
      totals.within_2s += 90;
      await report(server.db);
    }
    const rows = await server.db.selectFrom('process_counters').selectAll().where('started_at', '=', startedAt).execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.updated_at.getTime() - startedAt.getTime()).toBe(75_000);
    // The newest sample at least a minute old: the one of 15 s after the start.
    expect(row.updated_at.getTime() - row.baseline_at.getTime()).toBe(60_000);
    expect(row.counters).toEqual({ acknowledged: 1500, within_2s: 1350, rejected: 0, shed: 0 });
    expect(row.baseline).toEqual({ acknowledged: 300, within_2s: 270, rejected: 0, shed: 0 });
  });
});

describe('incidents', () => {
  it('finds a contestant by part of the parent’s phone, by name without accents, and by school', async () => {
    const { parent, contestant } = await parentWithContestant(server, { fullname: 'Trần Thị Ánh Dương' });
    const byPhone = await as('GET', `/api/admin/exam-days/contestants?phone=${parent.phone.slice(-6)}`);
    expect(byPhone.status).toBe(200);
    expect(byPhone.body.data.items.map((c: { id: number }) => c.id)).toContain(contestant.id);
    const byName = await as('GET', `/api/admin/exam-days/contestants?name=${encodeURIComponent('anh duong')}&school_id=${contestant.school_id}`);
    expect(byName.body.data.items).toHaveLength(1);
    expect(byName.body.data.items[0]).toMatchObject({
      id: contestant.id,
      fullname: 'Trần Thị Ánh Dương',
      parent_phone: parent.phone,
      attempts_allowed: 3,
      attempts_left: 3,
      extra_attempt: null,
      attempts: [],
    });
    const short = await as('GET', '/api/admin/exam-days/contestants?phone=09');
    expect(short.status).toBe(422);
    expect(short.body.errors.phone).toBe(examDaysMessages.searchTooShort);
    expect((await as('GET', '/api/admin/exam-days/contestants/999999')).status).toBe(404);
  });

  it('gives one extra attempt with a reason: a fourth exam starts, and a second grant is refused', async () => {
    const setup = await parentWithContestant(server);
    const { parent, contestant, book } = setup;
    const path = `/api/admin/exam-days/contestants/${contestant.id}/extra-attempt`;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const started = await startFor(parent.token, book.id, contestant.id);
      expect(started.status).toBe(200);
      await finish(started.body.exam_id);
    }
    expect((await startFor(parent.token, book.id, contestant.id)).body.code).toBe('no_attempts_left');

    const missing = await as('POST', path, { reason: '   ' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ reason: examDaysMessages.reasonRequired });
    expect((await as('POST', path, {})).status).toBe(400);

    const given = await as('POST', path, { reason: 'Điện thoại hết pin giữa lượt 3' });
    expect(given.status).toBe(200);
    expect(given.body.data).toMatchObject({
      attempts_allowed: 4,
      attempts_left: 1,
      extra_attempt: { reason: 'Điện thoại hết pin giữa lượt 3', granted_by: organiser.phone },
    });
    expect(await lastAudit()).toMatchObject({ kind: 'exam.extra_attempt', actor_phone: organiser.phone });

    const again = await as('POST', path, { reason: 'Lần nữa' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'extra_attempt_given', message: examDaysMessages.extraAttemptGiven });

    const fourth = await startFor(parent.token, book.id, contestant.id);
    expect(fourth.status).toBe(200);
    const row = await examRow(server, fourth.body.exam_id);
    expect(row).toMatchObject({ attempt: 4, extra_attempt_of: contestant.id });
    await finish(fourth.body.exam_id);
    expect((await startFor(parent.token, book.id, contestant.id)).body.code).toBe('no_attempts_left');

    // The family's profile counts it and marks the attempt.
    const profile = (await server.request('GET', '/api/profile', { token: parent.token })).body.data;
    const child = profile.childrens.find((c: { id: number }) => c.id === contestant.id);
    expect(child.extra_attempts).toBe(1);
    expect(child.exams.map((e: { attempt: number; extra: boolean }) => [e.attempt, e.extra])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
    const listed = (await as('GET', `/api/admin/exam-days/contestants/${contestant.id}`)).body.data;
    expect(listed.attempts.map((a: { extra: boolean }) => a.extra)).toEqual([false, false, false, true]);
    expect(listed.attempts_left).toBe(0);
  });

  it('withdraws an extra attempt given to the wrong child while unused, with a reason (audited); refuses once it is used', async () => {
    const wrong = await parentWithContestant(server);
    const path = `/api/admin/exam-days/contestants/${wrong.contestant.id}/extra-attempt`;
    expect((await as('POST', path, { reason: 'Mạng mất giữa lượt 2' })).status).toBe(200);
    const withdraw = (body: unknown, token = organiser.token) => as('POST', `${path}/withdraw`, body, token);

    expect((await withdraw({ reason: 'Nhầm thí sinh' }, wrong.parent.token)).status).toBe(403);
    const noReason = await withdraw({ reason: ' ' });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors).toEqual({ reason: examDaysMessages.reasonRequired });

    // An attempt of the contest's own does not use it.
    const started = await startFor(wrong.parent.token, wrong.book.id, wrong.contestant.id);
    await finish(started.body.exam_id);
    const withdrawn = await withdraw({ reason: 'Thêm nhầm thí sinh, đúng ra là em cùng lớp' });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.data).toMatchObject({ attempts_allowed: 3, attempts_left: 2, extra_attempt: null });
    const entry = await lastAudit();
    expect(entry).toMatchObject({ kind: 'exam.extra_attempt_withdraw', actor_phone: organiser.phone });
    expect(entry.summary).toContain('Thêm nhầm thí sinh');
    expect(entry.details).toMatchObject({ contestant_id: wrong.contestant.id, granted_reason: 'Mạng mất giữa lượt 2' });
    const none = await withdraw({ reason: 'Lần nữa' });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(examDaysMessages.extraAttemptNone);
    // Given again (now rightly), it can be granted once more; once started it stays.
    expect((await as('POST', path, { reason: 'Mất điện ở trường' })).body.data.extra_attempt).toMatchObject({ used: false });
    for (let attempt = 2; attempt <= 4; attempt += 1) {
      const next = await startFor(wrong.parent.token, wrong.book.id, wrong.contestant.id);
      expect(next.status).toBe(200);
      if (attempt < 4) await finish(next.body.exam_id);
    }
    expect((await as('GET', `/api/admin/exam-days/contestants/${wrong.contestant.id}`)).body.data.extra_attempt).toMatchObject({ used: true });
    const used = await withdraw({ reason: 'Nhầm' });
    expect(used.status).toBe(409);
    expect(used.body).toMatchObject({ code: 'extra_attempt_used', message: examDaysMessages.extraAttemptUsed });
    expect((await lastAudit()).kind).toBe('exam.extra_attempt');
  });

  it('refuses in the database a fourth attempt without a grant, and a fifth', async () => {
    const { contestant } = await parentWithContestant(server);
    const other = await server.db.selectFrom('exams').selectAll().limit(1).executeTakeFirstOrThrow();
    const insert = (attempt: number, extra: number | null) =>
      server.db
        .insertInto('exams')
        .values({
          slug: `slug-${attempt}-${contestant.id}-abcdefghijklmnop`,
          contest_id: other.contest_id,
          contestant_id: contestant.id,
          book_id: other.book_id,
          attempt,
          status: 1,
          start_time: server.clock.now(),
          end_time: new Date(server.clock.now().getTime() + 1_200_000),
          submitted_at: server.clock.now(),
          points: 0,
          duration_seconds: 0,
          questions: JSON.stringify(other.questions),
          answer_key: JSON.stringify(other.answer_key),
          extra_attempt_of: extra,
        } as never)
        .execute();
    await expect(insert(4, null)).rejects.toMatchObject({ code: '23514' });
    await expect(insert(4, contestant.id)).rejects.toMatchObject({ code: '23503' });
    await server.db.insertInto('extra_attempts').values({ contestant_id: contestant.id, contest_id: other.contest_id, reason: 'Sự cố mạng' }).execute();
    await expect(insert(4, contestant.id)).resolves.toBeDefined();
    await expect(insert(5, contestant.id)).rejects.toMatchObject({ code: '23514' });
    await expect(server.db.deleteFrom('extra_attempts').where('contestant_id', '=', contestant.id).execute()).rejects.toMatchObject({ code: '23503' });
  });

  it('extends an attempt in progress up to 20 minutes in total; the exam sees the new deadline and saves go on past the old one', async () => {
    const exam = await startExam(server);
    const path = `/api/admin/exam-days/exams/${exam.examId}/extend`;
    const original = await examRow(server, exam.examId);

    expect((await as('POST', path, { minutes: 5, reason: '' })).body.errors).toMatchObject({ reason: examDaysMessages.reasonRequired });
    const tooMany = await as('POST', path, { minutes: 21, reason: 'Mạng của trường bị ngắt' });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toEqual({ minutes: examDaysMessages.minutesTooMany(20) });
    expect((await as('POST', path, { minutes: 0, reason: 'Mạng của trường bị ngắt' })).body.errors).toEqual({ minutes: examDaysMessages.minutesTooFew });

    const extended = await as('POST', path, { minutes: 15, reason: 'Mạng của trường bị ngắt' });
    expect(extended.status).toBe(200);
    const attempt = extended.body.data.attempts.find((a: { id: number }) => a.id === exam.examId);
    expect(attempt).toMatchObject({ extension_minutes: 15, extendable: true });
    expect(Date.parse(attempt.end_time)).toBe(original.end_time.getTime() + 15 * 60_000);
    expect(await lastAudit()).toMatchObject({ kind: 'exam.extend', actor_phone: organiser.phone });

    const past = await as('POST', path, { minutes: 6, reason: 'Thêm nữa' });
    expect(past.status).toBe(422);
    expect(past.body.errors).toEqual({ minutes: examDaysMessages.minutesTooMany(5) });
    expect((await as('POST', path, { minutes: 5, reason: 'Thêm nữa' })).status).toBe(200);
    expect((await as('POST', path, { minutes: 1, reason: 'Thêm nữa' })).body.errors).toEqual({ minutes: examDaysMessages.minutesTooMany(0) });

    // The exam screen's time re-sync reads the new deadline.
    const time = await server.request('GET', `/api/examing/get-time?exam_id=${exam.examId}`, { token: exam.token });
    expect(Date.parse(time.body.data.end_time)).toBe(original.end_time.getTime() + 20 * 60_000);
    // Past the old deadline and its grace, a save still applies.
    server.clock.set(new Date(original.end_time.getTime() + 5 * 60_000));
    const saved = await server.request('POST', '/api/store-answers-exam', { token: exam.token, body: saveBody(exam, { answers: answersFor(exam, 2, 1), seq: 1 }) });
    expect(saved.status).toBe(200);
    expect(saved.body.saved).toBe(true);

    // The database holds the limit whatever the code does.
    await expect(server.db.updateTable('exams').set({ extension_minutes: 21 }).where('id', '=', exam.examId).execute()).rejects.toMatchObject({ code: '23514' });
  });

  it('refuses to extend a finished attempt, and answers 404 for an unknown one', async () => {
    const exam = await startExam(server);
    await finish(exam.examId);
    const refused = await as('POST', `/api/admin/exam-days/exams/${exam.examId}/extend`, { minutes: 5, reason: 'Mất điện' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'exam_finished', message: examDaysMessages.examFinished });
    expect((await as('POST', '/api/admin/exam-days/exams/99999999/extend', { minutes: 5, reason: 'Mất điện' })).status).toBe(404);
  });
});

describe('questions frozen while the window is open', () => {
  const editOf = (question: { value: string; answers: { value: string; is_correct: boolean }[] }) => ({
    value: `${question.value} (sửa)`,
    audio: null,
    answers: question.answers.map((a) => ({ value: a.value })),
    correct: question.answers.findIndex((a) => a.is_correct),
  });

  it('refuses to edit or delete a question of a book with exams (409), still adds new ones, and says so on the book', async () => {
    const exam = await startExam(server);
    const book = await as('GET', `/api/admin/books/${exam.bookId}`);
    expect(book.body.data.questions_frozen).toBe(true);
    const bank = (await as('GET', `/api/admin/books/${exam.bookId}/questions?per_page=200`)).body.data.items;
    const drawnIds = new Set(exam.questions.map((q) => q.id));
    const notDrawn = bank.find((q: { id: number }) => !drawnIds.has(q.id)) ?? bank[0];

    const edit = await as('PUT', `/api/admin/questions/${bank[0].id}`, editOf(bank[0]));
    expect(edit.status).toBe(409);
    expect(edit.body).toMatchObject({ code: 'questions_frozen', message: examDaysMessages.questionsFrozen });
    const removal = await as('DELETE', `/api/admin/questions/${notDrawn.id}`);
    expect(removal.status).toBe(409);
    expect(['questions_frozen', 'in_use']).toContain(removal.body.code);

    const added = await as('POST', `/api/admin/books/${exam.bookId}/questions`, {
      value: 'Câu hỏi mới thêm trong ngày thi?',
      audio: null,
      answers: [{ value: 'Có' }, { value: 'Không' }],
      correct: 0,
    });
    expect(added.status).toBe(200);

    // A book nobody's exam uses is not frozen.
    const fresh = await as('POST', '/api/admin/books', { name: 'Sách chưa ai thi', author: '', class_group_id: (await createContestant(server, await createParent(server))).class_group_id });
    expect(fresh.body.data.questions_frozen).toBe(false);

    // After the window, editing is allowed again.
    const contest = await server.db.selectFrom('contests').select(['id', 'exam_starts_at', 'exam_ends_at']).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    const closed = new Date(server.clock.now().getTime() - 1000);
    await server.db.updateTable('contests').set({ exam_starts_at: new Date(closed.getTime() - 86_400_000), exam_ends_at: closed }).where('id', '=', contest.id).execute();
    try {
      expect((await as('PUT', `/api/admin/questions/${bank[0].id}`, editOf(bank[0]))).status).toBe(200);
      expect((await as('GET', `/api/admin/books/${exam.bookId}`)).body.data.questions_frozen).toBe(false);
    } finally {
      await server.db.updateTable('contests').set({ exam_starts_at: contest.exam_starts_at, exam_ends_at: contest.exam_ends_at }).where('id', '=', contest.id).execute();
    }
  });
});
