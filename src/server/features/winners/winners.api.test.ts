// The public winners' list (issue 37.2) and the organiser's PDF of it for the ceremony, on a small
// published contest: 12 pupils of Lê Lợi (5A1), 12 of Nguyễn Trãi (4A1) and one enrolled by a
// parent through the API (Lê Lợi, the best score: Giải Đặc biệt). Every pupil has an individual
// prize (75 of them), both schools a school prize, their pupils the best-pupils gift. One pupil's
// prize is withheld (prize_holds), one is withdrawn after publication. "Lê Lợi 1" and the held
// pupil have the parent's consent to the name (set in the database); the others do not.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE_VERSION } from '../../../shared/privacy';
import { PRIZE_TIERS } from '../../../shared/prizes';
import { startTestServer, type TestServer } from '../../test/harness';
import { computeResultsTask, createContestant, createOrganiser, createParent, type CreatedUser } from '../../test/factories';
import { bookForClassRoom, insertFinishedExams, insertPupils, sessionAt, type FinishedExamInput } from '../../demo/finished-exams';
import type { Contest } from '../../db/schema';

let server: TestServer;
let organiser: CreatedUser;
let parent: CreatedUser;
let contest: Contest;
let child: { id: number };
let childClass: string;
let held: { id: number; fullname: string };
const LE_LOI = 'Trường Tiểu học Lê Lợi';
const NGUYEN_TRAI = 'Trường Tiểu học Nguyễn Trãi';
const CHILD_NAME = 'Phạm Thị Hồng Nhung';
const HELD_NAME = 'Lê Lợi 12';

type Row = { tier: string; kind: string; name: string; class_name: string | null; school: string; unit: string; prize: string };

const winners = (query = '') => server.request('GET', `/api/winners${query}`);

/** Every row of the list, page after page. */
async function allRows(query = ''): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page += 1) {
    const body = (await winners(`?page=${page}${query}`)).body;
    expect(body.data.published).toBe(true);
    rows.push(...body.data.items);
    if (rows.length >= body.data.total) return rows;
  }
}

const pdfText = (bytes: Buffer) => {
  const dir = mkdtempSync(join(tmpdir(), 'winners-pdf-'));
  writeFileSync(join(dir, 'list.pdf'), bytes);
  return execFileSync('/usr/bin/pdftotext', [join(dir, 'list.pdf'), '-'], { encoding: 'utf8' });
};
const downloadPdf = (token = organiser.token) => fetch(`${server.url}/api/admin/results/winners.pdf`, { headers: { authorization: `Bearer ${token}` } });

