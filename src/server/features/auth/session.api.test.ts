// Sessions: logout, expiry, password change (logged in and through a one-time link).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { createParent, createSchoolAdmin } from '../../test/factories';
import { MAX_LIVE_SESSIONS_PER_USER } from '../../../shared/rules';
import { issueResetLink } from './reset-links';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const HOUR = 3_600_000;
const login = (phone: string, password: string) => server.request('POST', '/api/login', { body: { phone, password } });
const profileStatus = async (token: string) => (await server.request('GET', '/api/profile', { token })).status;
const changePassword = (token: string | undefined, password: unknown, current?: unknown) =>
  server.request('POST', '/api/customer/change-password', { token, body: { password, ...(current === undefined ? {} : { current_password: current }) } });
const linkFor = (phone: string, hours?: number) => issueResetLink({ db: server.db, clock: server.clock, publicUrl: 'https://cuocthi.example' }, phone, hours);
const tokenOf = (url: string) => url.split('/').at(-1)!;
/** The answer to a password change that must give the current password and did not. */
const currentPasswordAsked = {
  success: false,
  code: 'invalid_input',
  message: 'Vui lòng nhập mật khẩu hiện tại.',
  errors: { current_password: 'Vui lòng nhập mật khẩu hiện tại.' },
  request_id: expect.any(String),
};

describe('POST /api/logout', () => {
  it('revokes the session: the token no longer works', async () => {
    const parent = await createParent(server);
    const { body } = await login(parent.phone, parent.password);
    const response = await server.request('POST', '/api/logout', { token: body.access_token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: 'Đăng xuất thành công' });
    expect(await profileStatus(body.access_token)).toBe(401);
    const again = await server.request('POST', '/api/logout', { token: body.access_token });
    expect(again.status).toBe(401);
    // Other sessions of the same user are untouched.
    expect(await profileStatus(parent.token)).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const response = await server.request('POST', '/api/logout');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, message: 'Vui lòng đăng nhập.' });
  });
});

describe('sessions', () => {
  it('last one day', async () => {
    const parent = await createParent(server);
    const { body } = await login(parent.phone, parent.password);
    server.clock.advance(23 * HOUR);
    expect(await profileStatus(body.access_token)).toBe(200);
    server.clock.advance(HOUR + 1_000);
    expect(await profileStatus(body.access_token)).toBe(401);
  });

  it('are stored hashed', async () => {
    const parent = await createParent(server);
    const { body } = await login(parent.phone, parent.password);
    const rows = await server.db.selectFrom('sessions').select('token_hash').where('user_id', '=', parent.id).execute();
    expect(rows.some((r) => r.token_hash === body.access_token)).toBe(false);
  });

  it(`are at most ${MAX_LIVE_SESSIONS_PER_USER} live per account: a new login ends the oldest`, async () => {
    const parent = await createParent(server);
    const tokens = [parent.token];
    for (let i = 0; i < MAX_LIVE_SESSIONS_PER_USER + 2; i += 1) tokens.push((await login(parent.phone, parent.password)).body.access_token);
    const statuses = await Promise.all(tokens.map(profileStatus));
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual(Array(MAX_LIVE_SESSIONS_PER_USER).fill(200));
  });
});

describe('GET /api/sessions and POST /api/sessions/:id/end', () => {
  const phoneUa = 'Mozilla/5.0 (Linux; Android 13; SM-A146P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
  const loginFrom = (phone: string, password: string, userAgent: string) =>
    server.request('POST', '/api/login', { body: { phone, password }, headers: { 'user-agent': userAgent } });

  it('lists the live sessions with their browser, newest first, and marks the caller\'s own', async () => {
    const parent = await createParent(server);
    const phone = (await loginFrom(parent.phone, parent.password, phoneUa)).body.access_token;
    const laptop = (await loginFrom(parent.phone, parent.password, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/133.0')).body.access_token;
    await server.request('POST', '/api/logout', { token: phone });
    const response = await server.request('GET', '/api/sessions', { token: laptop });
    expect(response.status).toBe(200);
    const sessions = response.body.data as { id: number; user_agent: string | null; current: boolean; ip: string }[];
    // The factory's session and the laptop's; the phone logged out.
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/133.0', current: true });
    expect(sessions[1]!.current).toBe(false);
    expect(sessions[0]!.ip).toBeTruthy();
  });

  it('ends another session of the account: its token stops working, the caller\'s does not', async () => {
    const parent = await createParent(server);
    const laptop = (await loginFrom(parent.phone, parent.password, 'laptop')).body.access_token;
    const { body } = await server.request('GET', '/api/sessions', { token: laptop });
    const other = (body.data as { id: number; current: boolean }[]).find((s) => !s.current)!;
    const response = await server.request('POST', `/api/sessions/${other.id}/end`, { token: laptop });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: 'Đã kết thúc phiên đăng nhập.' });
    expect(await profileStatus(parent.token)).toBe(401);
    expect(await profileStatus(laptop)).toBe(200);
    // Ended already: nothing to end.
    const again = await server.request('POST', `/api/sessions/${other.id}/end`, { token: laptop });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ success: false, message: 'Không tìm thấy phiên đăng nhập này (có thể đã kết thúc).' });
  });

  it("never ends another account's session, and refuses a malformed id", async () => {
    const parent = await createParent(server);
    const stranger = await createParent(server);
    const strangerSession = await server.db.selectFrom('sessions').select('id').where('user_id', '=', stranger.id).executeTakeFirstOrThrow();
    const response = await server.request('POST', `/api/sessions/${strangerSession.id}/end`, { token: parent.token });
    expect(response.status).toBe(404);
    expect(await profileStatus(stranger.token)).toBe(200);
    const malformed = await server.request('POST', '/api/sessions/abc/end', { token: parent.token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.success).toBe(false);
    expect((await server.request('GET', '/api/sessions')).status).toBe(401);
  });

  it('stores only printable text of a hostile User-Agent, shortened', async () => {
    const parent = await createParent(server);
    const token = (await loginFrom(parent.phone, parent.password, `A\u00ff${'x'.repeat(400)}`)).body.access_token;
    const { body } = await server.request('GET', '/api/sessions', { token });
    const mine = (body.data as { current: boolean; user_agent: string }[]).find((s) => s.current)!;
    expect(mine.user_agent).toMatch(/^Ax+$/);
    expect(mine.user_agent.length).toBe(300);
  });
});

