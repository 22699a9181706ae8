import Fastify from 'fastify';
import compress from '@fastify/compress';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeadlines, registerRequestDeadline } from './request-deadline';

const apps: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** An app with a 100 ms deadline: /slow answers after 300 ms; /late-send's answer spends 300 ms in an onSend hook. */
async function appWithDeadline() {
  const app = Fastify({ logger: false });
  await app.register(compress, { global: true, threshold: 1024 });
  registerRequestDeadline(app, createDeadlines(100));
  const big = { rows: Array.from({ length: 2000 }, (_, i) => ({ i, name: `Câu hỏi số ${i}` })) };
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return big;
  });
  app.get('/late-send', { onSend: async (_request, _reply, payload) => (await new Promise((resolve) => setTimeout(resolve, 300)), payload) }, async () => big);
  await app.listen({ port: 0, host: '127.0.0.1' });
  apps.push(app);
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe('the request deadline', () => {
  it('answers 503 to a handler still running at the deadline', async () => {
    const url = await appWithDeadline();
    const reply = await fetch(`${url}/slow`);
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBeTruthy();
  });

  it('sends nothing once the answer is on its way: a body still being prepared at the deadline arrives whole', async () => {
    const url = await appWithDeadline();
    const reply = await fetch(`${url}/late-send`, { headers: { 'accept-encoding': 'gzip' } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-encoding')).toBe('gzip');
    // fetch undoes the gzip: a stream with a second answer in it would not parse.
    const body = (await reply.json()) as { rows: unknown[] };
    expect(body.rows).toHaveLength(2000);
  });
});
