// light-my-request (Fastify's inject) builds its Cookie header with `cookie` 2.x (Node 22+); until
// the project ran its own Node 24 (decision 032) package.json overrode it to 1.1.x for Node 20.
// This checks the header inject sends (the one place light-my-request uses the package).
import Fastify from 'fastify';
import { expect, it } from 'vitest';

it('inject sends cookies with its cookie package', async () => {
  const app = Fastify();
  app.get('/', async (request) => ({ cookie: request.headers.cookie }));
  const response = await app.inject({ method: 'GET', url: '/', cookies: { session: 'a b', lang: 'vi' } });
  expect(response.json()).toEqual({ cookie: 'session=a%20b; lang=vi' });
  await app.close();
});
