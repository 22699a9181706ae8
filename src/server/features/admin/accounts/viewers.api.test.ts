// The education offices' viewers in the back office (issue 41): created one by one (a province
// viewer, a unit viewer) with a one-time set-password link by SMS, validation in Vietnamese keyed
// by field, a phone of another role refused, listed with their scope and filtered by role, locked,
// unlocked and given a reset link like any account; imported from a file (dry run, then stored,
// units matched with accents and case aside, an unknown unit a row error); the database's rules
// (no school, units for a unit viewer only), a district merge carrying its viewers along, the
// login (is_admin_school 0) and the family routes refusing them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import readExcelFile from 'read-excel-file/node';
import { sql } from 'kysely';
import { templateColumns } from '../../../../shared/schemas/admin';
import { adminAccountMessages } from '../../../../shared/schemas/admin-accounts';
import { viewerMessages } from '../../../../shared/schemas/viewers';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createOrganiser, createParent, createSchoolAdmin, createViewer, nextPhone, uploadForm, type CreatedUser } from '../../../test/factories';

let server: TestServer;
let organiser: CreatedUser;
let districts: { id: number; name: string }[];

const as = (method: string, path: string, body?: unknown, token = organiser.token) => server.request(method, path, { token, body });

async function xlsx(rows: string[][], header: readonly string[] = templateColumns.viewers): Promise<Buffer> {
  const data = [header, ...rows].map((row) => row.map((value) => ({ value, type: String })));
  return Buffer.from(await writeExcelFile(data as never).toBuffer());
}
const importFile = async (rows: string[][], fields: Record<string, string> = {}) =>
  server.request('POST', '/api/admin/viewers/import', { token: organiser.token, body: uploadForm('tai-khoan-xem.xlsx', await xlsx(rows), fields) });

async function useLink(url: string, password: string) {
  const token = url.split('/doi-mat-khau/')[1]!;
  const exchanged = await server.request('GET', `/api/customer/change-password?token=${encodeURIComponent(token)}`);
  expect(exchanged.status).toBe(200);
  return server.request('POST', '/api/customer/change-password', { token: exchanged.body.token, body: { password } });
}
const unitsOf = async (userId: number) =>
  (await server.db.selectFrom('viewer_units').select('district_id').where('user_id', '=', userId).orderBy('district_id').execute()).map((r) => r.district_id);

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  districts = await server.db.selectFrom('districts').select(['id', 'name']).orderBy('id').execute();
});
afterAll(() => server?.close());

describe('POST /api/admin/viewers', () => {
  it('is the organiser’s only', async () => {
    const body = { phone: nextPhone(), name: 'Sở GD', kind: 'province' };
    expect((await server.request('POST', '/api/admin/viewers', { body })).status).toBe(401);
    for (const user of [await createParent(server), await createSchoolAdmin(server), await createViewer(server)]) {
      expect((await as('POST', '/api/admin/viewers', body, user.token)).status).toBe(403);
      expect((await as('POST', '/api/admin/viewers/import', undefined, user.token)).status).toBe(403);
    }
  });

  it('creates a province viewer with a one-time link sent by SMS, audited; it logs in and lands on its area', async () => {
    const phone = nextPhone();
    const created = await as('POST', '/api/admin/viewers', { phone, name: 'Sở Giáo dục và Đào tạo', kind: 'province' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ phone, sms_sent: true });
    expect(created.body.data.url).toMatch(/\/doi-mat-khau\/.+/);
    expect(server.outbox().some((sms) => sms.phone === phone && sms.message.includes(created.body.data.url))).toBe(true);
    const user = await server.db.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: 'province_viewer', school_id: null });
    expect(await unitsOf(user.id)).toEqual([]);
    const audit = await server.db.selectFrom('audit_log').selectAll().where('kind', '=', 'account.create').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(audit.summary).toBe(viewerMessages.audit.created(phone, 'Sở Giáo dục và Đào tạo', viewerMessages.wholeProvince));

    expect((await useLink(created.body.data.url, 'xemtinh123')).status).toBe(200);
    const login = await server.request('POST', '/api/login', { body: { phone, password: 'xemtinh123' } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ role: 'province_viewer', is_admin_school: 0 });
    const scope = await server.request('GET', '/api/viewer/scope', { token: login.body.access_token });
    expect(scope.status).toBe(200);
    // No family: the profile and the family's routes refuse it with a Vietnamese message.
    for (const [method, path, body] of [
      ['GET', '/api/profile'],
      ['POST', '/api/customer/profile', { childrens: [] }],
      ['GET', '/api/report-parent'],
      ['GET', '/api/report-school'],
      ['GET', '/api/practice/status'],
    ] as [string, string, unknown?][]) {
      const refused = await server.request(method, path, { token: login.body.access_token, body });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.success).toBe(false);
      expect(typeof refused.body.message).toBe('string');
    }
    expect((await server.request('GET', '/api/profile', { token: login.body.access_token })).body.message).toBe(viewerMessages.noFamily);
  });

  it('creates a unit viewer of several units', async () => {
    const phone = nextPhone();
    const ids = [districts[1]!.id, districts[0]!.id];
    const created = await as('POST', '/api/admin/viewers', { phone, name: 'Phòng GD', kind: 'unit', district_ids: ids });
    expect(created.status).toBe(200);
    expect(await unitsOf(created.body.data.account_id)).toEqual([...ids].sort((a, b) => a - b));
    const listed = await as('GET', `/api/admin/accounts?q=${phone}`);
    expect(listed.body.data.items[0]).toMatchObject({ role: 'unit_viewer', scope: [districts[0]!.name, districts[1]!.name].sort((a, b) => a.localeCompare(b, 'vi')).join(', '), school_name: null });
  });

  it('answers Vietnamese errors keyed by field', async () => {
    const cases: [unknown, string, string][] = [
      [{ phone: nextPhone(), name: 'A' }, 'kind', viewerMessages.kindRequired],
      [{ phone: nextPhone(), name: 'A', kind: 'unit' }, 'district_ids', viewerMessages.unitsRequired],
      [{ phone: nextPhone(), name: 'A', kind: 'province', district_ids: [districts[0]!.id] }, 'district_ids', viewerMessages.provinceHasNoUnits],
      [{ phone: nextPhone(), name: '', kind: 'province' }, 'name', adminAccountMessages.nameRequired],
    ];
    for (const [body, field, message] of cases) {
      const refused = await as('POST', '/api/admin/viewers', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors[field]).toBe(message);
    }
    const tooMany = await as('POST', '/api/admin/viewers', { phone: nextPhone(), name: 'A', kind: 'unit', district_ids: Array.from({ length: 51 }, (_, i) => i + 1) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.district_ids).toBe(viewerMessages.unitsTooMany(50));
    const unknown = await as('POST', '/api/admin/viewers', { phone: nextPhone(), name: 'A', kind: 'unit', district_ids: [999_999] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.district_ids).toBe(viewerMessages.unitUnknown);
  });

  it('refuses a phone that belongs to another account, saying whose', async () => {
    const parent = await createParent(server);
    const refused = await as('POST', '/api/admin/viewers', { phone: parent.phone, name: 'A', kind: 'province' });
    expect(refused.status).toBe(409);
    expect(refused.body.errors.phone).toBe(viewerMessages.phoneTakenBy('phụ huynh'));
    expect((await server.db.selectFrom('users').select('role').where('phone', '=', parent.phone).executeTakeFirstOrThrow()).role).toBe('parent');
  });
});

