// Issue 20, part 3: logins behind one carrier address or a school's Wi-Fi. A right password is
// never refused for other people's failures under the address's limit, a known device keeps
// logging in while its address is throttled, and the per-phone limit stays exact
// (docs/decisions/012-login-throttling.md).
import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE_VERSION } from '../../../shared/privacy';
import { startTestServer, type TestServer } from '../../test/harness';
import { createParent, nextPhone } from '../../test/factories';

const PASSWORD = 'matkhau123';
const tooManyFromAddress = 'Có quá nhiều lần đăng nhập sai từ mạng của bạn. Vui lòng thử lại sau 15 phút.';
const tooManyForPhone = 'Tài khoản này đã đăng nhập sai quá nhiều lần. Vui lòng thử lại sau 15 phút.';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    seed: false,
    env: {
      TRUST_PROXY: '1',
      LOGIN_MAX_FAILURES_PER_PHONE: '10',
      LOGIN_MAX_FAILURES_PER_IP: '100',
      LOGIN_MAX_FAILURES_PER_DEVICE: '5',
      LOGIN_FAILURE_WINDOW_SECONDS: '900',
      // Half the production ceiling: the rounds of ten below wait it together, about 2 s in all.
      LOGIN_FAILURE_DELAY_MAX_MS: '1000',
    },
  });
});
afterAll(() => server?.close());

/**
 * The stored form of lib/password.ts with a small scrypt cost (N=1024 instead of 32768): hundreds
 * of logins stay quick on a shared machine. What is tested is which tries are counted, not the cost.
 */
