// Contest settings and the footer in the back office: permissions, every rule with its field key,
// any-subset saves, audit entries, the public /api/site following a change, and start-exam refused
// once the window is closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createOrganiser, createParent, createSchoolAdmin, uploadForm, type CreatedUser } from '../../../test/factories';
import { parentWithContestant } from '../../../test/exam-fixtures';

let server: TestServer;
let organiser: CreatedUser;
let original: Record<string, unknown>;

const DAY = 86_400_000;
const at = (days: number) => new Date(server.clock.now().getTime() + days * DAY).toISOString();
const put = (body: unknown, token = organiser.token) => server.request('PUT', '/api/admin/contest', { token, body });
const get = () => server.request('GET', '/api/admin/contest', { token: organiser.token });
const lastAudit = async () =>
  server.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

/** A whole timeline around an exam window of [start, end] days from now. */
const timeline = (start: number, end: number) => ({
  reading_starts_at: at(start - 30),
  reading_ends_at: at(start - 1),
  exam_starts_at: at(start),
  exam_ends_at: at(end),
  results_at: at(end + 1),
  ceremony_starts_at: at(end + 2),
  ceremony_ends_at: at(end + 5),
});

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  original = (await get()).body.data;
});
afterAll(() => server?.close());

describe('permissions', () => {
  it('answers 401 without a session and 403 to parents and school administrators', async () => {
    const parent = await createParent(server);
    const schoolAdmin = await createSchoolAdmin(server);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/contest'],
      ['PUT', '/api/admin/contest', { name: 'X' }],
      ['GET', '/api/admin/site'],
      ['PUT', '/api/admin/site', {}],
      ['POST', '/api/admin/site/sponsor-logo', uploadForm('a.png', 'x')],
    ];
    for (const [method, path, body] of calls) {
      expect((await server.request(method, path, { body })).status).toBe(401);
      expect((await server.request(method, path, { body, token: parent.token })).status).toBe(403);
      expect((await server.request(method, path, { body, token: schoolAdmin.token })).status).toBe(403);
    }
    expect((await get()).body.data.name).toBe(original.name);
  });
});

