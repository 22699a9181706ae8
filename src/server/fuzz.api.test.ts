// No input of any shape gives a 5xx: every route of the API, with odd path parameters, query
// strings and bodies, as a visitor, a parent, a school administrator, the organiser (the back office) and the education offices' viewers. The answers must be in
// the one error shape. A seeded generator, so that a failure can be replayed.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputMessages } from '../shared/messages';
import { createContestant, createOrganiser, createParent, createSchoolAdmin, createViewer } from './test/factories';
import { seededRandom } from './lib/seeded-random';
import { routesOfTree } from './test/route-tree';
import { startTestServer, type TestServer } from './test/harness';

let server: TestServer;
let tokens: (string | undefined)[];
/** The server's error log lines by request id: a 5xx in a failure names its cause (a CI log shows only its end). */
const errorsById = new Map<string, string>();
const errorLog = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as { level?: number; reqId?: string; err?: { type?: string; message?: string; code?: string } };
      if ((entry.level ?? 0) >= 50 && entry.reqId && entry.err) errorsById.set(entry.reqId, `${entry.err.type}: ${entry.err.message} (${entry.err.code ?? 'no code'})`);
    }
    done();
  },
});
/** A 5xx's cause as the server logged it. */
const causeOf = (body: { request_id?: unknown } | undefined) => (typeof body?.request_id === 'string' ? errorsById.get(body.request_id) ?? 'not logged' : 'no request id');

beforeAll(async () => {
  server = await startTestServer({ log: { stream: errorLog, level: 'error' } });
  const parent = await createParent(server);
  await createContestant(server, parent);
  const admin = await createSchoolAdmin(server);
  const organiser = await createOrganiser(server);
  // The education offices' viewers (issue 41): the whole province, and one unit.
  const province = await createViewer(server);
  const district = await server.db.selectFrom('districts').select('id').orderBy('id').executeTakeFirstOrThrow();
  const unit = await createViewer(server, [district.id]);
  tokens = [undefined, parent.token, admin.token, organiser.token, province.token, unit.token];
});
afterAll(() => server?.close());

const ODD_TEXT = [
  '', ' ', '0', '-1', '1', '1.5', '1e3', '0x10', '2147483648', '99999999999999999999', 'true', 'null', '[1]',
  'ĐặngThịÁnh', 'a\u0000b', '\u001b[31m', 'a'.repeat(300), '%', '%zz', '%00', '%F0%9F%98%80', '..%2F..%2Fetc', "' OR 1=1 --", '<script>', '😀',
];
const oddValues = (random: () => number, depth = 0): unknown => {
  const kinds = [
    () => ODD_TEXT[Math.floor(random() * ODD_TEXT.length)]!.replace(/%../g, ''),
    () => Math.floor(random() * 10) - 2,
    () => [0, -0, 1.5, 1e308, -1e308, 2 ** 53, 2_147_483_648][Math.floor(random() * 7)],
    () => random() < 0.5,
    () => null,
    () => (depth < 3 ? Array.from({ length: Math.floor(random() * 4) }, () => oddValues(random, depth + 1)) : []),
    () => (depth < 3 ? oddObject(random, depth + 1) : {}),
  ];
  return kinds[Math.floor(random() * kinds.length)]!();
};
const FIELD_NAMES = [
  'phone', 'password', 'otp', 'is_register', 'id', 'book_id', 'child_id', 'exam_id', 'slug', 'answers', 'question_id', 'answer_id',
  'prediction', 'seq', 'childrens', 'fullname', 'district_id', 'school_id', 'class_group_id', 'class_room_id', 'class_room_other',
  'name', 'token', 'page', 'limit', '__proto__', 'constructor',
];
function oddObject(random: () => number, depth = 0): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 6); i > 0; i -= 1) object[FIELD_NAMES[Math.floor(random() * FIELD_NAMES.length)]!] = oddValues(random, depth);
  return object;
}

/** Routes and methods of /api, from Fastify's own route tree (nested routes included). */
function apiRoutes(): { path: string; methods: string[] }[] {
  const byPath = new Map<string, string[]>();
  for (const { method, path } of routesOfTree(server.app)) {
    if (path.startsWith('/api/')) byPath.set(path, [...(byPath.get(path) ?? []), method]);
  }
  return [...byPath].map(([path, methods]) => ({ path, methods }));
}

