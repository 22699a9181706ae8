// Bad input of any shape gets a 4xx in the one error shape, never a 5xx; a database that goes
// away gives 503 (try again) and the process keeps serving when it comes back.
import { connect, createServer, type Socket } from 'node:net';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './config';
import { hotQuery, openDatabase, poolStats } from './db/client';
import { isLostConnection } from './db/errors';
import { messages } from '../shared/messages';
import { createContestant, createParent } from './test/factories';
import { startTestServer, usingPostgres, type TestServer } from './test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const UUID = /^[0-9a-f-]{36}$/;

describe('control characters', () => {
  it('refuses NUL in a body field with a 400 field error and stores nothing', async () => {
    const parent = await createParent(server);
    const before = await server.request('GET', '/api/profile', { token: parent.token });
    const response = await server.request('POST', '/api/customer/profile', {
      token: parent.token,
      body: { childrens: [{ fullname: 'Nguyễn\u0000An' }] },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      code: 'invalid_input',
      message: messages.controlCharacter,
      errors: { 'childrens.0.fullname': messages.controlCharacter },
      request_id: expect.stringMatching(UUID),
    });
    const after = await server.request('GET', '/api/profile', { token: parent.token });
    expect(after.body).toEqual(before.body);
  });

  it('refuses control characters in a path, a query string and an object key', async () => {
    for (const [path, field] of [
      ['/api/blog/tin-tuc%00', 'slug'],
      ['/api/schools?district_id=1%01', 'district_id'],
      ['/api/blogs?x=%1B[31m', 'x'],
    ] as const) {
      const response = await server.request('GET', path);
      expect(response.status, path).toBe(400);
      expect(response.body, path).toMatchObject({ code: 'invalid_input', errors: { [field]: messages.controlCharacter } });
    }
    const key = await server.request('POST', '/api/login', { body: { phone: '0987654321', password: 'x', ['a\u0000']: 1 } });
    expect(key.status).toBe(400);
  });

  it('accepts ordinary Vietnamese text with line breaks and tabs', async () => {
    const response = await server.request('POST', '/api/login', { body: { phone: '0987654321', password: 'Mật\tkhẩu\nđúng' } });
    expect(response.status).toBe(401);
  });
});

describe('integer ids', () => {
  it('accepts only integers or digit strings', async () => {
    const parent = await createParent(server);
    const child = await createContestant(server, parent);
    for (const childId of [true, [child.id], `0x${child.id.toString(16)}`, `${child.id}.0`, ` ${child.id}`, 1.5, null]) {
      const response = await server.request('POST', '/api/start-exam', { token: parent.token, body: { book_id: 1, child_id: childId } });
      expect(response.status, JSON.stringify(childId)).toBe(400);
      expect(response.body.errors, JSON.stringify(childId)).toHaveProperty('child_id');
    }
    for (const query of ['true', '0x1', '1e0', '-1', '99999999999']) {
      const response = await server.request('GET', `/api/schools?district_id=${query}`);
      expect(response.status, query).toBe(400);
    }
    expect((await server.request('GET', '/api/schools?district_id=1')).status).toBe(200);
  });
});

