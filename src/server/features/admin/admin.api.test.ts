// The back office's common ground: who may call /api/admin, the upload checks shared by every
// import, uploaded media and the audit log (the templates: templates.api.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { createEveryRole, uploadForm, type CreatedUser } from '../../test/factories';
import { recordAudit } from './kit/audit';

let server: TestServer;
let organiser: CreatedUser;
let parent: CreatedUser;
let schoolAdmin: CreatedUser;

beforeAll(async () => {
  server = await startTestServer();
  ({ organiser, parent, schoolAdmin } = await createEveryRole(server));
});
afterAll(() => server.close());

describe('/api/admin permissions', () => {
  it('answers 401 without a session and 403 for parents and school administrators', async () => {
    for (const path of ['/api/admin/audit', '/api/admin/templates/schools.xlsx', '/api/admin/no-such-route']) {
      expect((await server.request('GET', path)).status).toBe(401);
      expect((await server.request('GET', path, { token: parent.token })).status).toBe(403);
      const refused = await server.request('GET', path, { token: schoolAdmin.token });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: false, code: 'forbidden' });
    }
  });

  it('refuses an upload from a parent before reading it', async () => {
    const response = await server.request('POST', '/api/admin/schools/import', { token: parent.token, body: uploadForm('a.csv', 'x') });
    expect(response.status).toBe(403);
  });
});

describe('audit log', () => {
  it('lists entries newest first, filtered by kind, actor and date, and refuses edits', async () => {
    await recordAudit(server.db, organiser, { kind: 'school.update', summary: 'Sửa trường A', details: { before: { name: 'A' }, after: { name: 'B' } } });
    await recordAudit(server.db, organiser, { kind: 'news.create', summary: 'Đăng tin B' });
    const all = await server.request('GET', '/api/admin/audit', { token: organiser.token });
    expect(all.status).toBe(200);
    expect(all.body.data.items.map((entry: { summary: string }) => entry.summary).slice(0, 2)).toEqual(['Đăng tin B', 'Sửa trường A']);
    const schools = await server.request('GET', '/api/admin/audit?kind=school', { token: organiser.token });
    expect(schools.body.data.items).toHaveLength(1);
    expect(schools.body.data.items[0]).toMatchObject({ actor_phone: organiser.phone, actor_name: 'Ban tổ chức', kind: 'school.update', details: { after: { name: 'B' } } });
    // The actor filter reads the name too.
    expect((await server.request('GET', `/api/admin/audit?actor=${encodeURIComponent('tổ chức')}&kind=school`, { token: organiser.token })).body.data.total).toBe(1);
    const byOther = await server.request('GET', `/api/admin/audit?actor=${parent.phone}`, { token: organiser.token });
    expect(byOther.body.data.total).toBe(0);
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect((await server.request('GET', `/api/admin/audit?from=${tomorrow}`, { token: organiser.token })).body.data.total).toBe(0);
    const bad = await server.request('GET', '/api/admin/audit?from=hôm-qua', { token: organiser.token });
    expect(bad.status).toBe(400);
    await expect(server.db.updateTable('audit_log').set({ summary: 'đổi' }).execute()).rejects.toThrow(/cannot be changed/);
    await expect(server.db.deleteFrom('audit_log').execute()).rejects.toThrow(/cannot be changed/);
  });
});
