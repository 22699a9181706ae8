// The education offices' read-only area (issue 41): who may read /api/viewer/*, the scope, the
// live participation of a scope (a province viewer's equal to the organiser's dashboard, a unit
// viewer's of its unit alone), ids outside the scope refused, the results once published, the
// exports, and each view in the audit log (a failed audit write leaves the read answered).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import readExcelFile from 'read-excel-file/node';
import { sql } from 'kysely';
import { VIEWER_SCHOOLS_PER_PAGE, viewerMessages } from '../../../shared/schemas/viewers';
import { startTestServer, type TestServer } from '../../test/harness';
import { createContestant, createOrganiser, createParent, createSchoolAdmin, createViewer, type CreatedUser } from '../../test/factories';
import { startExam } from '../../test/exam-fixtures';
import { simulateDemoResults } from '../../demo/results';
import { VIEWER_COUNTS_MAX_AGE_MS } from './service';

let server: TestServer;
let organiser: CreatedUser;
let province: CreatedUser;
let unitA: CreatedUser;
/** Unit A: the second unit of the demo catalogue; unit B: the first (the demo school's). */
let A: { id: number; name: string };
let B: { id: number; name: string };
let namesOfB: string[];

const get = (path: string, token?: string) => server.request('GET', path, { token });
/** Past the per-scope counts' lifetime: the next read counts again. */
const recount = () => server.clock.advance(VIEWER_COUNTS_MAX_AGE_MS + 1000);

async function xlsxOf(path: string, token: string) {
  const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type') ?? '', bytes: Buffer.from(await response.arrayBuffer()) };
}

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  const districts = await server.db.selectFrom('districts').select(['id', 'name']).orderBy('id').limit(2).execute();
  [B, A] = districts as [typeof B, typeof A];
  province = await createViewer(server);
  unitA = await createViewer(server, [A.id]);
  // Contestants and finished exams in both units (the demo simulation), and an exam in progress in A.
  await simulateDemoResults(server.db, server.clock, { publish: false });
  const schoolOfA = await server.db.selectFrom('schools').select('id').where('district_id', '=', A.id).orderBy('id').executeTakeFirstOrThrow();
  const parent = await createParent(server);
  const child = await createContestant(server, parent, { schoolId: schoolOfA.id, fullname: 'Trần Thị Đang Thi' });
  await startExam(server, { parent, contestant: child, book: child.books[0]! });
  namesOfB = [B.name, ...(await server.db.selectFrom('schools').select('name').where('district_id', '=', B.id).execute()).map((s) => s.name)];
}, 120_000);
afterAll(() => server?.close());

describe('who may read /api/viewer/*', () => {
  it('answers 401 without a session, 403 to a parent, a school administrator and the organiser, 404 on an unknown viewer path after the check', async () => {
    const parent = await createParent(server);
    const admin = await createSchoolAdmin(server);
    for (const path of ['/api/viewer/scope', '/api/viewer/participation', '/api/viewer/results', '/api/viewer/participation.xlsx', '/api/viewer/results.xlsx', '/api/viewer/khong-co']) {
      expect((await get(path)).status).toBe(401);
      for (const user of [parent, admin, organiser]) expect((await get(path, user.token)).status).toBe(403);
    }
    expect((await get('/api/viewer/khong-co', province.token)).status).toBe(404);
  });

  it('refuses a locked viewer (its sessions end)', async () => {
    const viewer = await createViewer(server, [A.id]);
    expect((await get('/api/viewer/scope', viewer.token)).status).toBe(200);
    const locked = await server.request('POST', `/api/admin/accounts/${viewer.id}/lock`, { token: organiser.token });
    expect(locked.status).toBe(200);
    expect((await get('/api/viewer/scope', viewer.token)).status).toBe(401);
    const login = await server.request('POST', '/api/login', { body: { phone: viewer.phone, password: viewer.password } });
    expect(login.status).toBe(403);
  });
});

