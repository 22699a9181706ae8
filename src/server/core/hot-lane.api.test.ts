// The hot lane (core/hot-lane.ts) answers the autosave and the re-sync exactly as Fastify does: every
// request below is sent over real HTTP (through the HTTP server, where the lane takes the plain
// ones) and through app.inject (Fastify alone), and the two answers are the same, status, body
// (but its request id) and headers. The plain forms are the lane's, the others Fastify's after the
// lane gave their body back; both must be invisible to a client.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';
import { answersFor, startExam, type StartedExam } from '../test/exam-fixtures';
import { createParent } from '../test/factories';
import { apiSecurityHeaders } from '../lib/security-headers';

let server: TestServer;
let exam: StartedExam;
let otherToken: string;
beforeAll(async () => {
  server = await startTestServer();
  exam = await startExam(server);
  otherToken = (await createParent(server)).token;
});
afterAll(() => server?.close());

interface Sent {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sent without Content-Length, in chunks (over HTTP only; inject sends a length). */
  chunked?: boolean;
}

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string | undefined>;
}

const COMPARED_HEADERS = ['content-type', 'cache-control', 'retry-after', 'connection', ...Object.keys(apiSecurityHeaders)];

function comparable(status: number, text: string, headers: Record<string, string | string[] | number | undefined>): Answer {
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: compared as text
  }
  if (typeof body === 'object' && body !== null && 'request_id' in body) body = { ...body, request_id: 'an id' };
  const kept: Record<string, string | undefined> = {};
  for (const name of COMPARED_HEADERS) {
    const value = headers[name];
    kept[name] = Array.isArray(value) ? value.join(', ') : value === undefined ? undefined : String(value);
  }
  // Node's own keep-alive header on a real connection; inject has none.
  if (kept.connection === 'keep-alive') kept.connection = undefined;
  return { status, body, headers: kept };
}

function overHttp({ method, path, headers = {}, body, chunked }: Sent): Promise<Answer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body !== undefined && !chunked ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(comparable(response.statusCode!, Buffer.concat(chunks).toString('utf8'), response.headers)));
    });
    request.on('error', reject);
    if (body !== undefined && chunked) {
      request.write(body.slice(0, 5));
      request.write(body.slice(5));
    } else if (body !== undefined) request.write(body);
    request.end();
  });
}

async function throughInject({ method, path, headers = {}, body }: Sent): Promise<Answer> {
  const response = await server.app.inject({ method, url: path, headers, ...(body !== undefined ? { payload: body } : {}) });
  return comparable(response.statusCode, response.body, response.headers);
}

const json = { 'content-type': 'application/json' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function saves(): [string, Sent][] {
  const answers = answersFor(exam, 3, 2);
  const plain = { exam_id: exam.examId, slug: exam.slug, answers, prediction: 1200, seq: 7 };
  const post = (body: string, headers: Record<string, string> = { ...json, ...bearer(exam.token) }, path = '/api/store-answers-exam'): Sent => ({ method: 'POST', path, headers, body });
  const text = (value: unknown) => JSON.stringify(value);
  return [
    ['a plain save (the lane)', post(text(plain))],
    ['the same save again (idempotent)', post(text(plain))],
    ['a plain save sent in chunks without a length', { ...post(text(plain)), chunked: true }],
    ['charset in the content type', post(text(plain), { 'content-type': 'application/json; charset=utf-8', ...bearer(exam.token) })],
    ['an older save (stale)', post(text({ ...plain, seq: 3 }))],
    ['the exam id as text', post(text({ ...plain, exam_id: String(exam.examId) }))],
    ['an unknown field', post(text({ ...plain, extra: 1 }))],
    ['a control character in the slug', post(text({ ...plain, slug: `${exam.slug}\u0001` }))],
    ['malformed JSON', post('{"exam_id":')],
    ['an empty body', post('')],
    ['a __proto__ key', post(`{"__proto__":{"x":1},"exam_id":${exam.examId},"slug":"${exam.slug}","answers":[]}`)],
    ['nesting too deep', post(`{"exam_id":${exam.examId},"slug":"${exam.slug}","answers":[],"x":${'['.repeat(70)}${']'.repeat(70)}}`)],
    ['a body over the limit', post(text({ ...plain, pad: 'x'.repeat(300 * 1024) }))],
    ['text/plain', post(text(plain), { 'content-type': 'text/plain', ...bearer(exam.token) })],
    ['no session', post(text(plain), json)],
    ['an unknown session', post(text(plain), { ...json, ...bearer('not-a-real-token') })],
    ['another account', post(text(plain), { ...json, ...bearer(otherToken) })],
    ['an answer of another question', post(text({ ...plain, answers: [{ question_id: 2_000_000_000, answer_id: 1 }] }))],
    ['one question twice', post(text({ ...plain, answers: [answers[0], answers[0]] }))],
    ['an exam that does not exist', post(text({ ...plain, exam_id: 2_000_000_000 }))],
    ['a query string on the save', post(text(plain), undefined, '/api/store-answers-exam?x=1')],
  ];
}

function resyncs(): [string, Sent][] {
  const get = (query: string, token: string | null = exam.token): Sent => ({ method: 'GET', path: `/api/examing/get-time${query}`, headers: token ? bearer(token) : {} });
  return [
    ['a plain re-sync (the lane)', get(`?exam_id=${exam.examId}`)],
    ['a leading zero', get(`?exam_id=0${exam.examId}`)],
    ['not a number', get('?exam_id=abc')],
    ['the id twice', get(`?exam_id=${exam.examId}&exam_id=${exam.examId}`)],
    ['an unknown name beside it', get(`?exam_id=${exam.examId}&x=1`)],
    ['an id beyond int4', get('?exam_id=2147483648')],
    ['no query', get('')],
    ['no session', get(`?exam_id=${exam.examId}`, null)],
    ['another account', get(`?exam_id=${exam.examId}`, otherToken)],
    ['percent-encoded digits', get(`?exam_id=%3${String(exam.examId).slice(0, 1)}${String(exam.examId).slice(1)}`)],
  ];
}

describe('the hot lane answers as Fastify does', () => {
  it('POST /api/store-answers-exam in every form, plain or not, with every outcome', async () => {
    for (const [name, sent] of saves()) {
      const lane = await overHttp(sent);
      expect(lane, name).toEqual(await throughInject(sent));
    }
  });

  it('GET /api/examing/get-time in every form, plain or not, with every outcome', async () => {
    for (const [name, sent] of resyncs()) {
      const lane = await overHttp(sent);
      expect(lane, name).toEqual(await throughInject(sent));
    }
  });

  it('stores what a plain save sent, and answers it with the save and the server time', async () => {
    const answers = answersFor(exam, 5, 5);
    const answer = await overHttp({ method: 'POST', path: '/api/store-answers-exam', headers: { ...json, ...bearer(exam.token) }, body: JSON.stringify({ exam_id: exam.examId, slug: exam.slug, answers, seq: 20 }) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, saved: true, stale: false, save_seq: 20, server_time: server.clock.now().toISOString() });
    const row = await server.db.selectFrom('exams').select(['answers', 'save_seq']).where('id', '=', exam.examId).executeTakeFirstOrThrow();
    expect(row.save_seq).toBe(20);
    expect(row.answers).toEqual(Object.fromEntries(answers.map((a) => [String(a.question_id), a.answer_id])));
  });
});
