// The question quality report of a book over finished exams written into the database: a planted
// wrong key found and listed first with the answer the best pupils chose, an exam in progress and
// a practice round left out, the .xlsx export, and who may read it.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookQuality } from '../../../../shared/schemas/admin-quality';
import { bookForClassRoom, insertFinishedExams, insertPupils } from '../../../demo/finished-exams';
import { readFirstSheet, type XlsxValue } from '../../../lib/xlsx-reader';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createOrganiser, createParent, firstSchool, type CreatedUser } from '../../../test/factories';

// 42 finished exams of one book: insertFinishedExams answers the book's first 20 questions (by id),
// the first `correct` right and the others with the first answer that is not the key (W); here
// correct = 0..20, twice each. On the 10th question (P) the key is planted wrong: pupils with 12
// or more right answered W (so W is really right), pupils with 4..9 right answered the key.
let server: TestServer;
let organiser: CreatedUser;
let bookId: number;
let plantedId: number;
let keyId: number;
let wrongId: number;

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  const school = await firstSchool(server.db);
  const pupils = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 42 });
  const book = await bookForClassRoom(server.db, '5A1');
  bookId = book.id;
  const now = server.clock.now().getTime();
  await insertFinishedExams(
    server.db,
    pupils.map((pupil, i) => ({
      contestantId: pupil.id,
      bookId,
      attempt: 1,
      points: 5 * (i % 21),
      durationSeconds: 600,
      submittedAt: new Date(now - 3600_000 + i * 1000),
      prediction: null,
    })),
  );
  const questions = await server.db.selectFrom('questions').select('id').where('book_id', '=', bookId).where('is_practice', '=', false).orderBy('id').limit(20).execute();
  plantedId = questions[9]!.id;
  const answers = await server.db.selectFrom('answers').select(['id', 'is_correct']).where('question_id', '=', plantedId).orderBy('id').execute();
  keyId = answers.find((a) => a.is_correct)!.id;
  wrongId = answers.find((a) => !a.is_correct)!.id;
  const q = String(plantedId);
  const change = sql`CASE WHEN correct_count >= 12 THEN -1 WHEN correct_count BETWEEN 4 AND 9 THEN 1 ELSE 0 END`;
  await sql`
    UPDATE exams SET
      answers = jsonb_set(answers, ARRAY[${q}::text], to_jsonb(CASE WHEN correct_count >= 12 THEN ${wrongId}::integer
                                                                   WHEN correct_count BETWEEN 4 AND 9 THEN ${keyId}::integer
                                                                   ELSE (answers ->> ${q})::integer END)),
      correct_count = correct_count + ${change},
      points = 5 * (correct_count + ${change})
    WHERE book_id = ${bookId}`.execute(server.db);

  // An exam in progress whose answers would contradict the plant: it must not count.
  const [late] = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 1 });
  const [inProgress] = await insertFinishedExams(server.db, [
    { contestantId: late!.id, bookId, attempt: 1, points: 100, durationSeconds: 600, submittedAt: new Date(now), prediction: null },
  ]);
  await server.db.updateTable('exams').set({ status: 2 }).where('id', '=', inProgress!.id).execute();
});
afterAll(() => server?.close());

const quality = (token = organiser.token, id = bookId) => server.request('GET', `/api/admin/books/${id}/quality`, { token });

