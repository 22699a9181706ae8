// The edges of the API's input (issue 35): ids past int4, malformed and oversize uploads, bodies
// that arrive too slowly, validation messages in Vietnamese, and a GET's data taken back by its
// PUT. Each one answers a 4xx in the one error shape, never a 5xx, and a connection it refuses is
// closed. Routes are walked from Fastify's route tree and the OpenAPI document, so that a new
// route is covered without a line here.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, validationMessages } from '../shared/messages';
import { importMessages } from '../shared/schemas/admin';
import { createOrganiser, createViewer, type CreatedUser } from './test/factories';
import { routesOfTree } from './test/route-tree';
import { startTestServer, type TestServer } from './test/harness';

const PAST_INT4 = '2147483648';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Zod's and Fastify's English defaults; no Vietnamese message has one of these words.
const ENGLISH = /\b(invalid|expected|received|unrecognized|too big|too small|must|required|cannot|unsupported|input|string|number)\b/i;

let server: TestServer;
let organiser: CreatedUser;
/** The education offices' routes are a viewer's (the organiser is refused them before their query is read). */
let viewer: CreatedUser;
beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  viewer = await createViewer(server);
});
const tokenFor = (path: string) => (path.startsWith('/api/viewer/') ? viewer.token : organiser.token);
afterAll(() => server?.close());

const apiRoutes = () => routesOfTree(server.app).filter(({ path }) => path.startsWith('/api/'));
const isIdName = (name: string) => /(^id$|_id$|Id$)/.test(name);
const inErrorShape = (body: any) => body?.success === false && typeof body.code === 'string' && typeof body.message === 'string';

type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; required?: boolean }[];
        requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, { type?: string }> } }> };
      }
    >
  >;
};
const openApi = async () => (await server.request('GET', '/api/docs/openapi.json')).body as OpenApi;

/** The upload routes (multipart bodies in the OpenAPI document), path parameters as 1. */
async function uploadRoutes() {
  const document = await openApi();
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => operation.requestBody?.content?.['multipart/form-data'])
      .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[A-Za-z_]+\}/g, '1') })),
  );
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * A request written on a socket of its own: `head` (request line and headers, without the blank
 * line), then `write` sends what it likes. `answer` is the first response; `closed` resolves when
 * the server has closed the connection.
 */
function rawRequest(url: string, head: string, write: (socket: Socket) => void = () => {}) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let data = Buffer.alloc(0);
  let answered: (answer: RawAnswer) => void = () => {};
  const answer = new Promise<RawAnswer>((resolve) => (answered = resolve));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  socket.on('data', (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]);
    const text = data.toString('utf8');
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) return;
    const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? -1);
    const bodyText = Buffer.from(text.slice(end + 4), 'utf8');
    if (length >= 0 && bodyText.length < length) return;
    let body: unknown = bodyText.toString('utf8');
    try {
      body = JSON.parse(body as string);
    } catch {
      // not JSON: keep the text
    }
    answered({ status: Number(statusLine!.split(' ')[1]), headers, body });
  });
  socket.once('connect', () => {
    socket.write(`${head}\r\n\r\n`);
    write(socket);
  });
  return { socket, answer, closed };
}

/** Sends one byte every `everyMs` until the connection is closed (a client that never finishes its body). */
function dribble(socket: Socket, everyMs: number) {
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) return clearInterval(timer);
    socket.write('a');
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

