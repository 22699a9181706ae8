import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../db/seed/demo-accounts';
import { startTestServer, type TestServer } from '../../test/harness';
import { createParent } from '../../test/factories';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('POST /api/login', () => {
  it('logs a parent in: token, user and message; the token opens protected calls', async () => {
    const parent = await createParent(server);
    const response = await server.request('POST', '/api/login', { body: { phone: parent.phone, password: parent.password } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      message: 'Đăng nhập thành công.',
      access_token: expect.any(String),
      user: { id: parent.id, phone: parent.phone, name: '', is_admin_school: 0, role: 'parent' },
      // Agreed to the current privacy notice (factories): nothing to ask (issue 15).
      consent_required: false,
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
    const profile = await server.request('POST', '/api/logout', { token: response.body.access_token });
    expect(profile.status).toBe(200);
  });

  it('marks the demo school administrator with is_admin_school 1 and the organiser with 0', async () => {
    const admin = await server.request('POST', '/api/login', {
      body: { phone: demoAccounts.schoolAdmin.phone, password: demoAccounts.schoolAdmin.password },
    });
    expect(admin.body.user).toMatchObject({ is_admin_school: 1, role: 'school_admin', name: demoAccounts.schoolAdmin.name });
    const organiser = await server.request('POST', '/api/login', {
      body: { phone: demoAccounts.organiser.phone, password: demoAccounts.organiser.password },
    });
    expect(organiser.body.user).toMatchObject({ is_admin_school: 0, role: 'organiser' });
  });

  it('accepts spaces in the phone and an 11-digit number starting 02 as a format', async () => {
    const parent = await createParent(server);
    const spaced = `${parent.phone.slice(0, 4)} ${parent.phone.slice(4, 7)} ${parent.phone.slice(7)}`;
    const ok = await server.request('POST', '/api/login', { body: { phone: spaced, password: parent.password } });
    expect(ok.status).toBe(200);
    const landline = await server.request('POST', '/api/login', { body: { phone: '02812345678', password: 'whatever1' } });
    expect(landline.status).toBe(401);
  });

  it('refuses a bad phone format or an empty password with field errors', async () => {
    for (const phone of ['0123456789', '091234567', '09123456789', 'abc', '']) {
      const response = await server.request('POST', '/api/login', { body: { phone, password: 'matkhau123' } });
      expect(response.status, phone).toBe(400);
      expect(response.body).toMatchObject({ success: false, errors: { phone: 'Số điện thoại không hợp lệ.' } });
    }
    const empty = await server.request('POST', '/api/login', { body: { phone: '0912345678', password: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.password).toBe('Vui lòng nhập mật khẩu.');
    const missing = await server.request('POST', '/api/login', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.phone).toBe('Số điện thoại không hợp lệ.');
  });

  it('answers a wrong password and an unknown phone the same way', async () => {
    const parent = await createParent(server);
    const wrong = await server.request('POST', '/api/login', { body: { phone: parent.phone, password: 'sai-mat-khau' } });
    const unknown = await server.request('POST', '/api/login', { body: { phone: '0399999999', password: 'sai-mat-khau' } });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'invalid_credentials', message: 'Số điện thoại hoặc mật khẩu không đúng.', request_id: expect.any(String) });
    }
  });
});
