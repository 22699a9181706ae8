// The in-flight limit of the load shedder on the real server: requests held open by their own
// unfinished bodies fill it (no timing involved), the next request gets 503 with Retry-After at once
// while the probes answer, and requests are served again once the held ones are answered.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { startTestServer, type TestServer } from '../test/harness';

let server: TestServer;
beforeAll(async () => {
  // Two requests in flight at most while the process has answered nothing (the rate's share of
  // 100 ms is below that); the pool's rule off, so that only this one refuses.
  server = await startTestServer({ seed: false, env: { SHED_IN_FLIGHT_MIN: '2', SHED_QUEUE_MS: '100', SHED_DB_WAITING: '0' } });
});
afterAll(async () => {
  await server?.close();
});

/** A POST whose headers are sent and body only begun: admitted, and in flight until `finish`. */
async function heldRequest(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  const body = '{"exam_id":1,"slug":"x","answers":[]}';
  socket.write(`POST /api/store-answers-exam HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const answered = new Promise<string>((resolve) => socket.once('end', () => resolve(received)));
  return {
    finish: async () => {
      socket.end(body.slice(5));
      return answered;
    },
    received: () => received,
  };
}

describe('the in-flight limit', () => {
  it('refuses with 503 and Retry-After once the admitted requests fill it, answers the probes, and admits again when they are answered', async () => {
    const held = [await heldRequest(server.url), await heldRequest(server.url)];
    // Both are admitted (the server has read their headers) before the next request is sent.
    await expect.poll(async () => (await server.request('GET', '/api/site')).status, { timeout: 10_000 }).toBe(503);

    const refused = await server.request('GET', '/api/districts');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.body).toMatchObject({ success: false, code: 'service_unavailable', message: messages.serviceUnavailable });
    // Requests that do not come through the HTTP server (app.inject) meet the same limit.
    const injected = await server.app.inject({ method: 'GET', url: '/api/site' });
    expect(injected.statusCode).toBe(503);
    // The probes are never refused.
    expect((await server.request('GET', '/healthz')).status).toBe(200);
    expect((await server.request('GET', '/readyz')).status).toBe(200);
    expect(held.map((request) => request.received())).toEqual(['', '']);

    // The held requests end (answered: their body is incomplete as a save) and free their places.
    for (const request of held) expect(await request.finish()).toMatch(/^HTTP\/1\.1 400 /);
    await expect.poll(async () => (await server.request('GET', '/api/site')).status, { timeout: 10_000 }).toBe(200);
  });
});
