// An import file whose read takes longer than IMPORT_READ_TIMEOUT_MS (decision 011): a 503 "try
// again" with the Vietnamese message, its worker thread stopped, nothing stored, and the process
// serving on. The setting is made short here (100 ms: a worker alone takes longer to start) so
// that a valid 20,000-row file, read in most of a second, runs past it.
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages } from '../../../../shared/messages';
import { MAX_IMPORT_ROWS } from '../../../../shared/schemas/admin';
import { createOrganiser, uploadForm, type CreatedUser } from '../../../test/factories';
import { startTestServer, type TestServer } from '../../../test/harness';
import { manyRows } from '../../../test/import-files';

let server: TestServer;
let organiser: CreatedUser;

beforeAll(async () => {
  server = await startTestServer({ env: { IMPORT_READ_TIMEOUT_MS: '100' } });
  organiser = await createOrganiser(server);
});
afterAll(() => server?.close());

/** The process's threads (Linux): a reading worker is one more while it lives. */
const threads = () => (existsSync('/proc/self/task') ? readdirSync('/proc/self/task').length : 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = async (table: 'schools' | 'districts' | 'audit_log') =>
  Number((await server.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const counts = async () => ({ schools: await count('schools'), districts: await count('districts'), audit: await count('audit_log') });
const importSchools = (file: Buffer) =>
  server.request('POST', '/api/admin/schools/import', { token: organiser.token, body: uploadForm('truong.xlsx', file, { dry_run: '0' }) });

it('a read past IMPORT_READ_TIMEOUT_MS is a 503 "Hệ thống đang bận": its worker stopped, nothing stored, the process serving', async () => {
  const file = await manyRows(MAX_IMPORT_ROWS, { legit: true });
  // libuv's thread pool (the worker inflates with it) starts whole at its first use, and stays.
  await promisify(deflate)('x');
  // The fewest over a second: a worker of an earlier request may still be ending.
  let threadsBefore = threads();
  for (let i = 0; i < 50; i++, await sleep(20)) threadsBefore = Math.min(threadsBefore, threads());
  const stored = await counts();
  const answer = await importSchools(file);
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('2');
  expect(answer.body).toEqual({ success: false, code: 'request_timeout', message: messages.serviceUnavailable, request_id: expect.any(String) });
  // The worker is gone (its thread ended) rather than reading on for nobody.
  for (let waited = 0; threads() > threadsBefore && waited < 3000; waited += 10) await sleep(10);
  expect(threads()).toBeLessThanOrEqual(threadsBefore);
  // Had the read gone on, the 20,000 schools would be stored by now.
  await sleep(1500);
  expect(await counts()).toEqual(stored);
  expect((await server.request('GET', '/healthz')).status).toBe(200);
});