describe('the accounts list, lock, unlock, reset link', () => {
  it('filters by the viewer roles and gives every other role a null scope', async () => {
    const province = await as('GET', '/api/admin/accounts?role=province_viewer&per_page=100');
    expect(province.status).toBe(200);
    expect(province.body.data.items.length).toBeGreaterThan(0);
    for (const item of province.body.data.items) expect(item).toMatchObject({ role: 'province_viewer', scope: viewerMessages.wholeProvince });
    const units = await as('GET', '/api/admin/accounts?role=unit_viewer');
    for (const item of units.body.data.items) expect(item.scope).toBeTruthy();
    const others = await as('GET', '/api/admin/accounts?role=organiser');
    for (const item of others.body.data.items) expect(item.scope).toBeNull();
  });

  it('locks, unlocks and issues a reset link to a viewer like any account', async () => {
    const viewer = await createViewer(server, [districts[0]!.id]);
    expect((await as('POST', `/api/admin/accounts/${viewer.id}/lock`)).body.data.sessions_ended).toBe(1);
    expect((await server.request('POST', '/api/login', { body: { phone: viewer.phone, password: viewer.password } })).status).toBe(403);
    expect((await as('POST', `/api/admin/accounts/${viewer.id}/unlock`)).status).toBe(200);
    expect((await server.request('POST', '/api/login', { body: { phone: viewer.phone, password: viewer.password } })).status).toBe(200);
    const link = await as('POST', `/api/admin/accounts/${viewer.id}/reset-link`);
    expect(link.status).toBe(200);
    expect(link.body.data.url).toMatch(/\/doi-mat-khau\//);
    const detail = await as('GET', `/api/admin/accounts/${viewer.id}`);
    expect(detail.body.data).toMatchObject({ role: 'unit_viewer', scope: districts[0]!.name, contestants: [] });
  });
});

describe('POST /api/admin/viewers/import', () => {
  it('checks a file without storing it (dry run), then stores it with a link per new account', async () => {
    const [p1, p2] = [nextPhone(), nextPhone()];
    // Units without accents and in another case, two of them separated by ";"; empty: the province.
    const plain = (name: string) => name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/đ/g, 'd').replace(/Đ/g, 'D').toUpperCase();
    const rows = [
      [p1, 'Sở Giáo dục', ''],
      [p2, 'Phòng GD hai đơn vị', `${plain(districts[0]!.name)}; ${districts[1]!.name.toLowerCase()}`],
    ];
    const dry = await importFile(rows, { dry_run: 'true' });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ dry_run: true, created: 2, updated: 0, unchanged: 0, links: [] });
    expect(await server.db.selectFrom('users').select('id').where('phone', 'in', [p1, p2]).execute()).toEqual([]);

    const stored = await importFile(rows);
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({ dry_run: false, created: 2, sms_failed: [] });
    expect(stored.body.data.links.map((l: { phone: string }) => l.phone).sort()).toEqual([p1, p2].sort());
    const users = await server.db.selectFrom('users').select(['id', 'phone', 'role']).where('phone', 'in', [p1, p2]).execute();
    const byPhone = new Map(users.map((u) => [u.phone, u]));
    expect(byPhone.get(p1)!.role).toBe('province_viewer');
    expect(byPhone.get(p2)!.role).toBe('unit_viewer');
    expect(await unitsOf(byPhone.get(p2)!.id)).toEqual([districts[0]!.id, districts[1]!.id]);
    expect((await server.db.selectFrom('audit_log').select('kind').where('kind', '=', 'viewers.import').execute()).length).toBe(1);

    // The same file again: nothing changes; a new scope for one of them: updated (province -> unit).
    expect((await importFile(rows)).body.data).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const moved = await importFile([[p1, 'Sở Giáo dục', districts[2]!.name]]);
    expect(moved.body.data).toMatchObject({ created: 0, updated: 1 });
    expect((await server.db.selectFrom('users').select('role').where('phone', '=', p1).executeTakeFirstOrThrow()).role).toBe('unit_viewer');
    expect(await unitsOf(byPhone.get(p1)!.id)).toEqual([districts[2]!.id]);
  });

  it('refuses the file with row errors: an unknown unit named, a phone of another role, a bad phone', async () => {
    const admin = await createSchoolAdmin(server);
    const refused = await importFile([
      [nextPhone(), 'A', `${districts[0]!.name}; Huyện Không Có`],
      [admin.phone, 'B', ''],
      ['12345', 'C', ''],
    ]);
    expect(refused.status).toBe(422);
    const messages = refused.body.errors.map((e: { message: string }) => e.message).join('\n');
    expect(messages).toContain(viewerMessages.unitNotInCatalogue('Huyện Không Có'));
    expect(messages).toContain(viewerMessages.phoneOfOtherRole('quản trị trường'));
    expect(messages).toContain('không phải số di động hợp lệ');
  });

  it('has a template with the columns and a guide', async () => {
    const response = await fetch(`${server.url}/api/admin/templates/viewers.xlsx`, { headers: { authorization: `Bearer ${organiser.token}` } });
    expect(response.status).toBe(200);
    const sheets = await readExcelFile(Buffer.from(await response.arrayBuffer()));
    expect(sheets[0]!.data[0]).toEqual([...templateColumns.viewers]);
  });
});

