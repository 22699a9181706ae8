// The authorisation matrix of the education offices' viewers (issue 41, decision 039): every route
// of the API, as a province viewer and as a viewer of unit A, on a season with contestants, exams
// and published prizes in units A and B. The back office, the school report, the families' and
// every other write route refuse them (401/403/404, or a 4xx for a body refused before the check),
// never a 2xx or a 5xx; only the public routes (what a visitor reads too) and the account's own
// (its sessions, its password, its own data) answer them. /api/viewer/* refuse ids outside the
// scope (unit B's, unknown ones) with the same 403, and a unit viewer's figures, results and
// exports hold unit A's schools only: never a name of unit B, a parent's phone or a contestant id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import readExcelFile from 'read-excel-file/node';
import { viewerMessages } from '../shared/schemas/viewers';
import { simulateDemoResults } from './demo/results';
import { createContestant, createParent, createViewer, type CreatedUser } from './test/factories';
import { routesOfTree } from './test/route-tree';
import { startTestServer, type TestServer } from './test/harness';

let server: TestServer;
let province: CreatedUser;
let unitA: CreatedUser;
let A: { id: number; name: string };
let B: { id: number; name: string };
/** Names only unit B has (its own name, its schools'), and every parent's phone. */
let namesOfB: string[];
let parentPhones: Set<string>;
/** Ids of unit B's rows, put in every path parameter. */
let idsOfB: string[];
let schoolOfB: number;
let validGets: Record<string, string[]>;
let validBodies: Record<string, unknown>;

/** The account's own routes: a viewer may use them on itself (its sessions, its password, its data). */
const OWN_ACCOUNT = new Set([
  'GET /api/sessions',
  'DELETE /api/sessions/:id',
  'GET /api/customer/change-password',
  'POST /api/customer/change-password',
  'GET /api/customer/my-data',
  'GET /api/customer/my-data.html',
]);
/** Statuses that refuse: the role's check, or the request itself refused before it (no data either way). */
const REFUSED = new Set([400, 401, 403, 404, 405, 413, 415, 422]);