describe("Fastify's and the HTTP parser's own errors in the one shape", () => {
  it('a malformed URL encoding, malformed JSON, a wrong content type and a body too large', async () => {
    const badUrl = await server.request('GET', '/api/blog/%E0%A4%A');
    expect(badUrl.status).toBe(400);
    expect(badUrl.body).toMatchObject({ success: false, code: 'bad_request', message: messages.invalidInput, request_id: expect.stringMatching(UUID) });

    const badJson = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"phone":' });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ success: false, code: 'bad_request', message: messages.invalidInput });

    const wrongType = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' });
    expect(wrongType.status).toBe(415);
    expect(await wrongType.json()).toMatchObject({ success: false, code: 'unsupported_media_type', message: messages.unsupportedMediaType });

    const tooLarge = await server.request('POST', '/api/login', { body: { phone: 'x'.repeat(300 * 1024) } });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ success: false, code: 'payload_too_large', message: messages.payloadTooLarge });
  });

  it('a header too large is refused by the HTTP parser in the same JSON shape', async () => {
    const port = Number(new URL(server.url).port);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`GET /api/site HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ success: false, code: 'header_too_large', message: messages.payloadTooLarge, request_id: expect.stringMatching(UUID) });
  });

  it('an unknown API path carries the request id', async () => {
    const response = await server.request('GET', '/api/khong-co');
    expect(response.body).toEqual({ success: false, code: 'not_found', message: messages.apiNotFound, request_id: expect.stringMatching(UUID) });
  });
});

describe.runIf(usingPostgres())('a database that goes away', () => {
  it('answers 503 with Retry-After and a Vietnamese message while PostgreSQL cannot be reached', async () => {
    // A pool pointed at a port where nothing listens: every connection is refused.
    const database = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', dataDir: 'memory://x', poolSize: 2 });
    const app = await buildApp({ config: server.config, db: database.db, clock: server.clock, sms: { send: async () => {} }, logger: pino({ level: 'silent' }) });
    try {
      for (const [method, url, payload] of [
        ['GET', '/api/site', undefined],
        ['POST', '/api/login', { phone: '0987654321', password: 'phuhuynh123' }],
        ['GET', '/readyz', undefined],
      ] as const) {
        const response = await app.inject({ method, url, payload });
        expect(response.statusCode, url).toBe(503);
        expect(response.headers['retry-after'], url).toBe('2');
        expect(response.json(), url).toMatchObject({ success: false, code: 'service_unavailable', message: messages.serviceUnavailable });
      }
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('survives the server ending its connections, idle or lent out, and serves the next request', async () => {
    const errors: Error[] = [];
    const database = await openDatabase({
      databaseUrl: process.env.TEST_DATABASE_URL,
      dataDir: 'memory://x',
      schema: (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(server.db)).rows[0]!.s,
      poolSize: 3,
      onConnectionError: (error) => errors.push(error),
    });
    try {
      // Three connections open and idle in the pool, and one lent out inside a transaction.
      await Promise.all([1, 2, 3].map(() => sql`SELECT pg_sleep(0.05)`.execute(database.db)));
      const appName = `resilience_${process.pid}`;
      let lentOut!: () => void;
      const transaction = database.db.transaction().execute(async (trx) => {
        await sql`SELECT set_config('application_name', ${appName}, false)`.execute(trx);
        await new Promise<void>((resolve) => (lentOut = resolve));
        await sql`SELECT 1`.execute(trx);
      });
      // The transaction has named its connection.
      await expect
        .poll(async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${appName}`.execute(server.db)).rows[0]!.n)
        .toBe(1);
      // Ends every backend of this pool (those of the test server's own pool are not touched).
      const killed = await sql<{ n: number }>`
        SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND (application_name = ${appName} OR (state = 'idle' AND query LIKE 'SELECT pg_sleep%'))`.execute(server.db);
      expect(killed.rows[0]!.n).toBeGreaterThanOrEqual(2);
      // The pool has heard of its idle connections' end.
      await expect.poll(() => errors.length).toBeGreaterThan(0);
      lentOut();
      // It fails for its lost connection (57P01 or pg's "not queryable"), not for any error.
      const failure = await transaction.then(() => undefined, (error: unknown) => error);
      expect(isLostConnection(failure), String(failure)).toBe(true);
      expect(errors.length).toBeGreaterThan(0);
      // The process is still here, and the pool opens new connections.
      const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
  });
});

/**
 * A loopback proxy to PostgreSQL that can drop its connections the way a firewall's idle timeout
 * does: the server's side is closed, the client's side stays open until the client writes, and
 * is then reset, so the client learns that its idle connection is dead only from the next query.
 */