describe('GET/PUT /api/admin/contest', () => {
  it('reads the settings: dates, limits, the spec prize tiers and the class minimum', async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body.data).toMatchObject({
      exam_duration_seconds: 1200,
      questions_per_exam: 20,
      attempts_per_contestant: 3,
      class_min_participants: 10,
      results_computed_at: null,
    });
    expect(response.body.data.prize_tiers).toHaveLength(12);
    expect(response.body.data.prize_tiers[0]).toEqual({ kind: 'individual', code: 'special', name: 'Giải Đặc biệt', winners: 1, amount: 10_000_000 });
  });

  it('saves any subset of the fields, leaves the others, and records before and after', async () => {
    const response = await put({ name: '  Cuộc thi Đọc sách mùa hè 2027  ', exam_duration_seconds: 900 });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ ...original, name: 'Cuộc thi Đọc sách mùa hè 2027', exam_duration_seconds: 900 });
    const entry = await lastAudit();
    expect(entry).toMatchObject({ kind: 'contest.update', actor_phone: organiser.phone });
    expect(entry.summary).toContain('tên cuộc thi');
    expect(entry.details).toEqual({
      before: { name: original.name, exam_duration_seconds: 1200 },
      after: { name: 'Cuộc thi Đọc sách mùa hè 2027', exam_duration_seconds: 900 },
    });
    // The same values again change nothing and write no entry.
    const count = async () => Number((await server.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect((await put({ exam_duration_seconds: 900 })).status).toBe(200);
    expect(await count()).toBe(before);
    expect((await put({ name: original.name, exam_duration_seconds: 1200 })).status).toBe(200);
  });

  it('accepts ISO dates with an offset and answers them in UTC', async () => {
    const ends = new Date(original.exam_ends_at as string);
    const local = new Date(ends.getTime() + 7 * 3600_000).toISOString().slice(0, 19) + '+07:00';
    const response = await put({ exam_ends_at: local });
    expect(response.status).toBe(200);
    expect(response.body.data.exam_ends_at).toBe(new Date(ends.getTime() - ends.getMilliseconds()).toISOString());
    expect((await put({ exam_ends_at: original.exam_ends_at })).body.data.exam_ends_at).toBe(original.exam_ends_at);
  });

  it.each([
    ['exam_ends_at', { exam_ends_at: 'EXAM_START' }, 'sau thời điểm mở thi'],
    ['results_at', { results_at: 'BEFORE_END' }, 'không được trước thời điểm đóng thi'],
    ['reading_starts_at', { reading_starts_at: 'AFTER_START', reading_ends_at: 'LATER' }, 'trước khi mở thi'],
    ['reading_ends_at', { reading_ends_at: 'READING_START' }, 'sau thời điểm bắt đầu'],
    ['ceremony_starts_at', { ceremony_starts_at: 'BEFORE_RESULTS' }, 'không được trước ngày công bố kết quả'],
    ['ceremony_ends_at', { ceremony_ends_at: 'CEREMONY_START' }, 'sau thời điểm bắt đầu'],
    ['exam_starts_at', { exam_starts_at: 'hôm qua' }, 'Ngày giờ không hợp lệ'],
    ['results_at', { results_at: '2026-13-45T08:00:00Z' }, 'Ngày giờ không hợp lệ'],
    ['name', { name: '   ' }, 'bắt buộc'],
    ['exam_duration_seconds', { exam_duration_seconds: 5 }, 'từ 60 đến 7200'],
    ['questions_per_exam', { questions_per_exam: 0 }, 'từ 1 đến 20'],
    ['questions_per_exam', { questions_per_exam: 21 }, 'từ 1 đến 20'],
    ['attempts_per_contestant', { attempts_per_contestant: 4 }, 'từ 1 đến 3'],
    ['class_min_participants', { class_min_participants: 0 }, 'từ 1 đến 1000'],
  ])('refuses a bad %s with 422 invalid_settings keyed by the field, storing nothing', async (field, raw, message) => {
    const o = original as Record<string, string>;
    const minus = (iso: string, ms: number) => new Date(new Date(iso).getTime() - ms).toISOString();
    const placeholders: Record<string, string> = {
      EXAM_START: o.exam_starts_at!,
      BEFORE_END: minus(o.exam_ends_at!, 60_000),
      AFTER_START: new Date(new Date(o.exam_starts_at!).getTime() + 60_000).toISOString(),
      LATER: new Date(new Date(o.exam_starts_at!).getTime() + DAY).toISOString(),
      READING_START: o.reading_starts_at!,
      BEFORE_RESULTS: minus(o.results_at!, 60_000),
      CEREMONY_START: o.ceremony_starts_at!,
    };
    const body = Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, typeof value === 'string' ? (placeholders[value] ?? value) : value]));
    const response = await put(body);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ success: false, code: 'invalid_settings', message: expect.any(String) });
    expect(Object.keys(response.body.errors)).toEqual([field]);
    expect(response.body.errors[field]).toContain(message);
    expect((await get()).body.data).toMatchObject({ [field]: original[field] });
  });

  it('checks a combination against the stored settings: moving the window past the results date', async () => {
    const response = await put({ exam_ends_at: at(40) });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({ results_at: expect.stringContaining('đóng thi') });
  });

  it('answers 400 invalid_input for a wrong type or an unknown field', async () => {
    const wrongType = await put({ questions_per_exam: 'hai mươi' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.code).toBe('invalid_input');
    const unknown = await put({ results_computed: null });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ results_computed: expect.stringContaining('results_computed') });
  });

  it('refuses more questions per exam than a book has while the window is open, naming the books', async () => {
    // The demo banks hold at least the 20 an exam draws at most: a new book with 15 questions.
    const group = await server.db.selectFrom('class_groups').select('id').orderBy('position').executeTakeFirstOrThrow();
    const last = await server.db.selectFrom('books').select((eb) => eb.fn.max('position').as('p')).executeTakeFirstOrThrow();
    const shortBook = await server.db
      .insertInto('books')
      .values({ class_group_id: group.id, name: 'Sách còn thiếu câu hỏi', image: '/images/books/no-cover.svg', position: Number(last.p) + 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let i = 1; i <= 15; i += 1) {
      const question = await server.db.insertInto('questions').values({ book_id: shortBook.id, value: `Câu ${i}?` }).returning('id').executeTakeFirstOrThrow();
      await server.db
        .insertInto('answers')
        .values(['A', 'B'].map((value, j) => ({ question_id: question.id, value, is_correct: j === 0 })))
        .execute();
    }
    const book = { name: 'Sách còn thiếu câu hỏi' };
    // The window is open and an exam draws 20: refused on questions_per_exam, naming the book.
    const response = await put({ questions_per_exam: 20 });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('invalid_settings');
    expect(Object.keys(response.body.errors)).toEqual(['questions_per_exam']);
    expect(response.body.errors.questions_per_exam).toContain(`${book.name} (15 câu)`);

    // A window that opens later: accepted, with a warning naming the book.
    const later = await put({ ...timeline(5, 30) });
    expect(later.status).toBe(200);
    expect(later.body.warnings).toEqual([expect.stringContaining(book.name)]);
    // Opening it now with that bank: refused on exam_starts_at.
    const opening = await put({ ...timeline(0, 30), exam_starts_at: at(-0.01) });
    expect(opening.status).toBe(422);
    expect(Object.keys(opening.body.errors)).toEqual(['exam_starts_at']);
    expect(opening.body.errors.exam_starts_at).toContain(book.name);

    await server.db.deleteFrom('books').where('id', '=', shortBook.id).execute();
    expect((await put({ ...pickDates(original), questions_per_exam: 20 })).status).toBe(200);
  });

  it('edits prize tiers: codes kept, new tiers coded, positions by order; refused once results are public', async () => {
    const tiers = (original.prize_tiers as { kind: string; code: string; name: string; winners: number; amount: number }[]).map((t) => ({ ...t }));
    tiers[1]!.amount = 6_000_000;
    const edited = [...tiers.filter((t) => t.code !== 'consolation'), { kind: 'individual', name: 'Giải Triển vọng', winners: 10, amount: 300_000 }];
    const response = await put({ prize_tiers: edited, class_min_participants: 8 });
    expect(response.status).toBe(200);
    expect(response.body.warnings).toEqual([]);
    const individual = response.body.data.prize_tiers.filter((t: { kind: string }) => t.kind === 'individual');
    expect(individual.map((t: { code: string }) => t.code)).toEqual(['special', 'first', 'second', 'third', 'individual_5']);
    expect(individual[1].amount).toBe(6_000_000);
    expect(response.body.data.class_min_participants).toBe(8);
    const rows = await server.db.selectFrom('prize_tiers').select(['code', 'position']).where('code', '=', 'individual_5').executeTakeFirstOrThrow();
    expect(rows.position).toBe(5);
    expect((await lastAudit()).details).toMatchObject({ before: { class_min_participants: 10 }, after: { class_min_participants: 8 } });

    const twoPupilTiers = [...tiers, { kind: 'school_pupils', name: 'Quà thêm', winners: 1, amount: 1 }];
    const refused = await put({ prize_tiers: twoPupilTiers });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors)).toEqual(['prize_tiers']);
    const negative = await put({ prize_tiers: [{ kind: 'teacher', name: 'Giải', winners: 1, amount: -5 }] });
    expect(negative.status).toBe(422);
    expect(negative.body.errors.prize_tiers).toContain('tiền thưởng');

    // Results computed, not yet public: saved, with a reminder to compute them again.
    const contest = await server.db.selectFrom('contests').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await server.db.insertInto('result_runs').values({ contest_id: contest.id, computed_at: server.clock.now(), exam_papers: 0, participants: 0 }).execute();
    const beforePublic = await put({ prize_tiers: tiers });
    expect(beforePublic.status).toBe(200);
    expect(beforePublic.body.warnings).toEqual([expect.stringContaining('tính lại kết quả')]);
    // Results published (the window ended yesterday, results this morning): refused.
    expect((await put({ ...timeline(-10, -2), results_at: at(-0.5), ceremony_starts_at: at(-0.4) })).status).toBe(200);
    await server.db.updateTable('result_runs').set({ published_at: server.clock.now() }).where('contest_id', '=', contest.id).execute();
    const afterPublic = await put({ class_min_participants: 12 });
    expect(afterPublic.status).toBe(422);
    expect(afterPublic.body.errors).toEqual({ class_min_participants: expect.stringContaining('đã được công bố') });
    await server.db.deleteFrom('result_runs').where('contest_id', '=', contest.id).execute();
    expect((await put({ ...pickDates(original), class_min_participants: 10 })).status).toBe(200);
  });

  it('reads amounts typed with Vietnamese thousands separators and refuses ambiguous ones with the field named', async () => {
    const tiers = (original.prize_tiers as { kind: string; code: string; amount: number | string }[]).map((t) => ({ ...t }));
    const typed: Record<string, string> = { special: '10.000.000 đ', first: '5,000,000', second: '2 000 000', third: '300.000', consolation: '200000đồng' };
    for (const tier of tiers) if (typed[tier.code]) tier.amount = typed[tier.code]!;
    const saved = await put({ prize_tiers: tiers });
    expect(saved.status).toBe(200);
    const amounts = Object.fromEntries(saved.body.data.prize_tiers.map((t: { code: string; amount: number }) => [t.code, t.amount]));
    expect(amounts).toMatchObject({ special: 10_000_000, first: 5_000_000, second: 2_000_000, third: 300_000, consolation: 200_000 });
    const stored = await server.db.selectFrom('prize_tiers').select('amount').where('code', '=', 'third').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(Number(stored.amount)).toBe(300_000);

    for (const ambiguous of ['300.5', '3,5']) {
      tiers[3]!.amount = ambiguous;
      const refused = await put({ prize_tiers: tiers });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ 'prize_tiers.3.amount': expect.stringContaining('có thể hiểu theo hai cách') });
      expect(refused.body.message).toContain(`"${ambiguous}"`);
    }
    expect((await get()).body.data.prize_tiers[3].amount).toBe(300_000);
    expect((await put({ prize_tiers: original.prize_tiers })).status).toBe(200);
  });
});