const profileOf = async () => (await server.request('GET', '/api/profile', { token: parent.token })).body.data;
/** Saves the parent's profile as it is, with the consent to publish the child's name given or not. */
async function saveConsent(publishName: boolean) {
  const profile = await profileOf();
  const childrens = profile.childrens.map((c: Record<string, unknown>) => ({
    id: c.id,
    fullname: c.fullname,
    district_id: c.district_id,
    school_id: c.school_id,
    class_group_id: c.class_group_id,
    class_room_id: c.class_room_id,
    class_room_other: c.class_room_other,
    publish_name: publishName,
  }));
  return server.request('POST', '/api/customer/profile', { token: parent.token, body: { childrens } });
}

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  parent = await createParent(server);
  contest = await server.db.selectFrom('contests').selectAll().where('is_current', '=', true).executeTakeFirstOrThrow();
  const schoolId = async (name: string) => (await server.db.selectFrom('schools').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const start = contest.exam_starts_at.getTime() + 3_600_000;
  const exams: FinishedExamInput[] = [];
  for (const [name, classRoom, label, points] of [
    [LE_LOI, '5A1', 'Lê Lợi', 95],
    [NGUYEN_TRAI, '4A1', 'Nguyễn Trãi', 90],
  ] as const) {
    const pupils = await insertPupils(server.db, { schoolId: await schoolId(name), classRooms: [classRoom], count: 12, fullname: (i) => `${label} ${i + 1}` });
    const book = (await bookForClassRoom(server.db, classRoom)).id;
    pupils.forEach((pupil, i) => exams.push({ contestantId: pupil.id, bookId: book, attempt: 1, points, durationSeconds: 400 + i, submittedAt: new Date(start + i * 1000), prediction: 25 }));
    if (label === 'Lê Lợi') {
      held = pupils[11]!;
      // The parent of "Lê Lợi 1" and of the held pupil consented to the name (set as the profile would).
      await server.db
        .updateTable('contestants')
        .set({ name_consent_version: PRIVACY_NOTICE_VERSION, name_consented_at: new Date() })
        .where('id', 'in', [pupils[0]!.id, held.id])
        .execute();
    }
  }
  const enrolled = await createContestant(server, parent, { fullname: CHILD_NAME, schoolId: await schoolId(LE_LOI) });
  child = enrolled;
  childClass = (await server.db.selectFrom('class_rooms').select('name').where('id', '=', enrolled.class_room_id!).executeTakeFirstOrThrow()).name;
  exams.push({ contestantId: enrolled.id, bookId: enrolled.books[0]!.id, attempt: 1, points: 100, durationSeconds: 300, submittedAt: new Date(start), prediction: 25 });
  await insertFinishedExams(server.db, exams);
  await server.db.insertInto('prize_holds').values({ contest_id: contest.id, contestant_id: held.id, flag_id: null, reason: 'Kiểm tra gian lận', held_by: organiser.id, held_at: new Date() }).execute();
});
afterAll(() => server?.close());

describe('before publication', () => {
  it('the list says the results are not published, before and after a computation; the PDF is refused (409)', async () => {
    const before = await winners();
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ published: false, message: expect.stringContaining('Kết quả chưa được công bố') });
    const now = new Date(contest.results_at.getTime() + 60_000);
    server.clock.set(now);
    organiser = { ...organiser, token: await sessionAt(server.db, organiser.id, now) };
    parent = { ...parent, token: await sessionAt(server.db, parent.id, now) };
    await computeResultsTask(server, organiser.token);
    const computed = await winners();
    expect(computed.body.data.published).toBe(false);
    expect(JSON.stringify(computed.body)).not.toContain('Lê Lợi 1');
    const pdf = await downloadPdf();
    expect(pdf.status).toBe(409);
    expect(await pdf.json()).toMatchObject({ success: false, code: 'results_not_published', message: expect.stringContaining('chưa được công bố') });
  });
});

