import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { insertNewsPost } from '../../db/seed/seed';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: '2025-03-10T03:00:00Z' });
});
afterAll(() => server?.close());

describe('news API', () => {
  it('lists published posts, newest first, with the formatted date', async () => {
    const { status, body } = await server.request('GET', '/api/blogs');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.length).toBeGreaterThan(0);
    const first = body.data[0];
    expect(first).toEqual({
      slug: expect.stringMatching(/^[a-z0-9-]+$/),
      name: expect.any(String),
      image: expect.stringMatching(/^\//),
      created_at: expect.any(String),
      created_at_format: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/),
    });
    const dates = body.data.map((post: { created_at: string }) => post.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('answers an article with its sanitised body, and 404 for an unknown slug', async () => {
    await insertNewsPost(server.db, {
      slug: 'bai-thu-nghiem',
      name: 'Bài thử nghiệm',
      image: '/images/news/x.svg',
      bodyHtml: '<p>Nội dung</p><script>alert(1)</script>',
      createdAt: new Date('2025-03-09T18:00:00Z'),
    });
    const { status, body } = await server.request('GET', '/api/blog/bai-thu-nghiem');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ name: 'Bài thử nghiệm', body: '<p>Nội dung</p>', created_at_format: '10/03/2025' });

    const missing = await server.request('GET', '/api/blog/khong-co-bai-nay');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, message: expect.any(String) });
  });
});