describe('odd input on every route', () => {
  it('never gives a 5xx, and every error is in the one shape', { timeout: 120_000 }, async () => {
    const random = seededRandom(20261124);
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const { path, methods } of routes) {
      for (const method of methods) {
        for (let i = 0; i < 30; i += 1) {
          const concrete = path.replace(/:[A-Za-z_]+/g, () => encodeURIComponent(ODD_TEXT[Math.floor(random() * ODD_TEXT.length)]!) || '0');
          const query = random() < 0.5 ? '' : `?${FIELD_NAMES[Math.floor(random() * FIELD_NAMES.length)]}=${ODD_TEXT[Math.floor(random() * ODD_TEXT.length)]}`;
          const body = method === 'GET' || method === 'DELETE' ? undefined : random() < 0.8 ? oddObject(random) : oddValues(random);
          const token = tokens[Math.floor(random() * tokens.length)];
          const response = await server.request(method, concrete + query, { body, token });
          const label = `${method} ${concrete}${query} ${JSON.stringify(body)}`;
          if (response.status >= 500) failures.push(`${response.status} ${label}: ${JSON.stringify(response.body)} ${causeOf(response.body)}`);
          else if (response.status >= 400 && !(response.body?.success === false && typeof response.body.code === 'string' && typeof response.body.message === 'string')) {
            failures.push(`${response.status} not in the error shape: ${label}: ${JSON.stringify(response.body)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('deep nesting and odd file names on every route (issue 21)', () => {
  const withBody = () => apiRoutes().flatMap(({ path, methods }) => methods.filter((m) => m !== 'GET' && m !== 'DELETE').map((method) => ({ method, path })));

  it('a JSON body nested 9,000 levels is a 400 invalid_input on every route that takes one, as anyone', { timeout: 120_000 }, async () => {
    const random = seededRandom(21);
    const failures: string[] = [];
    for (const { method, path } of withBody()) {
      const concrete = path.replace(/:[A-Za-z_]+/g, '1');
      const token = tokens[Math.floor(random() * tokens.length)];
      const deep = random() < 0.5 ? '['.repeat(9000) + ']'.repeat(9000) : `{"a":${'{"b":'.repeat(9000)}1${'}'.repeat(9000)}}`;
      const response = await fetch(server.url + concrete, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: deep,
      });
      const body = await response.json();
      // The back office checks the session before it reads a body: a 401/403 first is as good.
      const refusedFirst = (response.status === 401 || response.status === 403) && body.success === false;
      const tooDeep = response.status === 400 && body.code === 'invalid_input' && body.message === inputMessages.tooDeep;
      if (!(refusedFirst || tooDeep) || typeof body.request_id !== 'string') {
        failures.push(`${method} ${concrete}: ${response.status} ${JSON.stringify(body)}${response.status >= 500 ? ` ${causeOf(body)}` : ''}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('control characters in a multipart file name never give a 5xx on any upload route', { timeout: 120_000 }, async () => {
    const document = (await server.request('GET', '/api/docs/openapi.json')).body as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
    };
    const uploads = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.requestBody?.content?.['multipart/form-data'])
        .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[A-Za-z_]+\}/g, '1') })),
    );
    expect(uploads.length).toBeGreaterThan(4);
    const names = ['\u0000', 'a\u0000b.xlsx', '\u001b[2J\u001b[31mtruong.csv', 'x\u007f\u0085\u009f.txt', 'anh\u202egnp.exe', '\u2066.mp3\u2069', '..\\..\\a.png'];
    const failures: string[] = [];
    for (const { method, path } of uploads) {
      for (const name of names) {
        const form = new FormData();
        form.append('dry_run', '1');
        form.append('file', new Blob([new Uint8Array(Buffer.from('Quận/Huyện,Trường\n'))]), name);
        const response = await server.request(method, path, { token: tokens[3], body: form });
        if (response.status >= 500 || response.body?.success !== false && response.status >= 400) failures.push(`${method} ${path} ${JSON.stringify(name)}: ${response.status}${response.status >= 500 ? ` ${causeOf(response.body)}` : ''}`);
        const fileName = response.body?.data?.file_name;
        // eslint-disable-next-line no-control-regex -- looking for control characters is the point
        if (typeof fileName === 'string' && /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(fileName)) failures.push(`${path}: ${JSON.stringify(fileName)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