describe('POST /api/customer/change-password', () => {
  it('sets the new password and ends every other session of the user', async () => {
    const parent = await createParent(server);
    const phoneSession = (await login(parent.phone, parent.password)).body.access_token;
    const laptopSession = (await login(parent.phone, parent.password)).body.access_token;
    const response = await changePassword(laptopSession, 'mat-khau-moi', parent.password);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: 'Đổi mật khẩu thành công.' });
    expect(await profileStatus(laptopSession)).toBe(200);
    expect(await profileStatus(phoneSession)).toBe(401);
    expect(await profileStatus(parent.token)).toBe(401);
    expect((await login(parent.phone, parent.password)).status).toBe(401);
    expect((await login(parent.phone, 'mat-khau-moi')).status).toBe(200);
  });

  it('checks the length and needs a session', async () => {
    const parent = await createParent(server);
    for (const password of ['12345', '', 42, undefined]) {
      const response = await changePassword(parent.token, password, parent.password);
      expect(response.status, String(password)).toBe(400);
      expect(response.body.errors.password).toBe('Mật khẩu phải chứa ít nhất 6 ký tự.');
    }
    const long = await changePassword(parent.token, 'x'.repeat(101), parent.password);
    expect(long.body.errors.password).toBe('Mật khẩu không được quá 100 ký tự.');
    expect((await changePassword(undefined, 'mat-khau-moi')).status).toBe(401);
    expect((await changePassword('revoked-or-made-up', 'mat-khau-moi')).status).toBe(401);
  });
});

describe('the current password (issue 21, row 7: a stolen session must not keep the account)', () => {
  const stillOld = async (parent: { phone: string; password: string }) => {
    expect((await login(parent.phone, parent.password)).status).toBe(200);
    expect((await login(parent.phone, 'mat-khau-ke-trom')).status).toBe(401);
  };

  it('is required from a logged-in session, and a wrong one changes nothing', async () => {
    const parent = await createParent(server);
    const missing = await changePassword(parent.token, 'mat-khau-ke-trom');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(currentPasswordAsked);
    for (const current of ['', 42]) expect((await changePassword(parent.token, 'mat-khau-ke-trom', current)).status).toBe(400);
    const wrong = await changePassword(parent.token, 'mat-khau-ke-trom', 'doan-bua');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'invalid_input', message: 'Mật khẩu hiện tại không đúng.', errors: { current_password: 'Mật khẩu hiện tại không đúng.' } });
    expect(wrong.body.request_id).toEqual(expect.any(String));
    await stillOld(parent);
    expect(await profileStatus(parent.token)).toBe(200);
  });

  it('ends the session at the fifth wrong guess', async () => {
    const parent = await createParent(server);
    const session = (await login(parent.phone, parent.password)).body.access_token;
    for (let i = 1; i <= 4; i += 1) expect((await changePassword(session, 'mat-khau-ke-trom', `doan-${i}`)).status).toBe(400);
    const fifth = await changePassword(session, 'mat-khau-ke-trom', 'doan-5');
    expect(fifth.status).toBe(401);
    expect(await profileStatus(session)).toBe(401);
    // Even the right password is too late for that session; the others go on.
    expect((await changePassword(session, 'mat-khau-ke-trom', parent.password)).status).toBe(401);
    expect(await profileStatus(parent.token)).toBe(200);
    await stillOld(parent);
  });

  it('is not asked once, within 30 minutes, from a session opened by an SMS code or a one-time link', async () => {
    const parent = await createParent(server);
    const viaLink = async () =>
      (await server.request('GET', `/api/customer/change-password?token=${tokenOf((await linkFor(parent.phone)).url)}`)).body.token as string;
    const first = await viaLink();
    expect((await changePassword(first, 'mat-khau-moi-1')).status).toBe(200);
    // Once: the next change from the same session asks for the current password.
    expect((await changePassword(first, 'mat-khau-moi-2')).status).toBe(400);
    expect((await changePassword(first, 'mat-khau-moi-2', 'mat-khau-moi-1')).status).toBe(200);

    const late = await viaLink();
    server.clock.advance(30 * 60_000 + 1_000);
    expect((await changePassword(late, 'mat-khau-moi-3')).body.errors).toEqual(currentPasswordAsked.errors);
    expect((await login(parent.phone, 'mat-khau-moi-2')).status).toBe(200);
  });
});

