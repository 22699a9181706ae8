// The password hashing queue (issue 35, decision 031): a hash the queue could not finish within
// PASSWORD_HASH_QUEUE_MS is refused at once with a 503. Here one hash at a time and a queue of
// 1 ms: a login that arrives while another one's hash is admitted is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { createParent } from '../../test/factories';

let server: TestServer;
beforeAll(async () => {
  // One try per phone: a refused login that counted as a try (or a failure) would lock its phone.
  server = await startTestServer({ env: { PASSWORD_HASH_QUEUE_MS: '1', PASSWORD_HASH_THREADS: '1', LOGIN_MAX_FAILURES_PER_PHONE: '1' } });
});
afterAll(() => server?.close());

const login = (phone: string, password: string) => server.request('POST', '/api/login', { body: { phone, password } });

describe('logins beyond the password hashing queue', () => {
  it('are refused at once with a 503 and Retry-After, and count for nothing: the parent logs in right after', async () => {
    const parents = await Promise.all(Array.from({ length: 12 }, () => createParent(server)));
    const answers = await Promise.all(parents.map((parent) => login(parent.phone, parent.password)));
    const refused = answers.flatMap((answer, i) => (answer.status === 503 ? [parents[i]!] : []));
    expect(answers.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of answers.filter((a) => a.status === 503)) {
      expect(answer.body).toEqual({
        success: false,
        code: 'service_unavailable',
        message: 'Hệ thống đang có quá nhiều người đăng nhập cùng lúc. Vui lòng thử lại sau vài giây.',
        request_id: expect.any(String),
      });
      expect(answer.headers.get('retry-after')).toBe('2');
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
    // One at a time now: each refused parent gets in (no try left pending, no failure counted).
    for (const parent of refused) {
      const again = await login(parent.phone, parent.password);
      expect(again.status).toBe(200);
      expect(again.body.access_token).toEqual(expect.any(String));
    }
  });

  it('a wrong password admitted is still a wrong password (401), not a 503', async () => {
    const parent = await createParent(server);
    const wrong = await login(parent.phone, 'sai-mat-khau');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('invalid_credentials');
  });
});
