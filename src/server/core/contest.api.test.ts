// Before the back office has created a contest, every route that needs one answers the same:
// 409 no_contest with one message (core/contest.ts requireCurrentContest).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { startTestServer, type TestServer } from '../test/harness';
import { createOrganiser, type CreatedUser } from '../test/factories';

let server: TestServer;
let organiser: CreatedUser;
beforeAll(async () => {
  server = await startTestServer({ seed: false });
  organiser = await createOrganiser(server);
});
afterAll(() => server?.close());

describe('no contest yet', () => {
  it('answers 409 no_contest with one message on the back office routes that need the contest', async () => {
    expect(await server.db.selectFrom('contests').select('id').execute()).toEqual([]);
    for (const path of ['/api/admin/contest', '/api/admin/results', '/api/admin/results/task', '/api/admin/certificates/progress']) {
      const response = await server.request('GET', path, { token: organiser.token });
      expect([path, response.status, response.body]).toEqual([path, 409, expect.objectContaining({ success: false, code: 'no_contest', message: messages.noContest })]);
    }
  });
});