const fetchAs = async (method: string, path: string, token?: string, body?: unknown) => {
  const response = await fetch(server.url + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  // A workbook's cells as text, so that its names and phones are searched as a JSON body's.
  const text = type.includes('spreadsheetml') ? JSON.stringify(await readExcelFile(bytes)) : bytes.toString('utf8');
  return { status: response.status, text };
};

/** What must never be in an answer to a viewer: a parent's phone, and to a unit viewer of A, a name of B. */
function leaks(text: string, who: 'province' | 'unit'): string[] {
  const found: string[] = [];
  for (const phone of text.match(/0\d{9}/g) ?? []) if (parentPhones.has(phone)) found.push(`phone ${phone}`);
  if (who === 'unit') for (const name of namesOfB) if (text.includes(name)) found.push(`name ${name}`);
  return found;
}

beforeAll(async () => {
  server = await startTestServer({ env: { REQUEST_TIMEOUT_MS: '60000' } });
  const districts = await server.db.selectFrom('districts').select(['id', 'name']).orderBy('id').limit(2).execute();
  [B, A] = districts as [typeof B, typeof A];
  // Contestants, finished exams and published prizes in both units (the demo simulation: the demo
  // school and others of both units), and a child enrolled in each unit since.
  await simulateDemoResults(server.db, server.clock, { publish: true });
  for (const unit of [A, B]) {
    const school = await server.db.selectFrom('schools').select('id').where('district_id', '=', unit.id).orderBy('id').executeTakeFirstOrThrow();
    await createContestant(server, await createParent(server), { schoolId: school.id });
  }
  province = await createViewer(server);
  unitA = await createViewer(server, [A.id]);
  const schoolsOfB = await server.db.selectFrom('schools').select(['id', 'name']).where('district_id', '=', B.id).execute();
  const schoolsOfA = new Set((await server.db.selectFrom('schools').select('name').where('district_id', '=', A.id).execute()).map((s) => s.name));
  namesOfB = [B.name, ...schoolsOfB.map((s) => s.name).filter((name) => ![...schoolsOfA].some((a) => a.includes(name)))];
  parentPhones = new Set((await server.db.selectFrom('users').select('phone').where('role', '=', 'parent').execute()).map((u) => u.phone));
  const contestantOfB = await server.db.selectFrom('contestants').select(['id']).where('district_id', '=', B.id).orderBy('id').executeTakeFirstOrThrow();
  const examOfB = await server.db
    .selectFrom('exams')
    .innerJoin('contestants', 'contestants.id', 'exams.contestant_id')
    .select(['exams.id', 'exams.slug', 'exams.book_id', 'exams.contestant_id'])
    .where('contestants.district_id', '=', B.id)
    .orderBy('exams.id')
    .executeTakeFirstOrThrow();
  schoolOfB = schoolsOfB[0]!.id;
  idsOfB = [...new Set([String(B.id), String(schoolOfB), String(contestantOfB.id), String(examOfB.id)])];
  const group = await server.db.selectFrom('class_groups').select('id').orderBy('id').executeTakeFirstOrThrow();
  const practice = 'A'.repeat(24);
  // Paths that pass each GET's own validation, with unit B's rows: the role's check is what answers.
  validGets = {
    'GET /api/class-rooms': [`/api/class-rooms?class_group_id=${group.id}`],
    'GET /api/chilren-certificate': [`/api/chilren-certificate?child_id=${contestantOfB.id}`],
    'GET /api/certificates/verify/:code': ['/api/certificates/verify/ABCD2345'],
    'GET /api/certificates/:code/:format': ['/api/certificates/ABCD2345/pdf'],
    'GET /api/practice/exams/:slug': [`/api/practice/exams/${practice}`],
    'GET /api/practice/exams/:slug/time': [`/api/practice/exams/${practice}/time`],
    'GET /api/practice/exams/:slug/result': [`/api/practice/exams/${practice}/result`],
    'GET /api/examing': [`/api/examing?book_id=${examOfB.book_id}&child_id=${examOfB.contestant_id}&slug_exam=${examOfB.slug}`],
    'GET /api/examing/get-time': [`/api/examing/get-time?exam_id=${examOfB.id}`],
    'GET /api/exam-result': [`/api/exam-result?slug=${examOfB.slug}`],
    'GET /api/media/:file': [`/api/media/${'0'.repeat(64)}.png`],
    'GET /api/opt-out/:token': ['/api/opt-out/abcdefghijkl'],
  };
  // Bodies that pass the families' writes' validation, naming unit B's child and exam.
  validBodies = {
    'POST /api/start-exam': { book_id: examOfB.book_id, child_id: examOfB.contestant_id },
    'POST /api/customer/profile': { childrens: [] },
    'POST /api/report-school/certificates': {},
  };
}, 180_000);
afterAll(() => server?.close());

describe('every route of the API as a viewer', () => {
  it('refuses the back office, the school report, the families’ and every write route; answers only public and own-account ones; 0 leaks', { timeout: 300_000 }, async () => {
    const routes = routesOfTree(server.app).filter((r) => r.path.startsWith('/api/') && !r.path.startsWith('/api/viewer') && r.path !== '/api/logout');
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    const answered: string[] = [];
    for (const { method, path } of routes) {
      const key = `${method} ${path}`;
      const generic = (path.includes(':') ? idsOfB.map((id) => path.replace(/:[A-Za-z_]+/g, id)) : [path]).map((concrete) =>
        method === 'GET' ? `${concrete}?district_id=${B.id}&school_id=${schoolOfB}` : concrete,
      );
      const concretes = [...generic, ...(validGets[key] ?? [])];
      const body = method === 'GET' || method === 'DELETE' ? undefined : (validBodies[key] ?? {});
      for (const concrete of concretes) {
        const visitor = await fetchAs(method, concrete, undefined, body);
        const isPublic = visitor.status < 400;
        for (const [who, user] of [
          ['province', province],
          ['unit', unitA],
        ] as const) {
          const response = await fetchAs(method, concrete, user.token, body);
          const label = `${method} ${concrete} as the ${who} viewer: ${response.status}`;
          if (response.status >= 500) failures.push(`${label} ${response.text.slice(0, 200)}`);
          if (path.startsWith('/api/admin') && response.status !== 403) failures.push(`${label}: the back office must answer 403`);
          if (response.status < 400) {
            answered.push(key);
            if (!isPublic && !OWN_ACCOUNT.has(key)) failures.push(`${label}: answered a route that is neither public nor the account's own`);
            // A public answer holds what a visitor reads too; any other must not leak.
            if (!isPublic) for (const leak of leaks(response.text, who)) failures.push(`${label}: ${leak}`);
            continue;
          }
          if (isPublic || OWN_ACCOUNT.has(key)) continue;
          // The request refused for anyone before any check (its own validation), when a valid one is walked too.
          const malformed = response.status === 400 && visitor.status === 400 && (method !== 'GET' || validGets[key] !== undefined) && !validGets[key]?.includes(concrete);
          if (malformed) continue;
          if (method === 'GET' ? ![401, 403, 404].includes(response.status) : !REFUSED.has(response.status)) failures.push(`${label}: not a refusal ${response.text.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The own-account routes did answer (the walk reached them).
    expect(answered).toContain('GET /api/sessions');
  });
});

describe('/api/viewer/* with ids outside the scope', () => {
  const reads = ['/api/viewer/scope', '/api/viewer/participation', '/api/viewer/results', '/api/viewer/participation.xlsx', '/api/viewer/results.xlsx'];

  it('answers the same 403 to unit B’s id and to unknown ids, on every path that takes one', async () => {
    for (const [user, ids] of [
      [unitA, [B.id, 0, 999_999, 2_147_483_647]],
      [province, [999_999, 2_147_483_647]],
    ] as const) {
      for (const id of ids) {
        for (const path of ['/api/viewer/participation', '/api/viewer/participation.xlsx']) {
          const response = await fetchAs('GET', `${path}?district_id=${id}`, user.token);
          // 0 is not an id at all: the query's validation (400), still nothing read.
          if (id === 0) expect(response.status).toBe(400);
          else {
            expect(response.status, `${path}?district_id=${id}`).toBe(403);
            expect(JSON.parse(response.text).message).toBe(viewerMessages.outOfScope);
          }
        }
      }
    }
  });

  it('gives a unit viewer unit A’s schools only, in every read and export, whatever the filter', async () => {
    const nameOfB = namesOfB[1]!;
    const filters = [
      `/api/viewer/participation?school_q=${encodeURIComponent(nameOfB)}`,
      `/api/viewer/participation?district_id=${A.id}&page=2`,
      // A query the route does not take is ignored: still the scope's.
      `/api/viewer/results?district_id=${B.id}&school_id=${schoolOfB}`,
      `/api/viewer/results.xlsx?district_id=${B.id}`,
      `/api/viewer/scope?district_id=${B.id}`,
    ];
    for (const path of [...reads, ...filters]) {
      const response = await fetchAs('GET', path, unitA.token);
      expect(response.status, path).toBe(200);
      expect(leaks(response.text, 'unit'), path).toEqual([]);
      expect(response.text, path).not.toMatch(/"(contestant_id|child_id|user_id|phone|parent_phone)"/);
    }
    const results = JSON.parse((await fetchAs('GET', '/api/viewer/results', unitA.token)).text).data;
    expect(results.published).toBe(true);
    expect(results.prizes.length).toBeGreaterThan(0);
    expect(new Set(results.prizes.map((p: { unit: string }) => p.unit))).toEqual(new Set([A.name]));
    const participation = JSON.parse((await fetchAs('GET', '/api/viewer/participation', unitA.token)).text).data;
    expect(participation.schools.items.length).toBeGreaterThan(0);
    expect(participation.totals.contestants).toBeGreaterThan(0);
    expect(new Set(participation.schools.items.map((s: { unit: string }) => s.unit))).toEqual(new Set([A.name]));
  });

  it('gives the province viewer both units, never a parent’s phone or a contestant id', async () => {
    for (const path of reads) {
      const response = await fetchAs('GET', path, province.token);
      expect(response.status, path).toBe(200);
      expect(leaks(response.text, 'province'), path).toEqual([]);
      expect(response.text, path).not.toMatch(/"(contestant_id|child_id|user_id|phone|parent_phone)"/);
    }
    const results = JSON.parse((await fetchAs('GET', '/api/viewer/results', province.token)).text).data;
    expect(new Set(results.units.map((u: { name: string }) => u.name))).toContain(B.name);
  });
});