describe('a session opened by a one-time link sets the password once (issue 35)', () => {
  it('of 8 concurrent changes through it, exactly one sets the password; the others are asked for the current one', async () => {
    const parent = await createParent(server);
    const exchanged = await server.request('GET', `/api/customer/change-password?token=${tokenOf((await linkFor(parent.phone)).url)}`);
    const session = exchanged.body.token as string;
    const passwords = Array.from({ length: 8 }, (_, i) => `mat-khau-dua-${i}`);
    const answers = await Promise.all(passwords.map((password) => changePassword(session, password)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(7);
    for (const refused of answers.filter((answer) => answer.status === 400)) expect(refused.body).toEqual(currentPasswordAsked);
    // The password is the winner's, and only the winner's.
    const winner = passwords[statuses.indexOf(200)]!;
    const logins = await Promise.all(passwords.map(async (password) => (await login(parent.phone, password)).status));
    expect(logins).toEqual(passwords.map((password) => (password === winner ? 200 : 401)));
    // The session goes on, and its next change needs the current password.
    expect(await profileStatus(session)).toBe(200);
    expect((await changePassword(session, 'mat-khau-sau')).status).toBe(400);
    expect((await changePassword(session, 'mat-khau-sau', winner)).status).toBe(200);
  });
});

describe('GET /api/customer/change-password?token= (one-time links)', () => {
  it('exchanges a link once for a session that can set the password', async () => {
    const admin = await createSchoolAdmin(server);
    const link = await linkFor(admin.phone);
    expect(link.url).toMatch(/^https:\/\/cuocthi\.example\/doi-mat-khau\/[A-Za-z0-9_-]{40,}$/);
    expect(link.expiresAt.getTime() - server.clock.now().getTime()).toBe(72 * HOUR);
    const token = tokenOf(link.url);
    const stored = await server.db.selectFrom('password_reset_tokens').select('token_hash').where('user_id', '=', admin.id).execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(token);

    const response = await server.request('GET', `/api/customer/change-password?token=${token}`);
    expect(response.status).toBe(200);
    // The link ends the account's other sessions, as a password change does.
    expect(await profileStatus(admin.token)).toBe(401);
    expect(response.body).toEqual({
      success: true,
      token: expect.any(String),
      user: { id: admin.id, phone: admin.phone, name: 'Quản trị trường', is_admin_school: 1, role: 'school_admin' },
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect((await changePassword(response.body.token, 'truong-moi-1')).status).toBe(200);
    expect((await login(admin.phone, 'truong-moi-1')).status).toBe(200);

    const reused = await server.request('GET', `/api/customer/change-password?token=${token}`);
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ success: false, message: 'Liên kết đổi mật khẩu không hợp lệ, đã được sử dụng hoặc đã hết hạn.' });
  });

  it('refuses an expired link, a replaced link and a made-up one', async () => {
    const parent = await createParent(server);
    const short = await linkFor(parent.phone, 1);
    server.clock.advance(HOUR + 1_000);
    expect((await server.request('GET', `/api/customer/change-password?token=${tokenOf(short.url)}`)).status).toBe(400);

    const first = await linkFor(parent.phone);
    const second = await linkFor(parent.phone);
    expect((await server.request('GET', `/api/customer/change-password?token=${tokenOf(first.url)}`)).status).toBe(400);
    expect((await server.request('GET', `/api/customer/change-password?token=${tokenOf(second.url)}`)).status).toBe(200);

    for (const query of ['', '?token=', '?token=short', `?token=${'a'.repeat(43)}`]) {
      const response = await server.request('GET', `/api/customer/change-password${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.success).toBe(false);
    }
  });

  it('refuses to issue a link for an unknown phone', async () => {
    await expect(linkFor('0399999998')).rejects.toMatchObject({ status: 404 });
  });
});
