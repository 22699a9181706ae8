import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { createParent } from '../../test/factories';
import { purgeExpiredAuthRows } from './purge';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: false });
});
afterAll(() => server?.close());

describe('purge of old account rows', () => {
  it('deletes old codes, login failures and long-expired sessions, and keeps current ones', async () => {
    const parent = await createParent(server);
    const now = server.clock.now().getTime();
    const at = (msAgo: number) => new Date(now - msAgo);
    const day = 86_400_000;
    await server.db
      .insertInto('otp_codes')
      .values([
        { phone: '0911000001', purpose: 'register', code_hash: 'x', ip: '1.1.1.1', status: 'sent', created_at: at(3 * day), expires_at: at(3 * day - 600_000) },
        { phone: '0911000002', purpose: 'register', code_hash: 'x', ip: '1.1.1.1', status: 'sent', created_at: at(60_000), expires_at: at(-540_000) },
      ])
      .execute();
    await server.db
      .insertInto('login_failures')
      .values([
        { phone: '0911000001', ip: '1.1.1.1', created_at: at(2 * day) },
        { phone: '0911000001', ip: '1.1.1.1', created_at: at(60_000) },
      ])
      .execute();
    await server.db.insertInto('sessions').values({ user_id: parent.id, token_hash: 'old', expires_at: at(10 * day) }).execute();

    expect(await purgeExpiredAuthRows(server.db, server.clock)).toBe(3);
    expect(await server.db.selectFrom('otp_codes').select('phone').execute()).toEqual([{ phone: '0911000002' }]);
    expect((await server.db.selectFrom('login_failures').select('id').execute()).length).toBe(1);
    // The parent's own session (valid for a day) is still there and works.
    expect((await server.request('GET', '/api/profile', { token: parent.token })).status).toBe(200);
  });
});
