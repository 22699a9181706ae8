// npm run results:demo: the simulated contest fills the demo school's report; --publish shows prizes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';
import { demoAccounts } from '../db/seed/demo-accounts';
import { simulateDemoResults } from './results';
import { sessionAt } from './finished-exams';
import { issueCertificates } from '../features/certificates/background';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function demoAdminToken() {
  const admin = await server.db.selectFrom('users').select('id').where('phone', '=', demoAccounts.schoolAdmin.phone).executeTakeFirstOrThrow();
  return sessionAt(server.db, admin.id, server.clock.now());
}

describe('demo results', () => {
  it('simulates pupils and exams; the demo school report has figures but no prizes yet', async () => {
    server.clock.advance(3 * 3_600_000);
    const summary = await simulateDemoResults(server.db, server.clock, { publish: false });
    expect(summary.pupils).toBeGreaterThan(400);
    expect(summary.exams).toBeGreaterThan(summary.pupils);
    const { body } = await server.request('GET', '/api/report-school', { token: await demoAdminToken() });
    expect(body.data.total_done).toBe(200);
    expect(body.data.total_register).toBe(202); // and the demo parent's two children
    expect(body.data.score[0].rank).toBe(1);
    expect(body.results_published).toBe(false);
    await expect(simulateDemoResults(server.db, server.clock, { publish: false })).rejects.toThrow('Dữ liệu mô phỏng đã có');
  });

  it('--publish ends the window, computes and shows the prizes', async () => {
    const summary = await simulateDemoResults(server.db, server.clock, { publish: true });
    expect(summary.results?.individualWinners.length).toBeGreaterThanOrEqual(75);
    expect(summary.results?.classWinners.length).toBeGreaterThanOrEqual(3);
    // What the app's background job does after publishing: the certificates are issued.
    while ((await issueCertificates(server)) > 0);
    const { body } = await server.request('GET', '/api/report-school', { token: await demoAdminToken() });
    expect(body.results_published).toBe(true);
    expect(body.prize.prize_name).toBe('Giải Nhất tập thể trường');
    expect(body.prize.image_cer).toMatch(/^\/api\/certificates\//);
  });
});