describe('ids past the 32-bit range', () => {
  it(`${PAST_INT4} in every id of every path is a 400, never a 5xx`, { timeout: 120_000 }, async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const { method, path } of apiRoutes()) {
      const names = [...path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!);
      for (const name of names.filter(isIdName)) {
        const concrete = path.replace(/:([A-Za-z_]+)/g, (_, other: string) => (other === name ? PAST_INT4 : '1'));
        const body = method === 'GET' || method === 'DELETE' ? undefined : {};
        const response = await server.request(method, concrete, { token: tokenFor(path), body });
        checked += 1;
        if (response.status !== 400 || !inErrorShape(response.body) || ENGLISH.test(response.body.message)) {
          failures.push(`${method} ${concrete}: ${response.status} ${JSON.stringify(response.body)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect(failures).toEqual([]);
  });

  it(`${PAST_INT4} in every id of every query string and body never gives a 5xx; the lists and exports named in the issue answer 400`, { timeout: 120_000 }, async () => {
    const document = await openApi();
    const failures: string[] = [];
    for (const [openApiPath, operations] of Object.entries(document.paths)) {
      if (!openApiPath.startsWith('/api/')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        const path = openApiPath.replace(/\{[A-Za-z_]+\}/g, '1');
        const queryIds = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query' && isIdName(parameter.name)).map((parameter) => parameter.name);
        const bodyIds = Object.keys(operation.requestBody?.content?.['application/json']?.schema?.properties ?? {}).filter(isIdName);
        for (const name of queryIds) {
          const response = await server.request(method.toUpperCase(), `${path}?${name}=${PAST_INT4}`, { token: tokenFor(path) });
          if (response.status !== 400 || !inErrorShape(response.body)) failures.push(`${method} ${path}?${name}: ${response.status} ${JSON.stringify(response.body)}`);
        }
        for (const name of bodyIds) {
          for (const value of [Number(PAST_INT4), PAST_INT4]) {
            const response = await server.request(method.toUpperCase(), path, { token: tokenFor(path), body: { [name]: value } });
            if (response.status >= 500 || !inErrorShape(response.body)) failures.push(`${method} ${path} {${name}: ${JSON.stringify(value)}}: ${response.status} ${JSON.stringify(response.body)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);

    for (const url of [
      `/api/admin/results/prizes?school_id=${PAST_INT4}`,
      `/api/admin/results/prizes?district_id=${PAST_INT4}`,
      `/api/admin/results/exports/winners.xlsx?school_id=${PAST_INT4}`,
    ]) {
      const response = await server.request('GET', url, { token: organiser.token });
      expect(response.status, url).toBe(400);
      expect(response.body).toMatchObject({ success: false, code: 'invalid_input', message: expect.stringMatching(/school_id|district_id/) });
    }
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/dismiss'],
      ['POST', '/withhold'],
    ] as const) {
      const response = await server.request(method, `/api/admin/integrity/flags/${PAST_INT4}${path}`, {
        token: organiser.token,
        body: method === 'POST' ? { reason: 'Kiểm tra lại', contestant_id: 1 } : undefined,
      });
      expect(response.status, path).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_input', errors: { flagId: expect.any(String) } });
    }
  });
});