describe('GET /api/viewer/scope', () => {
  it('says the whole province to a province viewer and its units to a unit viewer', async () => {
    const all = await server.db.selectFrom('districts').select('id').execute();
    const whole = await get('/api/viewer/scope', province.token);
    expect(whole.status).toBe(200);
    expect(whole.body.data).toMatchObject({ kind: 'province', label: viewerMessages.wholeProvince, unit_label: 'Quận/Huyện', results_published: false });
    expect(whole.body.data.units).toHaveLength(all.length);
    const unit = await get('/api/viewer/scope', unitA.token);
    expect(unit.body.data).toMatchObject({ kind: 'unit', label: A.name, units: [A], results_published: false });
  });
});

describe('GET /api/viewer/participation', () => {
  it('gives a province viewer the dashboard’s figures, in total and unit by unit', async () => {
    recount();
    const [dashboard, viewer] = [await get('/api/admin/exam-days/dashboard', organiser.token), await get('/api/viewer/participation', province.token)];
    expect(viewer.status).toBe(200);
    const d = dashboard.body.data;
    const v = viewer.body.data;
    const { parents: _parents, ...dashboardTotals } = d.totals;
    expect(v.totals).toMatchObject(dashboardTotals);
    expect(v.totals.in_progress).toBe(1);
    expect(v.started_per_hour).toEqual(d.started_per_hour);
    for (const line of d.districts) {
      expect(v.units.find((u: { id: number }) => u.id === line.id)).toMatchObject({
        contestants: line.contestants,
        in_progress: line.in_progress,
        started_today: line.started_today,
        finished_today: line.finished_today,
      });
    }
    // Pupils from the catalogue ("Số học sinh"), participation = contestants / pupils.
    const pupils = await server.db.selectFrom('schools').select(sql<string>`sum(pupil_count)`.as('n')).executeTakeFirstOrThrow();
    expect(v.totals.pupils).toBe(Number(pupils.n));
    expect(v.totals.participation).toBeCloseTo(v.totals.contestants / v.totals.pupils, 10);
  });

  it('gives a unit viewer its unit alone, equal to the dashboard’s line of that unit', async () => {
    recount();
    const d = (await get('/api/admin/exam-days/dashboard', organiser.token)).body.data;
    const response = await get('/api/viewer/participation', unitA.token);
    expect(response.status).toBe(200);
    const v = response.body.data;
    const line = d.districts.find((l: { id: number }) => l.id === A.id);
    expect(v.units.map((u: { id: number }) => u.id)).toEqual([A.id]);
    expect(v.totals).toMatchObject({ contestants: line.contestants, in_progress: line.in_progress, started_today: line.started_today, finished_today: line.finished_today });
    // The hour chart of the unit: its exams started today, hour by hour (the province's chart has more).
    const startedOfA = v.started_per_hour.reduce((n: number, h: number) => n + h, 0);
    expect(startedOfA).toBe(line.started_today);
    expect(d.started_per_hour.reduce((n: number, h: number) => n + h, 0)).toBeGreaterThan(startedOfA);
    const schoolsOfA = await server.db.selectFrom('schools').select(['id', 'name']).where('district_id', '=', A.id).execute();
    expect(v.schools.total).toBe(schoolsOfA.length);
    for (const school of v.schools.items) expect(school.unit).toBe(A.name);
    const text = JSON.stringify(response.body);
    for (const name of namesOfB) expect(text).not.toContain(name);
    // The sums of the unit's schools are the unit's.
    const sum = (key: string) => v.schools.items.reduce((n: number, s: Record<string, number>) => n + s[key]!, 0);
    expect(sum('contestants')).toBe(v.units[0].contestants);
    expect(sum('started_total')).toBe(v.units[0].started_total);
    expect(sum('finished_total')).toBe(v.units[0].finished_total);
  });

  it('sorts the schools lagging first (no pupils count last), then by name', async () => {
    // A school of A without a pupil count: no participation, listed last.
    const school = await server.db.selectFrom('schools').select(['id', 'name']).where('district_id', '=', A.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    await server.db.updateTable('schools').set({ pupil_count: 0 }).where('id', '=', school.id).execute();
    recount();
    const own = (await get('/api/viewer/participation', unitA.token)).body.data.schools.items;
    expect(own.at(-1)).toMatchObject({ id: school.id, pupils: 0, participation: null });
    const v = (await get('/api/viewer/participation', province.token)).body.data;
    const items: { participation: number | null; name: string }[] = v.schools.items;
    expect(items.length).toBeLessThanOrEqual(VIEWER_SCHOOLS_PER_PAGE);
    for (let i = 1; i < items.length; i += 1) {
      const [a, b] = [items[i - 1]!, items[i]!];
      if (a.participation === null) expect(b.participation).toBeNull();
      else if (b.participation !== null) expect(a.participation).toBeLessThanOrEqual(b.participation);
    }
  });

  it('narrows to one unit of the scope; another unit or an unknown id is the same 403', async () => {
    const narrowed = await get(`/api/viewer/participation?district_id=${A.id}`, province.token);
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.data.units.map((u: { id: number }) => u.id)).toEqual([A.id]);
    for (const [token, id] of [
      [unitA.token, B.id],
      [unitA.token, 999_999],
      [province.token, 999_999],
    ] as const) {
      for (const path of [`/api/viewer/participation?district_id=${id}`, `/api/viewer/participation.xlsx?district_id=${id}`]) {
        const refused = await get(path, token);
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ success: false, message: viewerMessages.outOfScope });
      }
    }
  });

  it('finds schools by name without accents, and pages', async () => {
    const school = await server.db.selectFrom('schools').select('name').where('district_id', '=', A.id).orderBy('id').executeTakeFirstOrThrow();
    const plain = school.name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[đĐ]/g, 'd').toLowerCase();
    const found = await get(`/api/viewer/participation?school_q=${encodeURIComponent(plain)}`, unitA.token);
    expect(found.body.data.schools.items.map((s: { name: string }) => s.name)).toContain(school.name);
    const far = await get('/api/viewer/participation?page=9999', unitA.token);
    expect(far.status).toBe(200);
    expect(far.body.data.schools.page).toBe(1);
  });

  it('exports the units and schools of the scope (.xlsx), without unit B', async () => {
    const file = await xlsxOf('/api/viewer/participation.xlsx', unitA.token);
    expect(file.status).toBe(200);
    expect(file.type).toContain('spreadsheetml');
    const sheets = await readExcelFile(file.bytes);
    expect(sheets.map((s) => s.sheet)).toEqual(['Đơn vị', 'Trường']);
    expect(sheets[0]!.data[0]![0]).toBe('Quận/Huyện');
    expect(sheets[0]!.data.slice(1).map((row) => row[0])).toEqual([A.name]);
    const cells = JSON.stringify(sheets);
    for (const name of namesOfB) expect(cells).not.toContain(name);
  });
});