describe('question quality of a book', () => {
  it('lists the planted wrong key first, with the answer the upper group chose', async () => {
    const response = await quality();
    expect(response.status).toBe(200);
    const data = response.body.data as BookQuality;
    expect(data.exams).toBe(42);
    expect(data.min_exams).toBe(30);
    const first = data.questions[0]!;
    expect(first.question.id).toBe(plantedId);
    expect(first.number).toBe(10);
    expect(first.exams).toBe(42);
    expect(first.flags[0]!.kind).toBe('wrong_key');
    expect(first.flags[0]!.reason).toMatch(/^Có thể sai đáp án: nhóm 27% điểm cao chọn [A-D] \(100%\) nhiều hơn đáp án đúng [A-D] \(0%\)\.$/);
    expect(first.suspected_answer_id).toBe(wrongId);
    expect(first.discrimination!).toBeLessThan(0);
    const keyIndex = first.question.answers.findIndex((a) => a.id === keyId);
    expect(first.answers![keyIndex]!.upper).toBe(0);
    expect(first.answers![keyIndex]!.lower).toBeGreaterThan(0.25);
    // Facility: 16 of the 42 answered the key (4..11 right, twice each).
    expect(first.facility).toBeCloseTo(16 / 42, 10);
  });

  it('leaves the other drawn questions without a wrong-key flag, and flags the first as too easy', async () => {
    const data = (await quality()).body.data as BookQuality;
    const others = data.questions.filter((row) => row.exams > 0 && row.question.id !== plantedId);
    expect(others).toHaveLength(19);
    expect(others.every((row) => row.flags.every((flag) => flag.kind !== 'wrong_key' && flag.kind !== 'ambiguous'))).toBe(true);
    expect(others.every((row) => row.discrimination! > 0)).toBe(true);
    const firstQuestion = data.questions.find((row) => row.number === 1)!;
    expect(firstQuestion.facility).toBeCloseTo(40 / 42, 10);
    expect(firstQuestion.flags.map((flag) => flag.kind)).toEqual(['too_easy']);
    const lastDrawn = data.questions.find((row) => row.number === 20)!;
    expect(lastDrawn.flags.map((flag) => flag.kind)).toEqual(['too_hard']);
  });

  it('gives questions no exam drew no figure and no flag (too few is no warning), after the flagged and the judged ones', async () => {
    const data = (await quality()).body.data as BookQuality;
    const undrawn = data.questions.filter((row) => row.exams === 0);
    expect(undrawn.length).toBeGreaterThan(0);
    for (const row of undrawn) expect(row).toMatchObject({ facility: null, discrimination: null, upper_lower_difference: null, answers: null, blank: null, flags: [] });
    const kinds = data.questions.map((row) => row.flags[0]?.kind ?? (row.exams >= data.min_exams ? 'none' : 'too_few'));
    const order = ['wrong_key', 'ambiguous', 'too_hard', 'too_easy', 'none', 'too_few'];
    expect([...kinds].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(kinds);
  });

  it('on a book with a handful of exams (4): counts, but no share, figure or warning computed from them', async () => {
    const other = await bookForClassRoom(server.db, '5A1', 1);
    expect(other.id).not.toBe(bookId);
    const pupils = await insertPupils(server.db, { schoolId: (await firstSchool(server.db)).id, classRooms: ['5A1'], count: 4 });
    const now = server.clock.now().getTime();
    await insertFinishedExams(
      server.db,
      pupils.map((pupil, i) => ({ contestantId: pupil.id, bookId: other.id, attempt: 1, points: 95 - 5 * i, durationSeconds: 600, submittedAt: new Date(now - 60_000 + i * 1000), prediction: null })),
    );
    const response = await quality(organiser.token, other.id);
    expect(response.status).toBe(200);
    const data = response.body.data as BookQuality;
    expect(data).toMatchObject({ exams: 4, min_exams: 30 });
    const drawn = data.questions.filter((row) => row.exams > 0);
    expect(drawn.length).toBeGreaterThanOrEqual(20);
    for (const row of data.questions) {
      expect(row.exams).toBeLessThanOrEqual(4);
      expect(row).toMatchObject({ facility: null, discrimination: null, upper_lower_difference: null, answers: null, blank: null, suspected_answer_id: null, flags: [] });
    }
    // The export says why a row's figures are empty, and gives no share.
    const xlsx = await fetch(`${server.url}/api/admin/books/${other.id}/quality.xlsx`, { headers: { authorization: `Bearer ${organiser.token}` } });
    expect(xlsx.status).toBe(200);
    const rows: XlsxValue[][] = [];
    for await (const { values } of readFirstSheet(Buffer.from(await xlsx.arrayBuffer()))) rows.push(Array.from(values));
    const [headings, ...lines] = rows;
    const column = (title: string) => headings!.indexOf(title);
    expect(lines).toHaveLength(data.questions.length);
    for (const line of lines) {
      expect(line[column('Độ dễ (%)')] ?? null).toBeNull();
      expect(line[column('A: nhóm cao (%)')] ?? null).toBeNull();
      expect(line[column('Cảnh báo')] ?? null).toBeNull();
      expect(String(line[column('Lý do')])).toMatch(/^Chưa đủ bài thi: mới có [0-4] bài thi rút câu này, cần ít nhất 30 bài để tính\.$/);
    }
  });

  it('exports the rows as .xlsx', async () => {
    const response = await server.request('GET', `/api/admin/books/${bookId}/quality.xlsx`, { token: organiser.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('spreadsheetml');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="chat-luong-cau-hoi-sach-${bookId}.xlsx"`);
  });

  it('keeps the counts "Tính lại" computed: a view reads them (and stores none itself), "Tính lại" counts the exams finished since', async () => {
    // Nothing stored: a view counts for itself and writes nothing; "Tính lại" counts and stores.
    expect((await quality()).body.data.computed_at).toBe(server.clock.now().toISOString());
    expect(await server.db.selectFrom('question_quality_counts').select('book_id').where('book_id', '=', bookId).execute()).toEqual([]);
    expect((await server.request('POST', `/api/admin/books/${bookId}/quality/refresh`, { token: organiser.token })).status).toBe(200);
    const first = (await quality()).body.data as BookQuality;
    expect(first.exams).toBe(42);
    expect(first.exams_now).toBe(42);
    expect(first.computed_at).toBe(server.clock.now().toISOString());
    // A pupil finishes meanwhile: the stored figures stay, the page says how many exams came since.
    const [late] = await insertPupils(server.db, { schoolId: (await firstSchool(server.db)).id, classRooms: ['5A1'], count: 1 });
    await insertFinishedExams(server.db, [{ contestantId: late!.id, bookId, attempt: 1, points: 50, durationSeconds: 600, submittedAt: server.clock.now(), prediction: null }]);
    server.clock.advance(60_000);
    const stored = (await quality()).body.data as BookQuality;
    expect(stored).toMatchObject({ exams: 42, exams_now: 43, computed_at: first.computed_at });
    expect(stored.questions).toEqual(first.questions);
    const refreshed = await server.request('POST', `/api/admin/books/${bookId}/quality/refresh`, { token: organiser.token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data).toMatchObject({ exams: 43, exams_now: 43, computed_at: server.clock.now().toISOString() });
    expect(((await quality()).body.data as BookQuality).exams).toBe(43);
    await server.db.deleteFrom('exams').where('contestant_id', '=', late!.id).execute();
    await server.request('POST', `/api/admin/books/${bookId}/quality/refresh`, { token: organiser.token });
  });

  // After the tests that read the plant (it changes the data). "Accept both" (the key and W) on P,
  // committed by the regrade API: every exam answered one of the two, so P is right for all 42, and
  // the rest scores do not move (W's exams gained the point P now gives). The regrade forgets the
  // book's stored counts, so the next view counts the new scoring without "Tính lại".
  it('scores a question by its regrade rule in force, at the next view after a regrade', async () => {
    const before = ((await quality()).body.data as BookQuality).questions.find((row) => row.question.id === plantedId)!;
    const committed = await server.request('POST', '/api/admin/regrades', {
      token: organiser.token,
      body: { question_id: plantedId, mode: 'accept_both', answer_id: wrongId, reason: 'Hai đáp án đều đúng.' },
    });
    expect(committed.status).toBe(200);
    const after = ((await quality()).body.data as BookQuality).questions.find((row) => row.question.id === plantedId)!;
    expect(after.facility).toBe(1);
    expect(after.discrimination).toBeNull();
    expect(after.flags.map((flag) => flag.kind)).toContain('too_easy');
    // The shares per answer and the groups (by rest score) are those of before.
    expect(after.answers).toEqual(before.answers);
  });

  it('answers 404 for an unknown book and refuses other roles', async () => {
    expect((await quality(organiser.token, 999_999)).status).toBe(404);
    const parent = await createParent(server);
    expect((await quality(parent.token)).status).toBe(403);
    expect((await server.request('GET', `/api/admin/books/${bookId}/quality`)).status).toBe(401);
  });
});