describe('a closed window', () => {
  it('is a valid setting; /api/site follows at once and start-exam refuses with a clear message', async () => {
    const setup = await parentWithContestant(server);
    const closed = await put(timeline(-10, -1));
    expect(closed.status).toBe(200);
    const site = await server.request('GET', '/api/site');
    expect(site.body.data.contest.exam_ends_at).toBe(closed.body.data.exam_ends_at);
    const refused = await server.request('POST', '/api/start-exam', { token: setup.parent.token, body: { book_id: setup.book.id, child_id: setup.contestant.id } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: 'window_closed', message: 'Đã hết thời gian thi của cuộc thi.' });

    expect((await put(pickDates(original))).status).toBe(200);
    const reopened = await server.request('POST', '/api/start-exam', { token: setup.parent.token, body: { book_id: setup.book.id, child_id: setup.contestant.id } });
    expect(reopened.status).toBe(200);
  });
});

describe('the footer', () => {
  const footer = {
    siteName: 'Cuộc thi Đọc sách tỉnh Bình An',
    organiserName: 'Nhà xuất bản Bình An',
    organiserAddress: 'Số 1 đường Trần Phú, thành phố Bình An',
    hotline: '0243 123 456',
    contactEmail: 'lienhe@binhan.vn',
    social: { facebook: 'https://facebook.com/binhan', youtube: 'https://youtube.com/@binhan', zalo: 'https://zalo.me/binhan' },
    sponsors: [{ name: 'Thư viện Bình An', logo: '/images/sponsors/thu-vien.svg', url: 'https://thuvien.binhan.vn' }],
    businessLicence: 'Giấy phép số 01/GP do Sở Thông tin và Truyền thông cấp.',
  };

  it('GET /api/site shows the configuration until the organiser saves, then the saved texts', async () => {
    const before = await server.request('GET', '/api/site');
    expect(before.status).toBe(200);
    expect(before.headers.get('cache-control')).toBe('public, max-age=10');
    expect(before.body.data.organiserName).toBe(server.config.site.organiserName);
    const adminView = await server.request('GET', '/api/admin/site', { token: organiser.token });
    expect(adminView.body.data).toMatchObject({ from_config: true, footer: { hotline: server.config.site.hotline } });

    const saved = await server.request('PUT', '/api/admin/site', { token: organiser.token, body: footer });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ footer, from_config: false });
    const after = await server.request('GET', '/api/site');
    expect(after.body.data).toMatchObject(footer);
    expect(after.body.data.contest.name).toBe(original.name);
    const entry = await lastAudit();
    expect(entry).toMatchObject({ kind: 'site.update', summary: 'Sửa thông tin chân trang' });
    expect(entry.details).toMatchObject({ before: { organiserName: server.config.site.organiserName }, after: { organiserName: footer.organiserName } });
  });

  it('refuses unsafe or missing values with 400 and field errors', async () => {
    const bad = { ...footer, social: { ...footer.social, facebook: 'javascript:alert(1)' }, sponsors: [{ ...footer.sponsors[0], logo: '//evil.example/x.png' }], contactEmail: 'khong-phai-email' };
    const response = await server.request('PUT', '/api/admin/site', { token: organiser.token, body: bad });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_input');
    expect(Object.keys(response.body.errors).sort()).toEqual(['contactEmail', 'social.facebook', 'sponsors.0.logo'].sort());
    const { organiserName: _, ...missing } = footer;
    expect((await server.request('PUT', '/api/admin/site', { token: organiser.token, body: missing })).status).toBe(400);
    expect((await server.request('GET', '/api/site')).body.data.contactEmail).toBe(footer.contactEmail);
  });

  it('stores a sponsor logo as a resized WebP and refuses what is not an image', async () => {
    const png = await sharp({ create: { width: 900, height: 300, channels: 3, background: '#1d4ed8' } }).png().toBuffer();
    const response = await server.request('POST', '/api/admin/site/sponsor-logo', { token: organiser.token, body: uploadForm('logo.png', png) });
    expect(response.status).toBe(200);
    expect(response.body.data.path).toMatch(/^\/api\/media\/[0-9a-f]{64}\.webp$/);
    const image = await fetch(server.url + response.body.data.path);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(320);
    expect((await lastAudit()).kind).toBe('site.sponsor_logo');

    const text = await server.request('POST', '/api/admin/site/sponsor-logo', { token: organiser.token, body: uploadForm('logo.png', 'không phải ảnh') });
    expect(text.status).toBe(422);
    const none = await server.request('POST', '/api/admin/site/sponsor-logo', { token: organiser.token, body: uploadForm('logo.png', '') });
    expect(none.status).toBe(422);
  });
});

function pickDates(settings: Record<string, unknown>) {
  const keys = ['reading_starts_at', 'reading_ends_at', 'exam_starts_at', 'exam_ends_at', 'results_at', 'ceremony_starts_at', 'ceremony_ends_at'];
  return Object.fromEntries(keys.map((key) => [key, settings[key]]));
}