function quickHash(password: string): string {
  const salt = randomBytes(16);
  return ['scrypt', 1024, 8, 1, salt.toString('base64url'), scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64url')].join('$');
}

/** `count` parents made in one statement, all with the same password (one hash, reused). */
async function parents(count: number): Promise<string[]> {
  const passwordHash = quickHash(PASSWORD);
  const phones = Array.from({ length: count }, () => nextPhone());
  const now = server.clock.now();
  await server.db
    .insertInto('users')
    .values(phones.map((phone) => ({ phone, password_hash: passwordHash, role: 'parent' as const, school_id: null, privacy_version: PRIVACY_NOTICE_VERSION, privacy_consented_at: now })))
    .execute();
  return phones;
}

/** A login from `ip` (X-Forwarded-For behind TRUST_PROXY=1), with a device cookie when given. */
function login(phone: string, password: string, ip: string, deviceCookie?: string) {
  const headers: Record<string, string> = { 'x-forwarded-for': ip };
  if (deviceCookie) headers.cookie = `khac=1; ${deviceCookie}`;
  return server.request('POST', '/api/login', { body: { phone, password }, headers });
}

/** The code of the last SMS sent to `phone`. */
function lastCode(phone: string): string {
  const code = server.outbox().filter((sms) => sms.phone === phone).at(-1)?.message.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code sent to ${phone}`);
  return code;
}

/** The `name=value` part of the device cookie an answer sets. */
const deviceCookieOf = (response: { headers: Headers }) => response.headers.getSetCookie()[0]?.split(';')[0] ?? '';

const statusCounts = (responses: { status: number }[]) =>
  responses.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

describe('logins behind one address', () => {
  it('lets 150 parents log in at once from one address, with 40 wrong passwords among them', async () => {
    const phones = await parents(190);
    const ip = '10.20.0.1';
    const [right, wrong] = await Promise.all([
      Promise.all(phones.slice(0, 150).map((phone) => login(phone, PASSWORD, ip))),
      Promise.all(phones.slice(150).map((phone) => login(phone, 'doan-sai', ip))),
    ]);
    expect(statusCounts(right)).toEqual({ 200: 150 });
    expect(statusCounts(wrong)).toEqual({ 401: 40 });
    // Only the failures are left: a success counts for nobody.
    const rows = await server.db.selectFrom('login_failures').select(['pending']).where('ip', '=', ip).execute();
    expect(rows).toHaveLength(40);
    expect(rows.every((row) => !row.pending)).toBe(true);
  }, 180_000);

  it('sets a long-lived device cookie for the API only, unreadable by scripts', async () => {
    const parent = await createParent(server);
    const response = await login(parent.phone, parent.password, '10.21.0.1');
    expect(response.status).toBe(200);
    const [cookie] = response.headers.getSetCookie();
    expect(cookie).toMatch(/^login_device=\d+\.\d+\.[\w-]{22}\.[\w-]{43}; Max-Age=31536000; Path=\/api; HttpOnly; SameSite=Lax$/);
    // Not in the body: the web client never sees it.
    expect(JSON.stringify(response.body)).not.toContain('login_device');
  });

  it('refuses an address after 100 wrong passwords over 120 phones; a known device still logs in', async () => {
    const ip = '10.30.0.1';
    const [known, stranger, ...others] = await parents(122);
    const first = await login(known!, PASSWORD, ip);
    expect(first.status).toBe(200);
    const device = deviceCookieOf(first);
    // Registering with an SMS code, and resetting a forgotten password with one, make a known device too.
    const newcomer = nextPhone();
    await server.request('POST', '/api/send-otp', { body: { phone: newcomer, is_register: 1, password: PASSWORD } });
    const registered = await server.request('POST', '/api/register', { body: { phone: newcomer, password: PASSWORD, otp: lastCode(newcomer), consent: true } });
    expect(registered.status).toBe(200);
    const [forgetful] = await parents(1);
    await server.request('POST', '/api/send-otp', { body: { phone: forgetful } });
    const reset = await server.request('POST', '/api/forgot-password', { body: { phone: forgetful, otp: lastCode(forgetful!) } });
    expect(reset.status).toBe(200);

    // In rounds of ten at once: every round's failures are finished when the next one starts.
    const answers = [];
    const roundMs: number[] = [];
    for (let round = 0; round < 12; round += 1) {
      const started = performance.now();
      answers.push(...(await Promise.all(others.slice(round * 10, round * 10 + 10).map((phone) => login(phone, 'doan-sai', ip)))));
      roundMs.push(performance.now() - started);
    }
    expect(statusCounts(answers)).toEqual({ 401: 100, 429: 20 });
    // Past 50 failures wrong passwords are answered slowly: the tenth round (90 failures before
    // it) waits 1000 x (91 - 50) / 50 = 820 ms. Only a lower bound: a busy machine is slower.
    expect(roundMs[9]).toBeGreaterThanOrEqual(800);
    const last = answers.at(-1)!;
    expect(last.body).toMatchObject({ success: false, code: 'too_many_requests', message: tooManyFromAddress });
    expect(last.headers.get('retry-after')).toBe('900');

    // A right password from a browser never seen before: refused, the address is at its limit.
    expect((await login(stranger!, PASSWORD, ip)).body.message).toBe(tooManyFromAddress);
    // The known device logs in; a forged cookie (last letter of the signature changed) does not.
    const forged = device.slice(0, -1) + (device.endsWith('A') ? 'B' : 'A');
    expect((await login(known!, PASSWORD, ip, forged)).status).toBe(429);
    const again = await login(known!, PASSWORD, ip, device);
    expect(again.status).toBe(200);
    expect((await login(newcomer, PASSWORD, ip, deviceCookieOf(registered))).status).toBe(200);
    expect((await login(forgetful!, PASSWORD, ip, deviceCookieOf(reset))).status).toBe(200);
    // Another account's device cookie is no pass for this one.
    expect((await login(stranger!, PASSWORD, ip, deviceCookieOf(again))).status).toBe(429);

    // The known device's own mistakes count against it, not the address: five, then it is unknown.
    const renewed = deviceCookieOf(again);
    for (let i = 0; i < 5; i += 1) expect((await login(known!, 'doan-sai', ip, renewed)).status).toBe(401);
    const locked = await login(known!, PASSWORD, ip, renewed);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe(tooManyFromAddress);

    // The window passes: the address is free again.
    server.clock.advance(900_000 + 1_000);
    expect((await login(stranger!, PASSWORD, ip)).status).toBe(200);
  }, 180_000);

  it('checks at most 10 of 40 concurrent wrong passwords for one phone; a known device does not lift it', async () => {
    const ip = '10.40.0.1';
    const [phone] = await parents(1);
    const device = deviceCookieOf(await login(phone!, PASSWORD, ip));
    const guesses = await Promise.all(Array.from({ length: 40 }, (_, i) => login(phone!, `doan-sai-${i}`, ip)));
    expect(statusCounts(guesses)).toEqual({ 401: 10, 429: 30 });
    for (const guess of guesses) {
      if (guess.status === 401) expect(guess.body.code).toBe('invalid_credentials');
      else expect(guess.body.message).toBe(tooManyForPhone);
    }
    // Nothing was left pending: every checked try ended as a failure.
    const rows = await server.db.selectFrom('login_failures').select(['pending']).where('phone', '=', phone!).execute();
    expect(rows.map((row) => row.pending)).toEqual(Array(10).fill(false));

    const fromDevice = await login(phone!, PASSWORD, '10.40.0.2', device);
    expect(fromDevice.status).toBe(429);
    expect(fromDevice.body.message).toBe(tooManyForPhone);
    expect(fromDevice.headers.get('retry-after')).toBe('900');
  }, 120_000);
});
