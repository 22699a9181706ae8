// A process killed mid-send loses and duplicates nothing. The app runs as a child process (its own
// database: a fresh PostgreSQL database, or a PGlite folder) with the eSMS driver pointed at a
// gateway this test serves on loopback. The gateway takes the first message, then holds the
// answer of the next one as if the network were slow: the test kills the process (SIGKILL) while
// that message is taken and unanswered, the exact window where a naive queue sends twice or
// loses. A second process on the same database finishes the campaign: the job of the dead one is
// retried after its lease with the same RequestId, which the gateway, like eSMS, accepts once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../../../test/replica-pair';
import { freePort } from '../../../../../scripts/chaos/apps';

const ROOT = new URL('../../../../../', import.meta.url).pathname;
const postgresUrl = process.env.TEST_DATABASE_URL;
const database = `messages_kill_${process.pid}`;
const dataDir = mkdtempSync(join(tmpdir(), 'messages-kill-'));

/** The one-time codes the gateway was given, by phone (to register families through the API). */
const codes = new Map<string, string>();
/** Messages the gateway took, by RequestId: more than one request of a key is a retry, not a delivery. */
const requests = new Map<string, number>();
const phonesOf = new Map<string, string>();
let held: ServerResponse | undefined;
let gateway: ReturnType<typeof createServer>;

function answer(response: ServerResponse) {
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ CodeResult: '100', SMSID: 'x' }));
}

let child: ChildProcess | undefined;
async function startApp(port: number, gatewayUrl: string) {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    LOG_LEVEL: 'warn',
    EXAM_SWEEP_SECONDS: '0',
    SHED_EVENT_LOOP_DELAY_MS: '0',
    // One process (on PostgreSQL the default is one per core, under a cluster primary): the
    // process that takes the message is the one killed.
    WORKERS: '1',
    SMS_DRIVER: 'esms',
    ESMS_API_KEY: 'k',
    ESMS_SECRET_KEY: 's',
    ESMS_BRAND_NAME: 'CUOCTHI',
    ESMS_BASE_URL: gatewayUrl,
    ZNS_DRIVER: 'off',
    MESSAGES_LEASE_SECONDS: '2',
    MESSAGES_RETRY_SECONDS: '1',
    MESSAGES_SMS_PER_SECOND: '100',
  };
  delete env.DATABASE_URL;
  if (postgresUrl) env.DATABASE_URL = postgresUrl.replace(/\/[^/]*$/, `/${database}`);
  child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, 'ready', 120);
  return base;
}

beforeAll(async () => {
  gateway = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const body = JSON.parse(text) as { Phone: string; RequestId?: string; Content: string };
      // A one-time code (no RequestId) is not a message of the campaign.
      if (!body.RequestId) {
        const code = /\b(\d{4,8})\b/.exec(body.Content)?.[1];
        if (code) codes.set(body.Phone, code);
        return answer(response);
      }
      const seen = requests.get(body.RequestId) ?? 0;
      requests.set(body.RequestId, seen + 1);
      phonesOf.set(body.RequestId, body.Phone);
      // The second message: taken, its answer held until the process that asked is dead.
      if (requests.size === 2 && seen === 0 && !held) {
        held = response;
        return;
      }
      answer(response);
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  if (postgresUrl) {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
  }
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  held?.destroy();
  await new Promise((resolve) => gateway.close(resolve));
  if (postgresUrl) {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const json = async (base: string, path: string, body?: unknown, token?: string) =>
  (
    await fetch(`${base}/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  ).json();

/** A parent with one child of the season, registered as a family does (the code read at the gateway). */
async function registerFamily(base: string, n: number) {
  const phone = `0912${String(process.pid % 1000).padStart(3, '0')}${String(n).padStart(3, '0')}`;
  const password = 'matkhau123';
  await json(base, '/send-otp', { phone, password, is_register: 1 });
  await until(() => codes.has(phone), 'a code');
  const registered = await json(base, '/register', { phone, password, otp: codes.get(phone), consent: true });
  const district = (await json(base, '/districts')).data[0];
  const school = (await json(base, `/schools?district_id=${district.id}`)).data[0];
  const group = (await json(base, '/class-groups')).data[0];
  const room = (await json(base, `/class-rooms?class_group_id=${group.id}`)).data[0];
  const profile = await json(
    base,
    '/customer/profile',
    { phone, childrens: [{ fullname: `Nguyễn Văn Con ${n}`, district_id: district.id, school_id: school.id, class_group_id: group.id, class_room_id: room.id, child_consent: true }] },
    registered.access_token,
  );
  expect(profile.success).toBe(true);
}

it('delivers every message of a campaign exactly once when its process is killed mid-send', async () => {
  const gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  let base = await startApp(await freePort(), gatewayUrl);
  for (let n = 1; n <= 6; n++) await registerFamily(base, n);
  const login = await (await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone: '0901000009', password: 'bantochuc123' }) })).json();
  const token = login.access_token as string;
  const draft = { body: 'Thong bao cua Ban to chuc', audience: { kind: 'season' }, urgent: true };
  const sent = await (await fetch(`${base}/api/admin/messages`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(draft) })).json();
  expect(sent.success).toBe(true);
  const families = sent.data.counts.waiting as number;
  expect(families).toBeGreaterThanOrEqual(6);

  // The second message is at the gateway, taken and not answered: kill the process now.
  await until(() => held !== undefined, 'holding a message', 60);
  const exited = new Promise((resolve) => child!.once('exit', resolve));
  child!.kill('SIGKILL');
  await exited;
  held!.destroy();

  base = await startApp(await freePort(), gatewayUrl);
  const report = async () => {
    const relogin = await (await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone: '0901000009', password: 'bantochuc123' }) })).json();
    return (await (await fetch(`${base}/api/admin/messages/campaigns/${sent.data.id}`, { headers: { authorization: `Bearer ${relogin.access_token}` } })).json()).data;
  };
  await until(async () => (await report()).counts.sent === families, 'all sent', 120);
  const final = await report();
  expect(final.counts).toMatchObject({ sent: families, failed: 0, waiting: 0, sending: 0 });
  // One key per family, each taken by the gateway: nobody missed, nobody got a second message.
  expect(requests.size).toBe(families);
  expect(new Set(phonesOf.values()).size).toBe(families);
  // The message of the killed process was asked for again with its key (the gateway took it once).
  expect([...requests.values()].filter((count) => count > 1).length).toBeGreaterThanOrEqual(1);
}, 400_000);
