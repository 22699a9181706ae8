// package.json overrides the `cookie` of light-my-request (Fastify's inject) from 2.x, which wants
// Node 22, to 1.1.x, which runs on the Node 20.19 the README promises. This checks that inject
// still builds its Cookie header with it (the one place light-my-request uses the package).
import Fastify from 'fastify';
import { expect, it } from 'vitest';

it('inject sends cookies with the overridden cookie package', async () => {
  const app = Fastify();
  app.get('/', async (request) => ({ cookie: request.headers.cookie }));
  const response = await app.inject({ method: 'GET', url: '/', cookies: { session: 'a b', lang: 'vi' } });
  expect(response.json()).toEqual({ cookie: 'session=a%20b; lang=vi' });
  await app.close();
});