describe('the database’s rules and the catalogue', () => {
  it('refuses a unit viewer without units, units of another role, and a viewer with a school', async () => {
    const insert = (role: 'unit_viewer' | 'province_viewer', schoolId: number | null = null) =>
      server.db.insertInto('users').values({ phone: nextPhone(), password_hash: '!unset', role, school_id: schoolId }).returning('id').executeTakeFirstOrThrow();
    await expect(insert('unit_viewer')).rejects.toMatchObject({ code: '23514' });
    const school = await server.db.selectFrom('schools').select('id').limit(1).executeTakeFirstOrThrow();
    await expect(insert('province_viewer', school.id)).rejects.toMatchObject({ code: '23514' });
    await expect(
      server.db.transaction().execute(async (trx) => {
        const user = await trx.insertInto('users').values({ phone: nextPhone(), password_hash: '!unset', role: 'province_viewer', school_id: null }).returning('id').executeTakeFirstOrThrow();
        await trx.insertInto('viewer_units').values({ user_id: user.id, district_id: districts[0]!.id }).execute();
      }),
    ).rejects.toMatchObject({ code: '23514' });
    // The last unit taken away from a unit viewer.
    const viewer = await createViewer(server, [districts[0]!.id]);
    await expect(server.db.deleteFrom('viewer_units').where('user_id', '=', viewer.id).execute()).rejects.toMatchObject({ code: '23514' });
  });

  it('a district merged into another carries its viewers along; a district with viewers is not deleted', async () => {
    const [from, into] = (
      await Promise.all(
        ['Huyện Gộp Đi', 'Huyện Nhận Về'].map((name) => as('POST', '/api/admin/districts', { name })),
      )
    ).map((r) => r.body.data as { id: number });
    const alone = await createViewer(server, [from!.id]);
    const both = await createViewer(server, [from!.id, into!.id]);
    const deleted = await as('DELETE', `/api/admin/districts/${from!.id}`);
    expect(deleted.status).toBe(409);
    const merged = await as('POST', `/api/admin/districts/${from!.id}/merge`, { into_id: into!.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(await unitsOf(alone.id)).toEqual([into!.id]);
    expect(await unitsOf(both.id)).toEqual([into!.id]);
    const left = await sql<{ n: string }>`SELECT count(*) AS n FROM viewer_units WHERE district_id = ${from!.id}`.execute(server.db);
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});
