// The app as a whole: probes, error shapes, the single-page fallback, headers and caching.
import { mkdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from './app';
import { closeTestApp, startTestServer, type TestServer } from './test/harness';

let server: TestServer;
let web: App;
let webUrl: string;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  // A second app over the same database, serving a small built front end.
  const buildDir = mkdtempSync(join(tmpdir(), 'contest-build-'));
  const webRoot = join(buildDir, 'web');
  mkdirSync(join(webRoot, 'assets'), { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><html lang="vi"><body><div id="root"></div></body></html>');
  writeFileSync(join(webRoot, 'assets', 'main-abc123.js'), 'console.log("x");'.repeat(200));
  writeFileSync(join(webRoot, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  // Pages the build drew (scripts/vite-prerender.ts): an address pattern and its file.
  mkdirSync(join(webRoot, 'pages'));
  // Long enough to be compressed (over 1 KB), as the real pages are (11-13 KB).
  writeFileSync(join(webRoot, 'pages', 'the-le.html'), `<!doctype html><html lang="vi"><body><div id="root"><h1>Thể lệ cuộc thi</h1></div><noscript>${'Vui lòng bật JavaScript. '.repeat(60)}</noscript></body></html>`);
  writeFileSync(join(webRoot, 'pages', 'tin-tuc-bai-viet.html'), '<!doctype html><html lang="vi"><body><div id="root"><nav>Tất cả tin tức</nav></div></body></html>');
  // The news list's shell, and the build's Node bundle of the app (here a stand-in drawing the
  // titles it is given), with which the server draws the news pages at each request.
  writeFileSync(join(webRoot, 'pages', 'tin-tuc.html'), '<!doctype html><html lang="vi"><body><div id="root" data-screen="NewsListPage"><h1>Tin tức</h1></div></body></html>');
  writeFileSync(join(webRoot, 'pages', 'tin-tuc.shell.html'), '<!doctype html><html lang="vi"><body><div id="root" data-screen="NewsListPage"><!--app--></div></body></html>');
  writeFileSync(join(webRoot, 'pages', 'tin-tuc-bai-viet.shell.html'), '<!doctype html><html lang="vi"><body><div id="root" data-screen="NewsArticlePage"><!--app--></div></body></html>');
  mkdirSync(join(buildDir, 'prerender'));
  writeFileSync(
    join(buildDir, 'prerender', 'prerender.mjs'),
    `export async function render(path, screen, answers) {
      const posts = answers['/blogs']?.data ?? Object.values(answers).map((answer) => answer.data);
      return '<h1>' + screen + ' ' + path + '</h1><ul>' + posts.map((post) => '<li>' + post.name.replaceAll('<', '&lt;') + '</li>').join('') + '</ul>';
    }`,
  );
  writeFileSync(
    join(webRoot, 'pages.json'),
    JSON.stringify([
      { pattern: '^\\/the-le$', file: 'pages/the-le.html' },
      { pattern: '^\\/tin-tuc$', file: 'pages/tin-tuc.html', shell: 'pages/tin-tuc.shell.html' },
      { pattern: '^\\/tin-tuc\\/[^/]+$', file: 'pages/tin-tuc-bai-viet.html', shell: 'pages/tin-tuc-bai-viet.shell.html' },
    ]),
  );
  web = await buildApp({ config: server.config, db: server.db, clock: server.clock, sms: { send: async () => {} }, logger: pino({ level: 'silent' }), webRoot });
  web.post('/api/test-echo', async (request) => ({ success: true, data: request.body }));
  await web.listen({ host: '127.0.0.1', port: 0 });
  const address = web.server.address();
  webUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  if (web) await closeTestApp(web, 'the second app');
  await server?.close();
});

describe('probes', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await server.request('GET', '/healthz')).body).toEqual({ success: true, status: 'ok' });
    expect((await server.request('GET', '/readyz')).body).toEqual({ success: true, status: 'ready' });
  });
});

describe('error shapes', () => {
  it('answers malformed JSON with a 400 in the stable shape', async () => {
    const response = await fetch(`${webUrl}/api/test-echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, message: 'Dữ liệu không hợp lệ.' });
    const tooLarge = await fetch(`${webUrl}/api/test-echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(300 * 1024) }),
    });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ success: false, message: expect.any(String) });
  });

  it("answers a static file's own refusals with their code's status (a Range outside the file: 416)", async () => {
    const response = await fetch(`${webUrl}/assets/main-abc123.js`, { headers: { range: 'bytes=999999-' } });
    expect(response.status).toBe(416);
    expect(await response.json()).toMatchObject({ success: false, code: 'range_not_satisfiable', message: 'Phần dữ liệu yêu cầu nằm ngoài tệp.' });
  });

  it('answers an unknown /api path with a JSON 404 even when the browser asks for HTML', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await fetch(`${webUrl}/api/khong-ton-tai`, { method, headers: { accept: 'text/html' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toMatchObject({ success: false, message: expect.any(String) });
    }
  });
});