describe('results', () => {
  it('says the results are not published yet, and the export answers 409', async () => {
    const results = await get('/api/viewer/results', unitA.token);
    expect(results.status).toBe(200);
    expect(results.body.data).toEqual({ published: false, message: viewerMessages.resultsNotPublished });
    const file = await get('/api/viewer/results.xlsx', unitA.token);
    expect(file.status).toBe(409);
    expect(file.body.message).toBe(viewerMessages.resultsNotPublished);
  });

  it('once published: the prizes and summaries of the scope, no phone, no id, no withheld prize', async () => {
    await simulateDemoResults(server.db, server.clock, { publish: true });
    const unit = await get('/api/viewer/results', unitA.token);
    expect(unit.status).toBe(200);
    const data = unit.body.data;
    expect(data.published).toBe(true);
    expect(data.units.map((u: { name: string }) => u.name)).toEqual([A.name]);
    for (const prize of data.prizes) expect(prize.unit).toBe(A.name);
    for (const school of data.schools) expect(school.unit).toBe(A.name);
    const text = JSON.stringify(unit.body);
    for (const name of namesOfB) expect(text).not.toContain(name);
    expect(text).not.toMatch(/0\d{9}/);
    expect(text).not.toMatch(/"(contestant_id|user_id|id|phone|parent_phone)"/);

    const whole = (await get('/api/viewer/results', province.token)).body.data;
    // Every published prize of the province: those of the public winners' list, not one more.
    const winners = (await get('/api/winners?page=1')).body.data;
    expect(whole.prizes.length).toBe(winners.total);
    expect(whole.prizes.length).toBeGreaterThan(data.prizes.length);
    const withheld = await server.db.selectFrom('individual_results').select('contestant_id').where('prize_code', 'is', null).where('held', '=', true).execute();
    expect(withheld.length).toBeGreaterThanOrEqual(0);
    const scope = await get('/api/viewer/scope', unitA.token);
    expect(scope.body.data.results_published).toBe(true);
  });

  it('exports the published results of the scope (.xlsx)', async () => {
    const file = await xlsxOf('/api/viewer/results.xlsx', unitA.token);
    expect(file.status).toBe(200);
    const sheets = await readExcelFile(file.bytes);
    expect(sheets.map((s) => s.sheet)).toEqual(['Giải thưởng', 'Trường', 'Đơn vị']);
    expect(sheets[0]!.data[0]).toEqual(['Loại giải', 'Họ và tên', 'Lớp', 'Trường', 'Quận/Huyện', 'Điểm', 'Thời gian (giây)', 'Giải']);
    const cells = JSON.stringify(sheets);
    for (const name of namesOfB) expect(cells).not.toContain(name);
    expect(cells).not.toMatch(/0\d{9}/);
  });
});

