// /api/admin/news: permissions, create/edit/publish/delete with their audit entries, slugs from
// Vietnamese titles, sanitised bodies, bad inputs and picture uploads.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NEWS_IMAGE } from '../../../../shared/schemas/admin-news';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createOrganiser, createParent, createSchoolAdmin, uploadForm, type CreatedUser } from '../../../test/factories';

let server: TestServer;
let organiser: CreatedUser;
let parent: CreatedUser;
let schoolAdmin: CreatedUser;

beforeAll(async () => {
  server = await startTestServer({ now: '2025-03-10T03:00:00Z' });
  organiser = await createOrganiser(server);
  parent = await createParent(server);
  schoolAdmin = await createSchoolAdmin(server);
});
afterAll(() => server.close());

const asOrganiser = (method: string, path: string, body?: unknown) => server.request(method, `/api/admin${path}`, { token: organiser.token, body });
const post = (body: Record<string, unknown>) => asOrganiser('POST', '/news', { body_html: '<p>Nội dung</p>', published: true, ...body });
const auditOf = async (kind: string) =>
  server.db.selectFrom('audit_log').select(['actor_phone', 'kind', 'summary', 'details']).where('kind', '=', kind).orderBy('id', 'desc').execute();
const png = (width = 1600, height = 900) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } }).png().toBuffer();

describe('permissions', () => {
  it('answers 401 without a session and 403 for parents and school administrators, storing nothing', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/news'],
      ['GET', '/api/admin/news/1'],
      ['POST', '/api/admin/news', { name: 'Tin lạ', body_html: '<p>x</p>', published: true }],
      ['PUT', '/api/admin/news/1', { name: 'Đổi tên' }],
      ['DELETE', '/api/admin/news/1'],
      ['POST', '/api/admin/news/images', uploadForm('a.png', 'x')],
    ];
    for (const [method, path, body] of calls) {
      expect((await server.request(method, path, { body })).status).toBe(401);
      expect((await server.request(method, path, { body, token: parent.token })).status).toBe(403);
      expect((await server.request(method, path, { body, token: schoolAdmin.token })).status).toBe(403);
    }
    expect(await server.db.selectFrom('news_posts').select('id').where('name', '=', 'Tin lạ').execute()).toEqual([]);
  });
});

