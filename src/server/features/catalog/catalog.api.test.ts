import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { createOrganiser } from '../../test/factories';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('catalogue API', () => {
  it('lists districts, their schools, class groups and class rooms', async () => {
    const districts = await server.request('GET', '/api/districts');
    expect(districts.status).toBe(200);
    expect(districts.body.success).toBe(true);
    expect(districts.body.data.length).toBeGreaterThanOrEqual(3);

    const schools = await server.request('GET', `/api/schools?district_id=${districts.body.data[0].id}`);
    expect(schools.status).toBe(200);
    expect(schools.body.data[0]).toEqual({ id: expect.any(Number), name: expect.any(String), address: expect.any(String) });

    const groups = await server.request('GET', '/api/class-groups');
    expect(groups.body.data.map((g: { name: string; grades: string }) => [g.name, g.grades])).toEqual([
      ['Nhóm 1', '1-2'],
      ['Nhóm 2', '3-4'],
      ['Nhóm 3', '5'],
    ]);

    const rooms = await server.request('GET', `/api/class-rooms?class_group_id=${groups.body.data[2].id}`);
    expect(rooms.body.data.map((r: { name: string }) => r.name)).toContain('5A1');
  });

  it("lists only districts that have a school: a new, still-empty district appears in the back office at once, in parents' lists with its first school", async () => {
    const { token } = await createOrganiser(server);
    const publicNames = async () => (await server.request('GET', '/api/districts')).body.data.map((d: { name: string }) => d.name);
    const district = await server.request('POST', '/api/admin/districts', { token, body: { name: 'Huyện Mới Lập' } });
    expect(district.status).toBe(200);
    const admin = await server.request('GET', '/api/admin/districts?q=Mới Lập', { token });
    expect(admin.body.data.items).toEqual([expect.objectContaining({ name: 'Huyện Mới Lập', schools: 0 })]);
    expect(await publicNames()).not.toContain('Huyện Mới Lập');

    const school = await server.request('POST', '/api/admin/schools', { token, body: { district_id: district.body.data.id, name: 'Trường Tiểu học Mới Lập', address: '', pupil_count: 120 } });
    expect(school.status, JSON.stringify(school.body)).toBe(200);
    expect(await publicNames()).toContain('Huyện Mới Lập');
    // Every district the parents see has a school to choose.
    const districts = (await server.request('GET', '/api/districts')).body.data as { id: number }[];
    for (const { id } of districts) expect((await server.request('GET', `/api/schools?district_id=${id}`)).body.data.length, String(id)).toBeGreaterThan(0);
  });

  it('answers 400 with the error shape for a missing or malformed parameter', async () => {
    for (const path of ['/api/schools', '/api/schools?district_id=abc', '/api/schools?district_id=-1', '/api/class-rooms?class_group_id=1.5']) {
      const response = await server.request('GET', path);
      expect(response.status, path).toBe(400);
      expect(response.body).toMatchObject({ success: false, message: expect.any(String) });
    }
  });

  it('answers an unknown school district with an empty list', async () => {
    const response = await server.request('GET', '/api/schools?district_id=999999');
    expect(response.body).toEqual({ success: true, data: [] });
  });

  it('answers an unknown /api path with a JSON 404, whatever the Accept header', async () => {
    const response = await server.request('GET', '/api/does-not-exist', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, message: expect.any(String) });
  });
});