describe('the front end', () => {
  it('serves the single-page app for client routes, without caching the page', async () => {
    for (const path of ['/', '/tai-khoan', '/tin-tuc', '/bat-dau-thi/1/2/abc']) {
      const response = await fetch(webUrl + path, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain('<div id="root"');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('sends a page the build drew with its text, for its addresses only; any other address gets the empty shell', async () => {
    const page = async (path: string) => {
      const response = await fetch(webUrl + path, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
      return response.text();
    };
    expect(await page('/the-le')).toContain('<div id="root"><h1>Thể lệ cuộc thi</h1></div>');
    // Compressed by the app itself: nginx leaves compression to it (deploy/nginx.conf).
    const compressed = await fetch(`${webUrl}/the-le`, { headers: { accept: 'text/html', 'accept-encoding': 'gzip' } });
    expect(compressed.headers.get('content-encoding')).toBe('gzip');
    expect(await compressed.text()).toContain('<h1>Thể lệ cuộc thi</h1>');
    expect(await page('/the-le?tab=1')).toContain('<h1>Thể lệ cuộc thi</h1>');
    expect(await page('/tin-tuc/mot-bai-viet')).toContain('<nav>Tất cả tin tức</nav>');
    for (const path of ['/the-le/khac', '/tin-tuc/a/b', '/tai-khoan']) expect(await page(path), path).toContain('<div id="root"></div>');
  });

  it('draws the news pages with their posts at each request, the same answers in the page for the app; an unknown article gets the built shell', async () => {
    const page = async (path: string) => {
      const response = await fetch(webUrl + path, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
      expect(response.headers.get('content-type'), path).toContain('text/html');
      return response.text();
    };
    const pageData = (html: string) => JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html)![1]!) as Record<string, { data: unknown }>;
    await server.db
      .insertInto('news_posts')
      .values([
        { slug: 'tin-cu', name: 'Tin cũ', image: '/images/a.svg', body_html: '<p>Cũ</p>', created_at: new Date('2026-11-01T03:00:00Z') },
        { slug: 'tin-moi', name: 'Tin mới </script><b>', image: '/images/b.svg', body_html: '<p>Mới</p>', created_at: new Date('2026-11-20T03:00:00Z') },
        { slug: 'tin-nhap', name: 'Bản nháp', image: '/images/c.svg', body_html: '<p>Nháp</p>', published: false },
      ])
      .execute();

    const list = await page('/tin-tuc');
    expect(list).toContain('<div id="root" data-screen="NewsListPage"><h1>NewsListPage /tin-tuc</h1><ul><li>Tin mới &lt;/script>&lt;b></li><li>Tin cũ</li></ul></div>');
    // The answer the API gives, word for word; no text of a post can end the script early.
    expect(list.match(/<\/script>/g)).toHaveLength(1);
    const api = (await server.request('GET', '/api/blogs')).body;
    expect(pageData(list)).toEqual({ '/blogs': api });

    const article = await page('/tin-tuc/tin-moi');
    expect(article).toContain('<h1>NewsArticlePage /tin-tuc/tin-moi</h1>');
    expect(pageData(article)).toEqual({ '/blog/tin-moi': (await server.request('GET', '/api/blog/tin-moi')).body });
    // Not published, unknown, or not a slug: the shell as built, and the app asks the API (its 404 page).
    for (const path of ['/tin-tuc/tin-nhap', '/tin-tuc/khong-co', `/tin-tuc/${'a'.repeat(300)}`]) {
      const html = await page(path);
      expect(html, path).toContain('<nav>Tất cả tin tức</nav>');
      expect(html, path).not.toContain('page-data');
    }
    await server.db.deleteFrom('news_posts').where('slug', 'in', ['tin-cu', 'tin-moi', 'tin-nhap']).execute();
  });

  it('serves hashed assets compressed with a long cache lifetime, and 404 for a missing file', async () => {
    const response = await fetch(`${webUrl}/assets/main-abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect((await fetch(`${webUrl}/assets/old-999.js`)).status).toBe(404);
  });

  it('serves the service worker from the root, checked at every visit, and the policy lets it run', async () => {
    const response = await fetch(`${webUrl}/sw.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    // The root path gives it the whole site as scope without a Service-Worker-Allowed header.
    expect(response.headers.get('service-worker-allowed')).toBeNull();
    const csp = (await fetch(`${webUrl}/bat-dau-thi/1/2/abc`, { headers: { accept: 'text/html' } })).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/worker-src 'self'/);
  });

  it('sends security headers with a Content-Security-Policy', async () => {
    const response = await fetch(`${webUrl}/`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends API answers the security headers that matter for data', async () => {
    const response = await fetch(`${webUrl}/api/khong-ton-tai`);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('strict-transport-security')).toContain('max-age=');
  });
});