describe('create, publish, edit, delete', () => {
  it('creates a published post that /api/blogs lists, with a slug without diacritics, and audits it', async () => {
    const created = await post({ name: 'Đại sứ Văn hoá đọc: Lễ trao giải', body_html: '<h2>Thông báo</h2><p>Mời các em <strong>đến dự</strong>.</p>' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ id: expect.any(Number), slug: 'dai-su-van-hoa-doc-le-trao-giai', published: true, image: DEFAULT_NEWS_IMAGE });

    const blogs = await server.request('GET', '/api/blogs');
    expect(blogs.body.data[0]).toMatchObject({ slug: 'dai-su-van-hoa-doc-le-trao-giai', name: 'Đại sứ Văn hoá đọc: Lễ trao giải', created_at_format: '10/03/2025' });
    const article = await server.request('GET', '/api/blog/dai-su-van-hoa-doc-le-trao-giai');
    expect(article.body.data.body).toBe('<h2>Thông báo</h2><p>Mời các em <strong>đến dự</strong>.</p>');

    const [entry] = await auditOf('news.create');
    expect(entry).toMatchObject({
      actor_phone: organiser.phone,
      summary: 'Thêm tin "Đại sứ Văn hoá đọc: Lễ trao giải" (đã đăng)',
      details: { id: created.body.data.id, slug: 'dai-su-van-hoa-doc-le-trao-giai', after: { name: 'Đại sứ Văn hoá đọc: Lễ trao giải', published: true } },
    });
  });

  it('keeps a draft out of /api/blogs until it is published, and unpublishes it again', async () => {
    const created = await post({ name: 'Bản nháp đợt 2', published: false });
    const { id, slug } = created.body.data;
    const listed = async () => (await server.request('GET', '/api/blogs')).body.data.some((p: { slug: string }) => p.slug === slug);
    expect(await listed()).toBe(false);
    expect((await server.request('GET', `/api/blog/${slug}`)).status).toBe(404);

    const drafts = await asOrganiser('GET', '/news?status=draft&q=nháp');
    expect(drafts.body.data.items.map((p: { id: number }) => p.id)).toContain(id);
    expect(drafts.body.data.items.every((p: { published: boolean }) => !p.published)).toBe(true);

    const published = await asOrganiser('PUT', `/news/${id}`, { published: true });
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ published: true, slug });
    expect(await listed()).toBe(true);
    expect((await auditOf('news.publish'))[0]).toMatchObject({ summary: 'Đăng tin "Bản nháp đợt 2"', details: { before: { published: false }, after: { published: true } } });

    await asOrganiser('PUT', `/news/${id}`, { published: false });
    expect(await listed()).toBe(false);
    expect((await auditOf('news.unpublish'))[0]).toMatchObject({ details: { before: { published: true }, after: { published: false } } });
  });

  it('edits any field, keeps the slug, audits only what changed, and writes nothing when nothing changed', async () => {
    const { id, slug } = (await post({ name: 'Tin cần sửa' })).body.data;
    const edited = await asOrganiser('PUT', `/news/${id}`, { name: 'Tin đã sửa', body_html: '<p>Mới</p>' });
    expect(edited.body.data).toMatchObject({ id, slug, name: 'Tin đã sửa', body_html: '<p>Mới</p>', published: true });
    const [entry] = await auditOf('news.update');
    expect(entry!.details).toEqual({
      id,
      slug,
      before: { name: 'Tin cần sửa', body_html: '<p>Nội dung</p>' },
      after: { name: 'Tin đã sửa', body_html: '<p>Mới</p>' },
    });

    const count = async () => (await auditOf('news.update')).length;
    const before = await count();
    expect((await asOrganiser('PUT', `/news/${id}`, { name: 'Tin đã sửa' })).status).toBe(200);
    expect(await count()).toBe(before);

    const fetched = await asOrganiser('GET', `/news/${id}`);
    expect(fetched.body.data).toMatchObject({ name: 'Tin đã sửa', body_html: '<p>Mới</p>' });
  });

  it('deletes a post (then 404), with its audit entry', async () => {
    const { id, slug } = (await post({ name: 'Tin sẽ xoá' })).body.data;
    const deleted = await asOrganiser('DELETE', `/news/${id}`);
    expect(deleted).toMatchObject({ status: 200, body: { success: true } });
    expect((await server.request('GET', `/api/blog/${slug}`)).status).toBe(404);
    expect((await asOrganiser('GET', `/news/${id}`)).status).toBe(404);
    expect((await asOrganiser('DELETE', `/news/${id}`)).status).toBe(404);
    expect((await asOrganiser('PUT', `/news/${id}`, { name: 'x' })).status).toBe(404);
    expect((await auditOf('news.delete'))[0]).toMatchObject({ summary: 'Xoá tin "Tin sẽ xoá"', details: { id, slug, before: { name: 'Tin sẽ xoá' } } });
  });

  it('lists published posts and drafts, newest first, paged on the server', async () => {
    const page = await asOrganiser('GET', '/news?per_page=2&page=1');
    expect(page.body.data).toMatchObject({ page: 1, per_page: 2, total: expect.any(Number) });
    expect(page.body.data.items).toHaveLength(2);
    expect(page.body.data.total).toBeGreaterThan(7);
    expect(page.body.data.items[0]).toEqual({
      id: expect.any(Number),
      slug: expect.any(String),
      name: expect.any(String),
      image: expect.any(String),
      published: expect.any(Boolean),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const search = await asOrganiser('GET', '/news?q=hoá đọc: Lễ trao');
    expect(search.body.data.items.map((p: { slug: string }) => p.slug)).toEqual(['dai-su-van-hoa-doc-le-trao-giai']);
  });
});

describe('slugs', () => {
  it('drops diacritics (đ becomes d) and makes repeated titles unique with -2, -3', async () => {
    const slugs = [];
    for (let i = 0; i < 3; i += 1) slugs.push((await post({ name: 'Đường đến thư viện' })).body.data.slug);
    expect(slugs).toEqual(['duong-den-thu-vien', 'duong-den-thu-vien-2', 'duong-den-thu-vien-3']);
    expect((await post({ name: '!!!' })).body.data.slug).toBe('bai-viet');
  });

  it('gives two posts of the same title saved at once two slugs', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => post({ name: 'Cùng lúc' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.body.data.slug).sort()).toEqual(['cung-luc', 'cung-luc-2', 'cung-luc-3']);
  });
});

