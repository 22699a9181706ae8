// One-time codes through the API: send-otp, register and forgot password.
import { mkdirSync, renameSync, rmdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { createParent, nextPhone } from '../../test/factories';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const MINUTE = 60_000;

function lastCode(phone: string, target = server): string {
  const message = target.outbox().filter((m) => m.phone === phone).at(-1);
  const code = message?.message.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code sent to ${phone}`);
  return code;
}
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

const sendRegisterOtp = (phone: string, password = 'matkhau1', target = server, headers?: Record<string, string>) =>
  target.request('POST', '/api/send-otp', { body: { phone, is_register: 1, password }, headers });
const sendForgotOtp = (phone: string, target = server, headers?: Record<string, string>) =>
  target.request('POST', '/api/send-otp', { body: { phone }, headers });
const register = (phone: string, otp: string, password = 'matkhau1') =>
  server.request('POST', '/api/register', { body: { phone, password, otp, consent: true } });

describe('POST /api/send-otp', () => {
  it('sends a 6-digit code in an unaccented SMS and stores only its hash', async () => {
    const phone = nextPhone();
    const response = await sendRegisterOtp(phone);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      message: 'Mã OTP đã được gửi tới số điện thoại của bạn, có hiệu lực trong 10 phút.',
      resend_after: 60,
    });
    const sms = server.outbox().filter((m) => m.phone === phone);
    expect(sms).toHaveLength(1);
    expect(sms[0]!.message).toMatch(/^Ma xac thuc cuoc thi Dai su Van hoa doc: \d{6}\. Ma co hieu luc 10 phut\./);
    // eslint-disable-next-line no-control-regex
    expect(sms[0]!.message).toMatch(/^[\x00-\x7f]+$/);
    const code = lastCode(phone);
    const rows = await server.db.selectFrom('otp_codes').selectAll().where('phone', '=', phone).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: 'register', status: 'sent', attempts: 0, used_at: null });
    expect(rows[0]!.code_hash).not.toContain(code);
    expect(rows[0]!.expires_at.getTime() - rows[0]!.created_at.getTime()).toBe(10 * MINUTE);
  });

  it('checks the phone format and, for registration, the password first', async () => {
    for (const phone of ['0123456789', '02812345678', '091234567', 'abcdefghij', '']) {
      const response = await sendRegisterOtp(phone);
      expect(response.status, phone).toBe(400);
      expect(response.body.errors.phone).toBe('Số điện thoại không hợp lệ.');
    }
    const phone = nextPhone();
    for (const password of ['12345', '', undefined]) {
      const response = await server.request('POST', '/api/send-otp', { body: { phone, is_register: 1, password } });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual({ password: 'Mật khẩu phải chứa ít nhất 6 ký tự.' });
    }
    expect(server.outbox().filter((m) => m.phone === phone)).toHaveLength(0);
  });

  it('sends a registration code only to a phone without an account, a recovery code only to one with', async () => {
    const parent = await createParent(server);
    const taken = await sendRegisterOtp(parent.phone);
    expect(taken.status).toBe(409);
    expect(taken.body.errors.phone).toBe('Số điện thoại đã được đăng ký. Vui lòng đăng nhập.');
    const unknown = await sendForgotOtp(nextPhone());
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.phone).toBe('Số điện thoại chưa được đăng ký tài khoản.');
    const ok = await sendForgotOtp(parent.phone);
    expect(ok.status).toBe(200);
  });

  it('makes the caller wait 60 s before another code for the same phone and purpose; the new code replaces the old', async () => {
    const phone = nextPhone();
    expect((await sendRegisterOtp(phone)).status).toBe(200);
    const first = lastCode(phone);
    server.clock.advance(20_000);
    const early = await sendRegisterOtp(phone);
    expect(early.status).toBe(429);
    expect(early.body.errors.phone).toBe('Vui lòng đợi 40 giây trước khi lấy mã OTP mới.');
    expect(early.body.resend_after).toBe(40);
    server.clock.advance(40_000);
    expect((await sendRegisterOtp(phone)).status).toBe(200);
    const second = lastCode(phone);
    if (first !== second) {
      const old = await register(phone, first);
      expect(old.status).toBe(400);
      expect(old.body.errors.otp).toBe('Mã OTP không đúng. Bạn còn 4 lần thử.');
    }
    expect((await register(phone, second)).status).toBe(200);
  });

  it('does not burn anything when the SMS cannot be delivered: the old code stays valid, no cooldown', async () => {
    const outbox = join(server.dataDir, 'sms-outbox.jsonl');
    const breakOutbox = () => {
      renameSync(outbox, `${outbox}.bak`);
      mkdirSync(outbox);
    };
    const repairOutbox = () => {
      rmdirSync(outbox);
      renameSync(`${outbox}.bak`, outbox);
    };

    const phone = nextPhone();
    expect((await sendRegisterOtp(phone)).status).toBe(200);
    const delivered = lastCode(phone);
    server.clock.advance(MINUTE);
    breakOutbox();
    let failed;
    try {
      failed = await sendRegisterOtp(phone);
    } finally {
      repairOutbox();
    }
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ code: 'sms_failed', errors: { phone: 'Không gửi được tin nhắn chứa mã OTP. Vui lòng thử lại sau ít phút.' } });
    expect(await server.db.selectFrom('otp_codes').select('id').where('phone', '=', phone).execute()).toHaveLength(1);
    expect((await register(phone, delivered)).status).toBe(200);

    const other = nextPhone();
    breakOutbox();
    try {
      expect((await sendRegisterOtp(other)).status).toBe(503);
    } finally {
      repairOutbox();
    }
    expect((await sendRegisterOtp(other)).status).toBe(200);
    expect(existsSync(outbox)).toBe(true);
  });
});

describe('POST /api/register', () => {
  it('creates a parent and logs them in with the code from the SMS', async () => {
    const phone = nextPhone();
    await sendRegisterOtp(phone);
    const response = await register(phone, lastCode(phone), 'matkhau-moi');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      message: 'Đăng ký tài khoản thành công.',
      access_token: expect.any(String),
      user: { id: expect.any(Number), phone, name: '', is_admin_school: 0, role: 'parent' },
    });
    const profile = await server.request('GET', '/api/profile', { token: response.body.access_token });
    expect(profile.body.data).toMatchObject({ phone, childrens: [] });
    const login = await server.request('POST', '/api/login', { body: { phone, password: 'matkhau-moi' } });
    expect(login.status).toBe(200);
    const row = await server.db.selectFrom('users').select('password_hash').where('phone', '=', phone).executeTakeFirstOrThrow();
    expect(row.password_hash).not.toContain('matkhau-moi');
  });

  it('refuses a second registration of the same phone', async () => {
    const phone = nextPhone();
    await sendRegisterOtp(phone);
    const code = lastCode(phone);
    expect((await register(phone, code)).status).toBe(200);
    const again = await register(phone, code);
    expect(again.status).toBe(409);
    expect(again.body.errors.phone).toBe('Số điện thoại đã được đăng ký. Vui lòng đăng nhập.');
    expect((await sendRegisterOtp(phone)).status).toBe(409);
  });

  it('checks formats: phone, password of 6 characters, code of 6 digits', async () => {
    const bad = await server.request('POST', '/api/register', { body: { phone: '0212345678', password: '123', otp: '12ab', consent: true } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      phone: 'Số điện thoại không hợp lệ.',
      password: 'Mật khẩu phải chứa ít nhất 6 ký tự.',
      otp: 'Mã OTP gồm 6 chữ số.',
    });
    const none = await server.request('POST', '/api/register', { body: {} });
    expect(none.status).toBe(400);
  });

  it('refuses without a code sent, with an expired code and with a code of the other purpose', async () => {
    const never = nextPhone();
    const missing = await register(never, '123456');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.otp).toBe('Mã OTP không còn hiệu lực. Vui lòng bấm Gửi OTP để lấy mã mới.');

    const phone = nextPhone();
    await sendRegisterOtp(phone);
    const code = lastCode(phone);
    server.clock.advance(10 * MINUTE + 1_000);
    const expired = await register(phone, code);
    expect(expired.status).toBe(400);
    expect(expired.body.errors.otp).toBe('Mã OTP đã hết hạn. Vui lòng lấy mã mới.');

    const parent = await createParent(server);
    await sendForgotOtp(parent.phone);
    const recovery = lastCode(parent.phone);
    // A recovery code does not register anything (and the phone is taken anyway).
    const other = nextPhone();
    expect((await register(other, recovery)).status).toBe(400);
  });

  it('ends a code after 5 wrong tries: the 6th try fails even with the right code', async () => {
    const phone = nextPhone();
    await sendRegisterOtp(phone);
    const code = lastCode(phone);
    for (let left = 4; left >= 0; left -= 1) {
      const response = await register(phone, wrongCode(code));
      expect(response.status).toBe(400);
      expect(response.body.errors.otp).toBe(left > 0 ? `Mã OTP không đúng. Bạn còn ${left} lần thử.` : 'Mã OTP không đúng. Vui lòng lấy mã mới.');
    }
    const sixth = await register(phone, code);
    expect(sixth.status).toBe(400);
    expect(sixth.body.errors.otp).toBe('Mã OTP đã bị huỷ do nhập sai quá 5 lần. Vui lòng lấy mã mới.');
    // A new code (after the cooldown) works.
    server.clock.advance(MINUTE);
    await sendRegisterOtp(phone);
    expect((await register(phone, lastCode(phone))).status).toBe(200);
  });

  it('lets concurrent wrong guesses compare at most 5 times in all', async () => {
    const phone = nextPhone();
    await sendRegisterOtp(phone);
    const code = lastCode(phone);
    await Promise.all(Array.from({ length: 8 }, () => register(phone, wrongCode(code))));
    const row = await server.db.selectFrom('otp_codes').select('attempts').where('phone', '=', phone).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    expect((await register(phone, code)).status).toBe(400);
  });
});

describe('POST /api/forgot-password', () => {
  it('logs the user in with the recovery code, once', async () => {
    const parent = await createParent(server);
    await sendForgotOtp(parent.phone);
    const code = lastCode(parent.phone);
    const response = await server.request('POST', '/api/forgot-password', { body: { phone: parent.phone, otp: code } });
    expect(response.status).toBe(200);
    // Whoever held the forgotten password is logged out everywhere, as after a password change.
    expect((await server.request('GET', '/api/profile', { token: parent.token })).status).toBe(401);
    expect(response.body).toEqual({
      success: true,
      message: 'Xác thực thành công. Vui lòng đặt mật khẩu mới.',
      access_token: expect.any(String),
      user: { id: parent.id, phone: parent.phone, name: '', is_admin_school: 0, role: 'parent' },
    });
    const change = await server.request('POST', '/api/customer/change-password', { token: response.body.access_token, body: { password: 'mat-khau-moi' } });
    expect(change.status).toBe(200);

    const reused = await server.request('POST', '/api/forgot-password', { body: { phone: parent.phone, otp: code } });
    expect(reused.status).toBe(400);
    expect(reused.body.errors.otp).toBe('Mã OTP đã được sử dụng. Vui lòng lấy mã mới.');
  });

  it('refuses an unknown phone, a bad format and a wrong code', async () => {
    const unknown = await server.request('POST', '/api/forgot-password', { body: { phone: nextPhone(), otp: '123456' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.phone).toBe('Số điện thoại chưa được đăng ký tài khoản.');
    const format = await server.request('POST', '/api/forgot-password', { body: { phone: '12345', otp: '1234567' } });
    expect(format.body.errors).toEqual({ phone: 'Số điện thoại không hợp lệ.', otp: 'Mã OTP gồm 6 chữ số.' });
    const parent = await createParent(server);
    await sendForgotOtp(parent.phone);
    const wrong = await server.request('POST', '/api/forgot-password', { body: { phone: parent.phone, otp: wrongCode(lastCode(parent.phone)) } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.otp).toMatch(/^Mã OTP không đúng/);
  });
});

describe('abuse limits (strict settings, client address from X-Forwarded-For)', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({
      seed: false,
      env: {
        TRUST_PROXY: '1',
        OTP_RESEND_COOLDOWN_SECONDS: '0',
        OTP_DAILY_CAP_PER_PHONE: '2',
        OTP_DAILY_CAP_PER_IP: '3',
        LOGIN_MAX_FAILURES_PER_PHONE: '3',
        LOGIN_MAX_FAILURES_PER_IP: '5',
        LOGIN_FAILURE_WINDOW_SECONDS: '600',
        // Past half the address's cap wrong passwords are answered slowly: kept short here.
        LOGIN_FAILURE_DELAY_MAX_MS: '20',
      },
    });
  });
  afterAll(() => strict?.close());
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('caps the codes per phone and per address over 24 hours', async () => {
    const phone = nextPhone();
    expect((await sendRegisterOtp(phone, 'matkhau1', strict, from('10.0.0.1'))).status).toBe(200);
    expect((await sendRegisterOtp(phone, 'matkhau1', strict, from('10.0.0.2'))).status).toBe(200);
    const third = await sendRegisterOtp(phone, 'matkhau1', strict, from('10.0.0.3'));
    expect(third.status).toBe(429);
    expect(third.body.errors.phone).toBe('Số điện thoại này đã nhận quá số mã OTP cho phép trong ngày. Vui lòng thử lại sau.');

    for (let i = 0; i < 3; i += 1) expect((await sendRegisterOtp(nextPhone(), 'matkhau1', strict, from('10.0.0.9'))).status).toBe(200);
    const capped = await sendRegisterOtp(nextPhone(), 'matkhau1', strict, from('10.0.0.9'));
    expect(capped.status).toBe(429);
    expect(capped.body.errors.phone).toBe('Bạn đã yêu cầu quá nhiều mã OTP trong ngày. Vui lòng thử lại sau.');

    strict.clock.advance(24 * 60 * MINUTE + 1_000);
    expect((await sendRegisterOtp(phone, 'matkhau1', strict, from('10.0.0.9'))).status).toBe(200);
  });

  it('limits failed logins per phone and per address, with a clear message', async () => {
    const parent = await createParent(strict);
    const login = (password: string, ip: string, phone = parent.phone) =>
      strict.request('POST', '/api/login', { body: { phone, password }, headers: from(ip) });
    for (let i = 0; i < 3; i += 1) expect((await login('sai-mat-khau', `10.1.0.${i}`)).status).toBe(401);
    const locked = await login(parent.password, '10.1.0.9');
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Tài khoản này đã đăng nhập sai quá nhiều lần. Vui lòng thử lại sau 10 phút.');
    strict.clock.advance(10 * MINUTE + 1_000);
    expect((await login(parent.password, '10.1.0.9')).status).toBe(200);

    for (let i = 0; i < 5; i += 1) expect((await login('sai-mat-khau', '10.2.0.1', nextPhone())).status).toBe(401);
    const fromAddress = await login(parent.password, '10.2.0.1');
    expect(fromAddress.status).toBe(429);
    expect(fromAddress.body.message).toBe('Có quá nhiều lần đăng nhập sai từ mạng của bạn. Vui lòng thử lại sau 10 phút.');
    expect((await login(parent.password, '10.2.0.2')).status).toBe(200);
  });

  // Each request runs on its own database connection: the lock that counts them is PostgreSQL's,
  // the same for requests of several app processes. (The address's limit counts only finished
  // failures, so that a school's concurrent right passwords pass: login-throttle.api.test.ts.)
  it('checks at most the cap of concurrent wrong passwords of one phone', async () => {
    const parent = await createParent(strict);
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        strict.request('POST', '/api/login', { body: { phone: parent.phone, password: `doan-sai-${i}` }, headers: from(`10.3.0.${i}`) }),
      ),
    );
    const statuses = guesses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(37);
  });
});