describe('the published list', () => {
  beforeAll(async () => {
    const published = await server.request('POST', '/api/admin/results/publish', { token: organiser.token });
    expect(published.status).toBe(200);
  });

  it('lists the winners tier by tier in the tiers’ order, with a public cache header and the season’s unit label', async () => {
    const response = await winners();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=30');
    expect(response.body.data).toMatchObject({ published: true, season: contest.name, unit_label: 'Quận/Huyện', page: 1, per_page: 20 });
    const rows = await allRows();
    const tiers = [...new Set(rows.map((row) => row.tier))];
    // Each tier comes in one run: no tier appears again after another.
    expect(tiers.length).toBe(rows.filter((row, i) => i === 0 || rows[i - 1]!.tier !== row.tier).length);
    const order = PRIZE_TIERS.map((tier) => tier.name);
    const known = tiers.map((tier) => order.findIndex((name) => name === tier || (tier.includes('tiêu biểu') && name.includes('tiêu biểu'))));
    expect(known.every((index) => index >= 0)).toBe(true);
    expect(known).toEqual([...known].sort((a, b) => a - b));
    expect(rows[0]).toMatchObject({ tier: 'Giải Đặc biệt', kind: 'pupil', class_name: childClass, school: LE_LOI, prize: 'Giải Đặc biệt' });
    expect(rows.filter((row) => row.kind === 'school').map((row) => row.school).sort()).toEqual([LE_LOI, NGUYEN_TRAI].sort());
    // 24 pupils with an individual prize (25 less the held one), and the same 24 with the gift.
    expect(rows.filter((row) => row.kind === 'pupil' && !row.tier.includes('tiêu biểu'))).toHaveLength(24);
    expect(rows.filter((row) => row.tier.includes('tiêu biểu'))).toHaveLength(24);
  });

  it('names a pupil only with the consent, else "Học sinh lớp <class>, <school>"; never a phone, an id or the points', async () => {
    const rows = await allRows();
    const json = JSON.stringify(rows);
    expect(rows.filter((row) => row.name === 'Lê Lợi 1')).toHaveLength(2);
    expect(json).not.toMatch(/"Lê Lợi (?:[2-9]|1[01])"/);
    expect(json).not.toMatch(/Nguyễn Trãi \d/);
    expect(json).not.toContain(CHILD_NAME);
    expect(rows).toContainEqual(expect.objectContaining({ name: `Học sinh lớp 5A1, ${LE_LOI}`, class_name: '5A1', school: LE_LOI }));
    expect(rows).toContainEqual(expect.objectContaining({ name: `Học sinh lớp 4A1, ${NGUYEN_TRAI}`, class_name: '4A1', school: NGUYEN_TRAI }));
    const body = JSON.stringify((await winners()).body);
    for (const key of ['"id"', 'contestant_id', 'user_id', 'phone', 'points', 'rank', 'code', 'amount']) expect(body).not.toContain(key);
    expect(body).not.toMatch(/0\d{9}/);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['class_name', 'kind', 'name', 'prize', 'school', 'tier', 'unit']);
  });

  it('never shows a withheld prize, whether listed, paged or searched by its school', async () => {
    const everything = JSON.stringify([...(await allRows()), ...(await allRows('&school=le loi'))]);
    expect(everything).not.toContain(HELD_NAME);
  });

  it('searches by school without accents or case, on the server; a school with no winner gives none', async () => {
    const all = await allRows();
    const found = await allRows('&school=TIỂU HỌC le loi');
    expect(found.length).toBe(all.filter((row) => row.school === LE_LOI).length);
    expect(found.every((row) => row.school === LE_LOI)).toBe(true);
    const nobody = await winners('?school=Hương Sơn');
    expect(nobody.body.data).toMatchObject({ published: true, items: [], total: 0 });
  });

  it('pages on the server: 20 rows a page, in order, none twice; past the end an empty page; a bad page is a 400', async () => {
    const first = (await winners('?page=1')).body.data;
    const second = (await winners('?page=2')).body.data;
    expect(first.items).toHaveLength(20);
    const all = await allRows();
    expect([...first.items, ...second.items]).toEqual(all.slice(0, 20 + second.items.length));
    expect((await winners('?page=999')).body.data.items).toEqual([]);
    const bad = await winners('?page=0');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'invalid_input' });
    const long = await winners(`?school=${'a'.repeat(101)}`);
    expect(long.status).toBe(400);
  });

  it('a withdrawn prize leaves the list at once', async () => {
    const pupil = await server.db.selectFrom('contestants').select('id').where('fullname', '=', 'Lê Lợi 1').executeTakeFirstOrThrow();
    const withdrawn = await server.request('POST', '/api/admin/results/withdrawals', { token: organiser.token, body: { contestant_id: pupil.id, kind: 'individual', reason: 'Vi phạm quy chế thi' } });
    expect(withdrawn.status).toBe(200);
    const rows = await allRows();
    // The best-pupils gift stays (a withdrawal takes one prize): named once, no longer twice.
    expect(rows.filter((row) => row.name === 'Lê Lợi 1').map((row) => row.tier)).toEqual([expect.stringContaining('tiêu biểu')]);
  });
});

