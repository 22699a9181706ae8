// The exam screen's shell for a reload without network (issue 24.8, docs/decisions/019): the
// built index.html and the hashed files under /assets/ the pages have loaded are kept in one
// cache; a page address is always asked of the network first and the shell kept from its answer,
// and only an exam screen's address (/bat-dau-thi/..., /thi-thu/... but not its result) falls back
// to the kept shell when the network is away. The page then shows the paper kept on the device
// (src/web/features/exams/kept-paper.ts). /api is never touched: every answer comes from the server.
const CACHE = 'exam-shell-v1';
const SHELL = '/index.html';
const EXAM_SCREEN = /^\/(bat-dau-thi\/|thi-thu\/(?!ket-qua\/))/;

const isAsset = (url) => url.origin === self.location.origin && url.pathname.startsWith('/assets/');

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.add(new Request(SHELL, { cache: 'no-cache' })))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

/** The shell from a page's answer; a new build's shell drops the old build's files (their names changed). */
async function keepShell(response) {
  const text = await response.text();
  // A public page drawn at build time is not the shell (its root holds that page).
  if (!text.includes('<div id="root"></div>')) return;
  const cache = await caches.open(CACHE);
  const kept = await cache.match(SHELL);
  if (kept && (await kept.text()) === text) return;
  const keys = await cache.keys();
  await Promise.all(keys.filter((key) => isAsset(new URL(key.url))).map((key) => cache.delete(key)));
  await cache.put(SHELL, new Response(text, { headers: { 'content-type': 'text/html; charset=utf-8' } }));
}

async function page(request, url) {
  try {
    const response = await fetch(request);
    const html = (response.headers.get('content-type') ?? '').startsWith('text/html');
    if (response.ok && html) await keepShell(response.clone()).catch(() => undefined);
    return response;
  } catch (error) {
    const shell = EXAM_SCREEN.test(url.pathname) ? await caches.match(SHELL) : undefined;
    if (shell) return shell;
    throw error;
  }
}

/** Hashed files never change: the kept copy, else the network's (kept for next time). */
async function asset(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone()).catch(() => undefined);
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname === '/api' || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') event.respondWith(page(request, url));
  else if (isAsset(url)) event.respondWith(asset(request));
});

// The files a page loaded before this worker controlled it (its first visit): { keep: [urls] }.
self.addEventListener('message', (event) => {
  const urls = Array.isArray(event.data?.keep) ? event.data.keep : [];
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(
        urls
          .map((href) => new URL(href, self.location.origin))
          .filter(isAsset)
          .map(async (url) => {
            if (!(await cache.match(url.pathname, { ignoreVary: true }))) await cache.add(url.pathname).catch(() => undefined);
          }),
      ),
    ),
  );
});
