// The hot lane on a Fastify app of its own: which requests it takes, the body it gives back to
// Fastify when it leaves one after reading it, its deadline and its error answers.
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { conflict, unauthorized } from '../lib/errors';
import { createHotLane, type HotRoute } from './hot-lane';
import { createDeadlines } from './request-deadline';

const isPlain = (body: unknown) =>
  typeof body === 'object' && body !== null && Object.keys(body).length === 1 && typeof (body as { n?: unknown }).n === 'number';

let close = async () => {};
afterEach(() => close());

async function start(handle: HotRoute['handle'], { timeoutMs = 0, withFastifyRoute = true } = {}) {
  const deadlines = createDeadlines(timeoutMs);
  const observed: string[] = [];
  const lane = createHotLane({ bodyLimit: 1024, deadlines, observe: (method, status, route) => observed.push(`${method} ${status} ${route}`) });
  const byFastify: unknown[] = [];
  const app = Fastify({
    serverFactory: (handler) =>
      createServer((request, response) => {
        if (!lane.take(request, response, handler)) handler(request, response);
      }),
  });
  lane.register(app);
  lane.route({ method: 'POST', path: '/api/save', acceptsBody: isPlain, handle, serialize: (reply) => JSON.stringify(reply) });
  lane.route({
    method: 'GET',
    path: '/api/time',
    readQuery: (search) => (/^n=[0-9]$/.test(search) ? { n: Number(search.slice(2)) } : undefined),
    headers: { 'cache-control': 'no-store' },
    handle,
    serialize: (reply) => JSON.stringify(reply),
  });
  if (withFastifyRoute) {
    app.post('/api/save', async (request) => {
      byFastify.push(request.body);
      return { by: 'fastify' };
    });
    app.get('/api/time', async (request) => {
      byFastify.push(request.query);
      return { by: 'fastify' };
    });
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  close = async () => {
    deadlines?.close();
    await app.close();
  };
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => fetch(`${base}/api/save`, { method: 'POST', headers, body });
  return { base, post, byFastify, observed };
}

describe('hot lane', () => {
  it('serves the plain form itself and gives every other form, body and all, to Fastify', async () => {
    const taken: unknown[] = [];
    const { base, post, byFastify, observed } = await start(async ({ body, query, token }) => {
      taken.push({ body, query, token });
      return { by: 'lane' };
    });
    const plain = await post('{"n":1}', { 'content-type': 'application/json', authorization: 'Bearer abc' });
    expect(await plain.json()).toEqual({ by: 'lane' });
    expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    expect(taken).toEqual([{ body: { n: 1 }, query: undefined, token: 'abc' }]);
    expect(observed).toEqual(['POST 200 /api/save']);

    // Read by the lane, then left to Fastify: it parses the same body.
    expect(await (await post('{"n":"1"}')).json()).toEqual({ by: 'fastify' });
    expect(await (await post('{"n":1,"m":2}')).json()).toEqual({ by: 'fastify' });
    // Left before reading: another type, or a query string.
    expect(await (await post('{"n":1}', { 'content-type': 'application/json; charset=latin1' })).json()).toEqual({ by: 'fastify' });
    expect(await (await fetch(`${base}/api/save?x=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":2}' })).json()).toEqual({ by: 'fastify' });
    expect(byFastify).toEqual([{ n: '1' }, { n: 1, m: 2 }, { n: 1 }, { n: 2 }]);

    const time = await fetch(`${base}/api/time?n=4`);
    expect(await time.json()).toEqual({ by: 'lane' });
    expect(time.headers.get('cache-control')).toBe('no-store');
    expect(taken.at(-1)).toEqual({ body: undefined, query: { n: 4 }, token: undefined });
    expect(await (await fetch(`${base}/api/time?n=44`)).json()).toEqual({ by: 'fastify' });
    expect(taken).toHaveLength(2);
  });

  it('answers a thrown error in the error shape, with a request id and Retry-After on a 503', async () => {
    let error: Error = unauthorized(messages.unauthorized);
    const { post } = await start(async () => {
      throw error;
    });
    const refused = await post('{"n":1}');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ success: false, code: 'unauthorized', message: messages.unauthorized, request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    error = conflict(messages.serviceUnavailable, 'save_conflict');
    expect((await post('{"n":1}')).status).toBe(409);

    error = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const away = await post('{"n":1}');
    expect(away.status).toBe(503);
    expect(away.headers.get('retry-after')).toBe('2');
    expect(await away.json()).toMatchObject({ success: false, code: 'service_unavailable', message: messages.serviceUnavailable });

    error = new Error('a bug');
    const bug = await post('{"n":1}');
    expect(bug.status).toBe(500);
    expect(await bug.json()).toMatchObject({ success: false, code: 'server_error', message: messages.serverError });
  });

  it('answers 503 request_timeout to a request not answered within the deadline', async () => {
    const { post } = await start(() => new Promise(() => {}), { timeoutMs: 200 });
    const late = await post('{"n":1}');
    expect(late.status).toBe(503);
    expect(late.headers.get('retry-after')).toBe('2');
    expect(await late.json()).toMatchObject({ success: false, code: 'request_timeout', message: messages.serviceUnavailable });
  });

  it('refuses to start when a route of the lane has no Fastify route to leave requests to', async () => {
    await expect(start(async () => ({}), { withFastifyRoute: false })).rejects.toThrow(/no Fastify route for POST \/api\/save, GET \/api\/time/);
  });
});