describe('the consent to publish the name, in the profile', () => {
  it('is not given by default; the parent gives it and the name appears; takes it back and it goes', async () => {
    expect((await profileOf()).childrens[0]).toMatchObject({ id: child.id, publish_name: false });
    const given = await saveConsent(true);
    expect(given.status).toBe(200);
    expect(given.body.data.childrens[0].publish_name).toBe(true);
    const stored = await server.db.selectFrom('contestants').select(['name_consent_version', 'name_consented_at']).where('id', '=', child.id).executeTakeFirstOrThrow();
    expect(stored.name_consent_version).toBe(PRIVACY_NOTICE_VERSION);
    expect(stored.name_consented_at).not.toBeNull();
    expect((await allRows())[0]).toMatchObject({ tier: 'Giải Đặc biệt', name: CHILD_NAME });
    const copy = await server.request('GET', '/api/customer/my-data', { token: parent.token });
    expect(JSON.stringify(copy.body)).toContain(`Công bố họ tên của ${CHILD_NAME}`);

    expect((await saveConsent(false)).status).toBe(200);
    expect((await profileOf()).childrens[0].publish_name).toBe(false);
    const rows = await allRows();
    expect(rows[0]).toMatchObject({ tier: 'Giải Đặc biệt', name: `Học sinh lớp ${childClass}, ${LE_LOI}` });
    expect(JSON.stringify(rows)).not.toContain(CHILD_NAME);
  });

  it('is asked at enrolment: a new child enrolled with it has it, one enrolled without has not', async () => {
    const other = await createParent(server);
    const token = await sessionAt(server.db, other.id, server.clock.now());
    const school = await server.db.selectFrom('schools').select(['id', 'district_id']).where('name', '=', LE_LOI).executeTakeFirstOrThrow();
    const room = await server.db.selectFrom('class_rooms').select(['id', 'class_group_id']).where('name', '=', '5A1').executeTakeFirstOrThrow();
    const enrol = (fullname: string, publishName?: boolean) => ({
      fullname,
      district_id: school.district_id,
      school_id: school.id,
      class_group_id: room.class_group_id,
      class_room_id: room.id,
      child_consent: true,
      ...(publishName === undefined ? {} : { publish_name: publishName }),
    });
    const saved = await server.request('POST', '/api/customer/profile', { token, body: { childrens: [enrol('Con Đồng Ý', true), enrol('Con Không Nói')] } });
    expect(saved.status).toBe(200);
    expect(saved.body.data.childrens.map((c: { fullname: string; publish_name: boolean }) => [c.fullname, c.publish_name])).toEqual([
      ['Con Đồng Ý', true],
      ['Con Không Nói', false],
    ]);
    const bad = await server.request('POST', '/api/customer/profile', { token, body: { childrens: [{ ...enrol('Con Đồng Ý'), publish_name: 'có' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'invalid_input' });
  });
});

describe('the ceremony PDF', () => {
  it('is the organiser’s only: 401 without a session, 403 for a parent', async () => {
    expect((await fetch(`${server.url}/api/admin/results/winners.pdf`)).status).toBe(401);
    expect((await downloadPdf(parent.token)).status).toBe(403);
  });

  it('is an A4 PDF with each tier’s heading once, the consented names and the others by class and school', async () => {
    const response = await downloadPdf();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain('danh-sach-doat-giai.pdf');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // A cell's text may wrap onto two lines: read it as one line of words.
    const text = pdfText(bytes).replace(/\s+/g, ' ');
    expect(text).toContain('DANH SÁCH ĐOẠT GIẢI');
    const rows = await allRows();
    for (const tier of new Set(rows.map((row) => row.tier))) {
      const count = rows.filter((row) => row.tier === tier).length;
      expect(text.split(`${tier} (${count} giải)`).length - 1).toBe(1);
    }
    expect(text).toContain('Lê Lợi 1');
    expect(text).toContain(`Học sinh lớp 4A1, ${NGUYEN_TRAI}`);
    expect(text).not.toContain(CHILD_NAME);
    expect(text).not.toContain(HELD_NAME);
    expect(text).not.toMatch(/0\d{9}/);
  });
});