describe('malformed and oversize uploads, on every upload route', () => {
  it('a multipart body without a boundary, or cut short, is a 400 in the usual shape', { timeout: 60_000 }, async () => {
    const routes = await uploadRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(9);
    const boundary = '----edges';
    const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nQuận/Huyện,Trường\r\n`;
    const failures: string[] = [];
    for (const { method, path } of routes) {
      for (const [name, contentType, body] of [
        ['no boundary', 'multipart/form-data', `--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nabc\r\n--x--\r\n`],
        ['cut short', `multipart/form-data; boundary=${boundary}`, truncated],
      ] as const) {
        const response = await fetch(server.url + path, { method, headers: { authorization: `Bearer ${organiser.token}`, 'content-type': contentType }, body });
        const answer = await response.json();
        const expected = { success: false, code: 'bad_request', message: messages.malformedUpload, request_id: expect.stringMatching(UUID) };
        if (response.status !== 400 || !expect.objectContaining(expected).asymmetricMatch(answer)) {
          failures.push(`${method} ${path} (${name}): ${response.status} ${JSON.stringify(answer)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('a Content-Length over the route’s limit is a 413 before the body is sent, and the connection is closed', { timeout: 60_000 }, async () => {
    const routes = await uploadRoutes();
    const failures: string[] = [];
    for (const { method, path } of routes) {
      // 100 MB announced, not a byte of it sent: the answer comes without the body.
      const request = rawRequest(
        server.url,
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${organiser.token}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${100 * 1024 * 1024}`,
      );
      const answer = await request.answer;
      await request.closed;
      if (answer.status !== 413 || answer.body?.code !== 'payload_too_large' || !/^Tệp quá lớn: tối đa \d+ MB\.$/.test(answer.body?.message) || answer.headers.connection !== 'close') {
        failures.push(`${method} ${path}: ${answer.status} ${JSON.stringify(answer)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('a chunked body is cut at the limit: refused once the file passes it, the rest never read', { timeout: 60_000 }, async () => {
    const limit = 10 * 1024 * 1024;
    const boundary = '----edges';
    const chunk = (data: string | Buffer) => {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
    };
    let sent = 0;
    const piece = Buffer.alloc(64 * 1024, 0x41);
    const request = rawRequest(
      server.url,
      `POST /api/admin/schools/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${organiser.token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked`,
      (socket) => {
        socket.write(chunk(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lon.csv"\r\nContent-Type: text/csv\r\n\r\n`));
        // Up to 10 times the limit, as long as the server reads it.
        const more = () => {
          while (!socket.destroyed && sent < 10 * limit) {
            sent += piece.length;
            if (!socket.write(chunk(piece))) return void socket.once('drain', more);
          }
        };
        more();
      },
    );
    const answer = await request.answer;
    await request.closed;
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ success: false, message: importMessages.tooLarge(10), request_id: expect.stringMatching(UUID) });
    expect(answer.headers.connection).toBe('close');
    expect(sent).toBeLessThan(10 * limit);
  });
});

describe('validation messages', () => {
  it('are Vietnamese and name the field: a missing query, an unknown field', async () => {
    const certificates = await server.request('GET', '/api/admin/certificates', { token: organiser.token });
    expect(certificates.status).toBe(400);
    expect(certificates.body).toMatchObject({ code: 'invalid_input', message: validationMessages.required('q'), errors: { q: validationMessages.required('q') } });

    const unknown = await server.request('PUT', '/api/admin/contest', { token: organiser.token, body: { ten_cuoc_thi: 'X' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'invalid_input', message: validationMessages.unknownField('"ten_cuoc_thi"'), errors: { ten_cuoc_thi: expect.any(String) } });
  });

  it('no English library text on any route, for missing, mistyped and unknown fields', { timeout: 120_000 }, async () => {
    const document = await openApi();
    const failures: string[] = [];
    let refused = 0;
    const check = (label: string, response: { status: number; body: any }) => {
      if (response.status >= 500) return failures.push(`${label}: ${response.status}`);
      if (response.status < 400 || !inErrorShape(response.body)) return;
      refused += 1;
      const texts = [response.body.message, ...(Array.isArray(response.body.errors) ? response.body.errors.map((e: { message: string }) => e.message) : Object.values(response.body.errors ?? {}))];
      for (const text of texts) if (typeof text !== 'string' || ENGLISH.test(text)) failures.push(`${label}: ${JSON.stringify(text)}`);
    };
    for (const [openApiPath, operations] of Object.entries(document.paths)) {
      // Signing out would end the session the walk uses.
      if (!openApiPath.startsWith('/api/') || /logout|sessions/.test(openApiPath)) continue;
      for (const [lowerMethod, operation] of Object.entries(operations)) {
        const method = lowerMethod.toUpperCase();
        const path = openApiPath.replace(/\{[A-Za-z_]+\}/g, 'x');
        const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
        // Nothing at all (required query parameters missing), then every query parameter mistyped.
        if (method === 'GET') {
          check(`${method} ${path}`, await server.request(method, path, { token: organiser.token }));
          if (query.length) {
            const odd = query.map((parameter) => `${parameter.name}=${encodeURIComponent('x'.repeat(300))}`).join('&');
            check(`${method} ${path}?${odd.slice(0, 60)}`, await server.request(method, `${path}?${odd}`, { token: organiser.token }));
          }
          continue;
        }
        const properties = operation.requestBody?.content?.['application/json']?.schema?.properties;
        if (!properties) continue;
        check(`${method} ${path} []`, await server.request(method, path, { token: organiser.token, body: [] }));
        check(`${method} ${path} unknown`, await server.request(method, path, { token: organiser.token, body: { champ_inconnu: 1 } }));
        const mistyped = Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, schema.type === 'object' ? 'x' : { x: [] }]));
        check(`${method} ${path} mistyped`, await server.request(method, path, { token: organiser.token, body: mistyped }));
      }
    }
    expect(refused).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  });
});

describe('a GET’s data taken back by its PUT', () => {
  it('on every resource with a GET and a PUT at the same path: accepted, and the resource reads the same after', { timeout: 60_000 }, async () => {
    const routes = apiRoutes();
    const pairs = routes.filter((put) => put.method === 'PUT' && routes.some((get) => get.method === 'GET' && get.path === put.path));
    expect(pairs.map(({ path }) => path)).toEqual(expect.arrayContaining(['/api/admin/contest', '/api/admin/site', '/api/admin/books/:bookId', '/api/admin/news/:id']));
    // What changes with every write, whatever is written: when, and whether the configuration's defaults still apply.
    const written = (data: Record<string, unknown>) => {
      const { updated_at: _updated, from_config: _fromConfig, ...rest } = data;
      return rest;
    };
    for (const { path } of pairs) {
      const concrete = path.replace(/:[A-Za-z_]+/g, '1');
      const read = await server.request('GET', concrete, { token: organiser.token });
      expect(read.status, concrete).toBe(200);
      const back = await server.request('PUT', concrete, { token: organiser.token, body: read.body.data });
      expect(back.status, `${concrete}: ${JSON.stringify(back.body)}`).toBe(200);
      const again = await server.request('GET', concrete, { token: organiser.token });
      expect(written(again.body.data), concrete).toEqual(written(read.body.data));
    }
  });

  it('the contest settings: PUT with exactly what GET answered is accepted and changes nothing; one field changed is saved', async () => {
    const read = await server.request('GET', '/api/admin/contest', { token: organiser.token });
    expect(read.status).toBe(200);
    const same = await server.request('PUT', '/api/admin/contest', { token: organiser.token, body: read.body.data });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.data).toEqual(read.body.data);

    const renamed = await server.request('PUT', '/api/admin/contest', { token: organiser.token, body: { ...read.body.data, name: `${read.body.data.name} (sửa)` } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data).toEqual({ ...read.body.data, name: `${read.body.data.name} (sửa)` });
    // The read-only field is ignored, not written.
    const forged = await server.request('PUT', '/api/admin/contest', { token: organiser.token, body: { results_computed_at: '2020-01-01T00:00:00.000Z' } });
    expect(forged.status).toBe(200);
    expect(forged.body.data.results_computed_at).toBe(read.body.data.results_computed_at);
  });
});

describe('request bodies that arrive too slowly', () => {
  let slow: TestServer;
  beforeAll(async () => {
    slow = await startTestServer({ seed: false, env: { REQUEST_BODY_TIMEOUT_MS: '1000' } });
  });
  afterAll(() => slow?.close());

  it('a body not all received within REQUEST_BODY_TIMEOUT_MS gets a 408 and its connection is closed', { timeout: 30_000 }, async () => {
    const request = rawRequest(slow.url, 'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000', (socket) => dribble(socket, 100));
    const answer = await request.answer;
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({ success: false, code: 'request_too_slow', message: messages.requestBodyTimeout, request_id: expect.stringMatching(UUID) });
    await request.closed;
  });
});

describe('a load-shed refusal of a request with a body', () => {
  let shedding: TestServer;
  beforeAll(async () => {
    // Two requests in flight at most, whatever the rate of the last second (1 ms of queue: the
    // floor of two holds below 2,000 answers a second): two held ones fill it.
    shedding = await startTestServer({ seed: false, env: { SHED_IN_FLIGHT_MIN: '2', SHED_QUEUE_MS: '1', SHED_DB_WAITING: '0' } });
  });
  afterAll(() => shedding?.close());

  it('closes the connection after its 503, however slowly the body keeps coming', { timeout: 30_000 }, async () => {
    const held = [0, 1].map(() => rawRequest(shedding.url, 'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100', (socket) => socket.write('{')));
    await expect.poll(async () => (await shedding.request('GET', '/api/site')).status, { timeout: 10_000 }).toBe(503);

    const request = rawRequest(shedding.url, 'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000', (socket) => dribble(socket, 100));
    const answer = await request.answer;
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ success: false, code: 'service_unavailable', message: messages.serviceUnavailable });
    await request.closed;

    // A large body's connection is closed at once, and says so.
    const large = rawRequest(shedding.url, 'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000', (socket) => dribble(socket, 100));
    expect((await large.answer).headers.connection).toBe('close');
    await large.closed;
    for (const { socket } of held) socket.destroy();
  });

  it('keeps the connection of a small body that came whole, for the retry', { timeout: 30_000 }, async () => {
    // The requests held by the test before are gone (the server has seen their connections close).
    await expect.poll(async () => (await shedding.request('GET', '/api/site')).status, { timeout: 10_000 }).toBe(200);
    const held = [0, 1].map(() => rawRequest(shedding.url, 'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100', (socket) => socket.write('{')));
    await expect.poll(async () => (await shedding.request('GET', '/api/site')).status, { timeout: 10_000 }).toBe(503);
    const { hostname, port } = new URL(shedding.url);
    const socket = connect(Number(port), hostname);
    try {
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      const body = '{"exam_id":1,"slug":"x","answers":[]}';
      // Headers and body in one write, as a browser or nginx sends a small request.
      socket.write(`POST /api/store-answers-exam HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      await expect.poll(() => received, { timeout: 10_000 }).toMatch(/\r\n\r\n\{.*\}$/s);
      expect(received).toMatch(/^HTTP\/1\.1 503 /);
      expect(received).toContain('"code":"service_unavailable"');
      expect(received.toLowerCase()).not.toContain('connection: close');
      // The same connection carries the next request (a probe is never shed).
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await expect.poll(() => received, { timeout: 10_000 }).toMatch(/HTTP\/1\.1 200 /);
    } finally {
      socket.destroy();
      for (const { socket: heldSocket } of held) heldSocket.destroy();
    }
  });
});