async function droppingProxy(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const pairs = new Set<{ client: Socket; server: Socket; dropped: boolean }>();
  const proxy = createServer((client) => {
    const server = connect(Number(target.port || 5432), target.hostname);
    const pair = { client, server, dropped: false };
    pairs.add(pair);
    client.on('data', (chunk) => (pair.dropped ? client.resetAndDestroy() : server.write(chunk)));
    server.on('data', (chunk) => client.write(chunk));
    client.on('error', () => {}).on('close', () => (server.destroy(), pairs.delete(pair)));
    server.on('error', () => {}).on('close', () => pair.dropped || client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${(proxy.address() as { port: number }).port}`;
  return {
    url: url.toString(),
    dropAll() {
      for (const pair of pairs) {
        pair.dropped = true;
        pair.server.destroy();
      }
      return pairs.size;
    },
    close: () => new Promise((resolve) => proxy.close(resolve)),
  };
}

describe.runIf(usingPostgres())('connections dropped while idle', () => {
  it('are invisible: the first statement on a dead pooled connection is sent again on a new one', async () => {
    const proxy = await droppingProxy(process.env.TEST_DATABASE_URL!);
    const schema = (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(server.db)).rows[0]!.s;
    const database = await openDatabase({ databaseUrl: proxy.url, dataDir: 'memory://x', schema, poolSize: 3 });
    const warm = () => Promise.all([1, 2, 3].map(() => sql`SELECT pg_sleep(0.02)`.execute(database.db)));
    try {
      await warm();
      expect(proxy.dropAll()).toBe(3);
      // A Kysely statement, a transaction and a hot statement, each on a dead idle connection.
      const [plain, inTransaction, hot] = await Promise.all([
        sql<{ one: number }>`SELECT 1 AS one`.execute(database.db),
        database.db.transaction().execute(async (trx) => (await sql<{ two: number }>`SELECT 2 AS two`.execute(trx)).rows),
        hotQuery<{ three: number }>(database.db, { name: 'resilience_three', text: 'SELECT 3 AS three' }, []),
      ]);
      expect(plain.rows).toEqual([{ one: 1 }]);
      expect(inTransaction).toEqual([{ two: 2 }]);
      expect(hot.rows).toEqual([{ three: 3 }]);
    } finally {
      await database.close();
      await proxy.close();
    }
  });
});

describe.runIf(usingPostgres())('load shedding', () => {
  it('answers 503 at once when too many requests wait for a connection, and 503 request_timeout when one waits too long', async () => {
    const schema = (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(server.db)).rows[0]!.s;
    const database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: 'memory://x', schema, poolSize: 1 });
    const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: server.dataDir, SHED_DB_WAITING: '1', REQUEST_TIMEOUT_MS: '1000' });
    const app = await buildApp({ config, db: database.db, clock: server.clock, sms: { send: async () => {} }, logger: pino({ level: 'silent' }) });
    try {
      // The pool's only connection is busy for 1.5 s.
      const busy = sql`SELECT pg_sleep(1.5)`.execute(database.db);
      await expect.poll(() => poolStats(database.db)).toMatchObject({ total: 1, idle: 0 });
      const first = app.inject({ method: 'GET', url: '/api/site' }); // waits for the connection
      // A request with a body is timed out the same way.
      const login = app.inject({ method: 'POST', url: '/api/login', payload: { phone: '0901000001', password: 'secret123' } });
      await expect.poll(() => poolStats(database.db)?.waiting).toBeGreaterThanOrEqual(1);
      const second = app.inject({ method: 'GET', url: '/api/site' }); // waits too: 2 waiting now
      await expect.poll(() => poolStats(database.db)?.waiting).toBeGreaterThanOrEqual(2);
      const shed = await app.inject({ method: 'GET', url: '/api/districts' });
      expect(shed.statusCode).toBe(503);
      expect(shed.headers['retry-after']).toBe('2');
      expect(shed.json()).toMatchObject({ success: false, code: 'service_unavailable', message: messages.serviceUnavailable });
      // Liveness is always answered.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      // The first waiter is not answered within the 1 s handler timeout.
      const timedOut = await first;
      expect(timedOut.statusCode).toBe(503);
      expect(timedOut.json()).toMatchObject({ success: false, code: 'request_timeout', message: messages.serviceUnavailable });
      const loginTimedOut = await login;
      expect(loginTimedOut.statusCode).toBe(503);
      expect(loginTimedOut.json()).toMatchObject({ success: false, code: 'request_timeout', message: messages.serviceUnavailable });
      await second;
      await busy;
      // Once the connection is free again, requests are served.
      expect((await app.inject({ method: 'GET', url: '/api/districts' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('refuses in the HTTP server itself while the probes are answered, /readyz on its own connection', async () => {
    const schema = (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(server.db)).rows[0]!.s;
    const database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: 'memory://x', schema, poolSize: 1 });
    const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: server.dataDir, SHED_DB_WAITING: '1' });
    const app = await buildApp({ config, db: database.db, clock: server.clock, sms: { send: async () => {} }, logger: pino({ level: 'silent' }) });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    try {
      // The pool's only connection is busy (for a generous 3 s), and two requests wait for it.
      let busyDone = false;
      const busy = sql`SELECT pg_sleep(3)`.execute(database.db).then(() => (busyDone = true));
      await expect.poll(() => poolStats(database.db)).toMatchObject({ total: 1, idle: 0 });
      const waiting = [fetch(`${base}/api/site`), fetch(`${base}/api/site`)];
      await expect.poll(() => poolStats(database.db)?.waiting).toBe(2);
      const shed = await fetch(`${base}/api/store-answers-exam`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"exam_id":1}' });
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('2');
      expect(shed.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await shed.json()).toEqual({ success: false, code: 'service_unavailable', message: messages.serviceUnavailable, request_id: expect.stringMatching(UUID) });
      // The probes: never shed; /readyz does not wait behind the pool's queue (its connection is its own).
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ success: true, status: 'ready' });
      expect(busyDone).toBe(false);
      await busy;
      await Promise.all(waiting);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
