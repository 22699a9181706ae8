// The demo's finished previous season (issue 26): last year's results, reports and certificates
// of the demo family, this year's children carried over from it with their class.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';
import { demoAccounts } from '../db/seed/demo-accounts';
import { addPreviousDemoSeason } from './previous-season';
import { sessionAt } from './finished-exams';
import { createOrganiser } from '../test/factories';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await addPreviousDemoSeason(server.db, server.clock);
});

afterAll(async () => {
  await server?.close();
});

it('adds last year as a finished season with the demo family’s results and certificates, this year staying current', async () => {
  const seasons = await server.db.selectFrom('contests').select(['id', 'name', 'is_current']).orderBy('id').execute();
  expect(seasons.map((s) => s.is_current)).toEqual([true, false]);
  const [current, previous] = seasons;
  expect(previous!.name).toMatch(/^Cuộc thi Đại sứ Văn hoá đọc \d{4}$/);

  const parent = await server.db.selectFrom('users').select('id').where('phone', '=', demoAccounts.parent.phone).executeTakeFirstOrThrow();
  const token = await sessionAt(server.db, parent.id, server.clock.now());
  const profile = await server.request('GET', '/api/profile', { token });
  expect(profile.body.data.childrens.map((c: { class: string; class_pending: boolean; exams: unknown[] }) => [c.class, c.class_pending, c.exams.length])).toEqual([
    ['2A1', false, 0],
    ['5A3', false, 0],
  ]);

  const lastYear = await server.db.selectFrom('contestants').select('id').where('user_id', '=', parent.id).where('contest_id', '=', previous!.id).orderBy('position').execute();
  expect(lastYear).toHaveLength(2);
  const certificates = await server.request('GET', `/api/chilren-certificate?child_id=${lastYear[0]!.id}`, { token });
  expect(certificates.status).toBe(200);
  const code = certificates.body.data.certificates[0].code;
  const verified = await server.request('GET', `/api/certificates/verify/${code}`);
  expect(verified.body.data).toMatchObject({ name: 'Nguyễn Minh Anh', season: { name: previous!.name, current: false } });

  const admin = await server.db.selectFrom('users').select('id').where('phone', '=', demoAccounts.schoolAdmin.phone).executeTakeFirstOrThrow();
  const adminToken = await sessionAt(server.db, admin.id, server.clock.now());
  const report = await server.request('GET', `/api/report-school?season=${previous!.id}`, { token: adminToken });
  expect(report.status).toBe(200);
  expect(report.body.results_published).toBe(true);
  expect(report.body.data.score.map((row: { fullname: string; class: string }) => [row.fullname, row.class]).sort()).toEqual([
    ['Nguyễn Minh Anh', '1A1'],
    ['Nguyễn Đức Trường', '4A3'],
  ]);
  const now = await server.request('GET', '/api/report-school', { token: adminToken });
  expect(now.body.seasons.map((s: { id: number; selected: boolean }) => [s.id, s.selected])).toEqual([
    [current!.id, true],
    [previous!.id, false],
  ]);
});

it('lets the organiser browse and export the previous season’s results, read-only', async () => {
  const previous = await server.db.selectFrom('contests').select(['id']).where('is_current', '=', false).executeTakeFirstOrThrow();
  const organiser = await createOrganiser(server);
  const prizes = await server.request('GET', `/api/admin/results/prizes?season=${previous.id}&kind=individual`, { token: organiser.token });
  expect(prizes.status).toBe(200);
  expect(JSON.stringify(prizes.body.data.items)).toContain('Nguyễn Đức Trường');
  const current = await server.request('GET', '/api/admin/results/prizes?kind=individual', { token: organiser.token });
  expect(JSON.stringify(current.body.data.items)).not.toContain('Nguyễn Đức Trường');
  const file = await fetch(`${server.url}/api/admin/results/exports/contestants.xlsx?season=${previous.id}`, { headers: { authorization: `Bearer ${organiser.token}` } });
  expect(file.status).toBe(200);
  expect(file.headers.get('content-type')).toContain('spreadsheetml');
  expect((await server.request('GET', '/api/admin/results/prizes?season=999999', { token: organiser.token })).status).toBe(404);
});