describe('the audit log', () => {
  it('writes each view with its path and scope', async () => {
    await get(`/api/viewer/participation?district_id=${A.id}`, unitA.token);
    const entry = await server.db.selectFrom('audit_log').selectAll().where('kind', '=', 'viewer.view').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(entry.actor_id).toBe(unitA.id);
    expect(entry.summary).toBe(viewerMessages.audit.viewed(viewerMessages.views.participation, A.name));
    expect(entry.details).toMatchObject({ path: `/api/viewer/participation?district_id=${A.id}`, kind: 'unit', district_ids: [A.id] });
  });

  it('writes a page refreshed by its screen once, and another page or filter again', async () => {
    const views = async () =>
      Number((await server.db.selectFrom('audit_log').select(sql<string>`count(*)`.as('n')).where('kind', '=', 'viewer.view').where('actor_id', '=', province.id).executeTakeFirstOrThrow()).n);
    const before = await views();
    for (let i = 0; i < 3; i++) expect((await get('/api/viewer/participation?school_q=An', province.token)).status).toBe(200);
    expect(await views()).toBe(before + 1);
    await get('/api/viewer/participation?school_q=Lê', province.token);
    expect(await views()).toBe(before + 2);
  });

  it('answers the read even when the audit write fails (the failure is logged)', async () => {
    await sql`CREATE FUNCTION refuse_view() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.kind = 'viewer.view' THEN RAISE EXCEPTION 'audit refused'; END IF; RETURN NEW; END $$`.execute(server.db);
    await sql`CREATE TRIGGER refuse_view BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_view()`.execute(server.db);
    try {
      const before = await server.db.selectFrom('audit_log').select(sql<string>`count(*)`.as('n')).where('kind', '=', 'viewer.view').executeTakeFirstOrThrow();
      const response = await get('/api/viewer/results', unitA.token);
      expect(response.status).toBe(200);
      const after = await server.db.selectFrom('audit_log').select(sql<string>`count(*)`.as('n')).where('kind', '=', 'viewer.view').executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    } finally {
      await sql`DROP TRIGGER refuse_view ON audit_log`.execute(server.db);
      await sql`DROP FUNCTION refuse_view()`.execute(server.db);
    }
  });
});

describe('the season’s unit level', () => {
  it('names the unit Xã/Phường in the scope and the exports when the season says so', async () => {
    const contest = await server.db.selectFrom('contests').select(['id', 'unit_level']).where('is_current', '=', true).executeTakeFirstOrThrow();
    await server.db.updateTable('contests').set({ unit_level: 'commune' }).where('id', '=', contest.id).execute();
    try {
      expect((await get('/api/viewer/scope', unitA.token)).body.data.unit_label).toBe('Xã/Phường');
      recount();
      const sheets = await readExcelFile((await xlsxOf('/api/viewer/participation.xlsx', unitA.token)).bytes);
      expect(sheets[0]!.data[0]![0]).toBe('Xã/Phường');
      expect(sheets[1]!.data[0]!.slice(0, 2)).toEqual(['Trường', 'Xã/Phường']);
    } finally {
      await server.db.updateTable('contests').set({ unit_level: contest.unit_level }).where('id', '=', contest.id).execute();
    }
  });
});