describe('sanitising and bad inputs', () => {
  it('removes script, event handlers and javascript: links from a body, keeping our pictures', async () => {
    const created = await post({
      name: 'Tin có mã độc',
      body_html:
        '<p onclick="steal()">Chào</p><script>alert(1)</script><img src="/api/media/abc.webp" onerror="alert(2)" alt="Ảnh">' +
        '<a href="javascript:alert(3)">bấm</a><img src="https://evil.example/x.png"><iframe src="/x"></iframe>',
    });
    expect(created.status).toBe(200);
    const body: string = created.body.data.body_html;
    expect(body).not.toMatch(/script|onclick|onerror|javascript:|evil\.example|iframe/i);
    expect(body).toContain('<p>Chào</p>');
    expect(body).toContain('<img src="/api/media/abc.webp" alt="Ảnh" loading="lazy" />');

    const edited = await asOrganiser('PUT', `/news/${created.body.data.id}`, { body_html: '<p>Vẫn sạch</p><img src=x onerror=alert(1)>' });
    expect(edited.body.data.body_html).not.toMatch(/onerror/);
  });

  it('refuses a body that is only script once sanitised', async () => {
    const refused = await post({ name: 'Chỉ có mã', body_html: '<script>alert(1)</script>' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, code: 'invalid_input', errors: { body_html: 'Vui lòng nhập nội dung bài viết.' } });
  });

  it('answers 400 with field errors for an empty or too long title, an empty body, a foreign picture', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(301) }, 'name'],
      [{ name: 'Tin', body_html: '<p> </p>' }, 'body_html'],
      [{ name: 'Tin', body_html: 'x'.repeat(200_001) }, 'body_html'],
      [{ name: 'Tin', image: 'https://evil.example/a.png' }, 'image'],
      [{ name: 'Tin', image: '/api/media/../../etc/passwd' }, 'image'],
      [{ name: 'Tin', published: 'có' }, 'published'],
    ];
    for (const [body, field] of cases) {
      const refused = await post(body);
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(refused.body).toMatchObject({ success: false, code: 'invalid_input' });
      expect(Object.keys(refused.body.errors)).toContain(field);
    }
    expect((await asOrganiser('PUT', '/news/1', {})).status).toBe(400);
    expect((await asOrganiser('PUT', '/news/abc', { name: 'x' })).status).toBe(400);
    expect((await server.db.selectFrom('news_posts').select('id').where('name', '=', 'Tin').execute()).length).toBe(0);
  });
});

describe('picture upload', () => {
  it('stores a picture re-encoded as WebP and at most 1200 px wide, audited, usable as the post picture', async () => {
    const answer = await server.request('POST', '/api/admin/news/images', { token: organiser.token, body: uploadForm('Ảnh lễ.png', await png()) });
    expect(answer.status).toBe(200);
    const url: string = answer.body.data.url;
    expect(url).toMatch(/^\/api\/media\/[0-9a-f]{64}\.webp$/);
    const served = await fetch(server.url + url);
    expect(served.headers.get('content-type')).toContain('image/webp');
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(1200);
    expect((await auditOf('news.image_upload'))[0]).toMatchObject({ summary: 'Tải ảnh lên cho tin tức: Ảnh lễ.png', details: { url } });

    const created = await post({ name: 'Tin có ảnh', image: url, body_html: `<p>Ảnh:</p><img src="${url}" alt="Lễ">` });
    expect(created.body.data).toMatchObject({ image: url });
    expect(created.body.data.body_html).toContain(`<img src="${url}"`);
  });

  it('refuses a file that is not a JPEG, PNG or WebP picture, a missing file and an oversize file', async () => {
    const upload = (name: string, bytes: Buffer | string) =>
      server.request('POST', '/api/admin/news/images', { token: organiser.token, body: uploadForm(name, bytes) });
    const svg = await upload('a.png', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(svg.status).toBe(422);
    expect(svg.body).toMatchObject({ success: false, message: 'Tệp không phải ảnh JPEG, PNG hoặc WebP.' });
    const gif = await upload('a.gif', await sharp(await png(10, 10)).gif().toBuffer());
    expect(gif.status).toBe(422);

    const big = await upload('big.jpg', Buffer.alloc(5 * 1024 * 1024 + 10, 1));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ success: false, code: 'payload_too_large', message: 'Tệp quá lớn: tối đa 5 MB.' });

    const none = await server.request('POST', '/api/admin/news/images', { token: organiser.token, body: new FormData() });
    expect(none.status).toBe(422);
    expect(await server.db.selectFrom('media').select('sha256').execute()).toHaveLength(1);
  });
});
