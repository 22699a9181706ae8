// Weighs what the home page costs a phone: the gzipped JavaScript and CSS it needs before it is
// interactive (the entry chunk, its static imports and their CSS, from the Vite manifest), against
// the budget; the lazy chunks of the other screens; and the fonts and images the home page
// downloads at a 360 px viewport (measured in Chromium against the built app); the exam's opening
// on a cheap phone; then Lighthouse (mobile: simulated Slow 4G, 4x CPU) on the public pages, three
// runs each (BENCH_RUNS), as a table of performance, LCP, CLS and TBT. Run after `vite build`
// (`npm run bench:web` does both; the server is the compiled one, built here). Exits 1 when the
// JavaScript is over budget. `tsx scripts/bench-web.ts lighthouse` runs the Lighthouse part alone.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { compiledServer } from './lib/bench-app';
import { staticClosure, type Manifest } from './lib/vite-manifest';

const DIST = 'dist/web';
const JS_BUDGET_BYTES = 90 * 1024;
const KB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const gzipped = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;

// Screens a visitor reaches only after logging in (spec section 6).
const BEHIND_LOGIN = ['profile', 'exams', 'reports', 'certificates/certificate', 'auth/change-password', 'auth/token-change-password'];

function weighBundles(): boolean {
  const manifestPath = join(DIST, '.vite/manifest.json');
  if (!existsSync(manifestPath)) {
    console.error(`${manifestPath} not found: run \`vite build\` first (build.manifest must be on).`);
    process.exit(2);
  }
  const manifest: Manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('no entry chunk in the manifest');
  const entryFile = manifest[entryKey]!.file;
  if (!html.includes(entryFile)) throw new Error(`index.html does not load ${entryFile}`);

  const homeKeys = staticClosure(manifest, entryKey);
  const js = [...homeKeys].map((key) => ({ file: manifest[key]!.file, bytes: gzipped(manifest[key]!.file) }));
  const cssFiles = new Set([...homeKeys].flatMap((key) => manifest[key]!.css ?? []));
  // Stylesheets index.html links by itself (none today, but they would block the first paint).
  for (const match of html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/([^"]+)"/g)) cssFiles.add(match[1]!);
  const css = [...cssFiles].map((file) => ({ file, bytes: gzipped(file) }));
  const jsTotal = js.reduce((sum, f) => sum + f.bytes, 0);
  const cssTotal = css.reduce((sum, f) => sum + f.bytes, 0);

  console.log('Home page before it is interactive (gzip -9):');
  for (const f of [...js, ...css]) console.log(`  ${f.file.padEnd(48)} ${KB(f.bytes).padStart(9)}`);
  console.log(`  JavaScript ${KB(jsTotal)} of ${KB(JS_BUDGET_BYTES)} budget; CSS ${KB(cssTotal)}`);

  console.log('\nLazy chunks (loaded when their screen is first opened; own code + imports not in the home bundle):');
  const rows = Object.entries(manifest)
    .filter(([, chunk]) => chunk.isDynamicEntry)
    .map(([key, chunk]) => {
      const extra = [...staticClosure(manifest, key)].filter((k) => !homeKeys.has(k));
      const bytes = extra.reduce((sum, k) => sum + gzipped(manifest[k]!.file), 0);
      const cssBytes = extra.flatMap((k) => manifest[k]!.css ?? []).reduce((sum, file) => sum + gzipped(file), 0);
      const source = chunk.src ?? key;
      const login = BEHIND_LOGIN.some((part) => source.includes(`features/${part}`));
      return { source, bytes, cssBytes, login };
    })
    .sort((a, b) => Number(b.login) - Number(a.login) || b.bytes - a.bytes);
  for (const row of rows) {
    const tag = row.login ? 'behind login' : 'public';
    console.log(`  ${row.source.padEnd(52)} ${tag.padEnd(13)} JS ${KB(row.bytes).padStart(8)}  CSS ${KB(row.cssBytes).padStart(7)}`);
  }
  return jsTotal <= JS_BUDGET_BYTES;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForReady(url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server not ready after ${timeoutMs} ms`);
}

/** Bytes on the wire of the fonts and images the home page loads at 360 x 740, then the exam's opening on a cheap phone. */
async function weighFontsAndImages() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    console.log(`\nFonts and images: skipped (no Chromium at ${chromium}; set CHROMIUM_PATH).`);
    return;
  }
  const { chromium: playwright } = await import('@playwright/test');
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-'));
  const server = spawn(process.execPath, [compiledServer()], {
    env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '1', LOG_LEVEL: 'warn', EXAM_SWEEP_SECONDS: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = await playwright.launch({ executablePath: chromium, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    await waitForReady(`http://127.0.0.1:${port}/readyz`, 60_000);
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    const images = new Map<string, { bytes: number; phase: string }>();
    const fonts = new Map<string, number>();
    let phase = 'on load, no scrolling';
    page.on('requestfinished', async (request) => {
      const type = request.resourceType();
      if (type !== 'image' && type !== 'font') return;
      const sizes = await request.sizes();
      const path = new URL(request.url()).pathname;
      const bytes = sizes.responseBodySize + sizes.responseHeadersSize;
      if (type === 'font') fonts.set(path, bytes);
      else if (!images.has(path)) images.set(path, { bytes, phase });
    });
    await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'networkidle' });
    phase = 'after scrolling';
    await page.evaluate(async () => {
      for (let y = 0; y <= document.documentElement.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);

    const fontTotal = [...fonts.values()].reduce((sum, bytes) => sum + bytes, 0);
    console.log(`\nFonts of the home page at 360 x 740 (bytes on the wire, with headers): ${fonts.size} files, ${KB(fontTotal)}`);
    for (const [path, bytes] of fonts) console.log(`    ${path.padEnd(62)} ${KB(bytes).padStart(9)}`);

    console.log('\nImages of the home page at 360 x 740 (bytes on the wire, with headers):');
    for (const name of ['on load, no scrolling', 'after scrolling']) {
      const list = [...images].filter(([, image]) => image.phase === name);
      const total = list.reduce((sum, [, image]) => sum + image.bytes, 0);
      console.log(`  ${name}: ${list.length} images, ${KB(total)}`);
      for (const [path, image] of list) console.log(`    ${path.padEnd(54)} ${KB(image.bytes).padStart(9)}`);
    }
    await page.close();
    await measureExamOpening(browser, `http://127.0.0.1:${port}`, dataDir);
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// The exam on a cheap phone (issue 14) ------------------------------------------------------------

/** Slow 4G as DevTools defines it, and a CPU four times slower than this machine's. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const CPU_SLOWDOWN = 4;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const OPENING_GOAL_MS = 3000;

type Browser = Awaited<ReturnType<(typeof import('@playwright/test'))['chromium']['launch']>>;

async function api<T = any>(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(base + path, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  return body as T;
}

let phoneSerial = 0;
/** A parent with one grade-1 child, registered through the API (the code from the SMS outbox file). */
async function newFamily(base: string, dataDir: string) {
  phoneSerial += 1;
  const phone = `097${String((Date.now() % 1e5) * 10 + phoneSerial).padStart(7, '0').slice(-7)}`;
  const password = 'matkhau123';
  await api(base, '/api/send-otp', { body: { phone, password, is_register: 1 } });
  const outbox = readFileSync(join(dataDir, 'sms-outbox.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { phone: string; message: string });
  const otp = /\b(\d{6})\b/.exec(outbox.filter((m) => m.phone === phone).at(-1)!.message)![1];
  const registered = await api(base, '/api/register', { body: { phone, password, otp, consent: true } });
  const token: string = registered.access_token;
  const district = (await api(base, '/api/districts')).data[0];
  const school = (await api(base, `/api/schools?district_id=${district.id}`)).data[0];
  const group = (await api(base, '/api/class-groups')).data[0];
  const room = (await api(base, `/api/class-rooms?class_group_id=${group.id}`)).data[0];
  await api(base, '/api/customer/profile', {
    token,
    body: { phone, childrens: [{ fullname: 'Nguyễn Minh Anh', district_id: district.id, school_id: school.id, class_group_id: group.id, class_room_id: room.id, child_consent: true }] },
  });
  const profile = await api(base, '/api/profile', { token });
  return { token, user: registered.user, childId: profile.data.childrens[0].id as number };
}

/**
 * Records, in the page, when the exam is started ('Bắt đầu thi', the confirmation 'Vào thi' asks
 * for since issue 24.2) and when the first question can be answered (its first answer enabled and
 * its text shown). A string: tsx would wrap a function's inner
 * functions in a helper the page does not have.
 */
const ANSWERABLE_PROBE = `
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button && button.textContent.trim() === 'Bắt đầu thi') window.__clickAt = performance.now();
  }, true);
  window.__probe = new MutationObserver(() => {
    const input = document.querySelector('.exam-answer input');
    const text = document.querySelector('.exam-question-text');
    if (window.__answerableAt === undefined && input && !input.disabled && text && text.textContent) window.__answerableAt = performance.now();
  });
  window.__probe.observe(document, { childList: true, subtree: true, attributes: true });
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measureExamOpening(browser: Browser, base: string, dataDir: string) {
  const fromJoin: number[] = [];
  const fromReload: number[] = [];
  let reloadBytes = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const family = await newFamily(base, dataDir);
    // No offline shell: its service worker would answer the files from its own cache, past both the
    // emptied browser cache and the throttle (the page's emulated network does not apply to it).
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'vi-VN', serviceWorkers: 'block' });
    await context.addCookies([
      { name: 'token', value: encodeURIComponent(family.token), url: base },
      { name: 'user', value: encodeURIComponent(JSON.stringify(family.user)), url: base },
    ]);
    await context.addInitScript((token) => window.localStorage.setItem('token', token), family.token);
    await context.addInitScript({ content: ANSWERABLE_PROBE });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });

    // 'Vào thi' on /du-thi (the app already loaded, as a parent would have it), then 'Bắt đầu thi'.
    await page.goto(`${base}/du-thi`, { waitUntil: 'networkidle' });
    await page.getByLabel('Thí sinh').selectOption({ index: 1 });
    await page.getByLabel('Sách thi').locator('option').nth(1).waitFor({ state: 'attached' });
    await page.getByLabel('Sách thi').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Vào thi' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Bắt đầu thi' }).click();
    await page.waitForFunction(() => (window as unknown as { __answerableAt?: number }).__answerableAt !== undefined, undefined, { timeout: 60_000, polling: 100 }).catch(async (error) => {
      console.error(`no answerable question at ${page.url()}: ${(await page.locator('main').innerText()).slice(0, 300)}`);
      throw error;
    });
    fromJoin.push(await page.evaluate(() => {
      const w = window as unknown as { __answerableAt: number; __clickAt: number };
      return w.__answerableAt - w.__clickAt;
    }));

    // A reload mid-exam with nothing cached: from the navigation's start.
    await cdp.send('Network.clearBrowserCache');
    let bytes = 0;
    const count = (response: { encodedDataLength?: number }) => (bytes += response.encodedDataLength ?? 0);
    cdp.on('Network.loadingFinished', count);
    await page.reload({ waitUntil: 'commit' });
    await page.waitForFunction(() => (window as unknown as { __answerableAt?: number }).__answerableAt !== undefined, undefined, { timeout: 60_000, polling: 100 });
    fromReload.push(await page.evaluate(() => (window as unknown as { __answerableAt: number }).__answerableAt));
    cdp.off('Network.loadingFinished', count);
    reloadBytes = bytes;
    await context.close();
  }
  const line = (label: string, values: number[]) =>
    `  ${label.padEnd(58)} median ${(median(values) / 1000).toFixed(2)} s  (runs: ${values.map((v) => (v / 1000).toFixed(2)).join(', ')} s)${median(values) <= OPENING_GOAL_MS ? '' : '  OVER the 3 s goal'}`;
  console.log(`\nThe exam on a cheap phone (Slow 4G: 150 ms, 1.6 Mbps down; CPU ${CPU_SLOWDOWN}x slower; 360 x 740), first question answerable:`);
  console.log(line("after pressing 'Bắt đầu thi' (Vào thi) on /du-thi", fromJoin));
  console.log(line('cold reload of /bat-dau-thi/... (empty cache)', fromReload));
  console.log(`  bytes on the wire for that cold reload: ${KB(reloadBytes)}`);
}

// Lighthouse on a phone (issue 38.2) -------------------------------------------------------------

const lighthouseVersion = () => (createRequire(import.meta.url)('lighthouse/package.json') as { version: string }).version;

/** Lighthouse 13 needs Node 22.19 or later. */
function lighthouseRuns(): boolean {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 19);
}

interface LighthouseRun {
  performance: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
}

/** One Lighthouse run of `url`: mobile form factor, default (simulated) throttling, performance only. */
function lighthouseOnce(url: string, chromium: string, outDir: string, run: number): Promise<LighthouseRun> {
  const cli = createRequire(import.meta.url).resolve('lighthouse/cli/index.js');
  const output = join(outDir, `run-${run}.json`);
  const args = [
    cli,
    url,
    '--only-categories=performance',
    '--output=json',
    `--output-path=${output}`,
    '--quiet',
    '--chrome-flags=--headless --no-sandbox --disable-gpu',
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env: { ...process.env, CHROME_PATH: chromium }, maxBuffer: 64 * 1024 * 1024 }, (error) => {
      if (error) return reject(error);
      const lhr = JSON.parse(readFileSync(output, 'utf8'));
      if (lhr.runtimeError) return reject(new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`));
      const audit = (id: string) => lhr.audits[id].numericValue as number;
      resolve({
        performance: Math.round(lhr.categories.performance.score * 100),
        lcpMs: audit('largest-contentful-paint'),
        cls: audit('cumulative-layout-shift'),
        tbtMs: audit('total-blocking-time'),
      });
    });
  });
}

/** Lighthouse now and then fails to record a load (NO_NAVSTART on a busy machine): that run again, twice at most. */
async function lighthouseRetried(url: string, chromium: string, outDir: string, run: number): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await lighthouseOnce(url, chromium, outDir, run);
    } catch (error) {
      if (attempt === 3) throw error;
      console.log(`  Lighthouse on ${url} failed (${(error as Error).message.split('\n').find((line) => line.includes('Runtime error')) ?? 'see above'}); again`);
    }
  }
}

async function lighthouseTable(base: string, chromium: string) {
  if (!lighthouseRuns()) {
    console.log(`\nLighthouse: skipped (Lighthouse needs Node 22.19 or later; this is Node ${process.versions.node}).`);
    return;
  }
  const news = await api(base, '/api/blogs');
  const pages = ['/', '/the-le', '/tin-tuc', `/tin-tuc/${news.data[0].slug}`, '/dang-nhap', '/dang-ky'];
  const outDir = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const rows: { path: string; runs: LighthouseRun[] }[] = [];
  try {
    for (const path of pages) {
      const runs: LighthouseRun[] = [];
      // One after the other: two Chromiums at once on two cores would each measure the other.
      for (let run = 0; run < RUNS; run += 1) runs.push(await lighthouseRetried(base + path, chromium, outDir, run));
      rows.push({ path, runs });
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  const cell = (values: number[], format: (value: number) => string) => {
    const low = Math.min(...values);
    const high = Math.max(...values);
    return `${format(median(values))} (${format(low)}-${format(high)})`;
  };
  console.log(`\nLighthouse ${lighthouseVersion()}, mobile (412 x 823, simulated Slow 4G, 4x CPU), ${RUNS} runs a page: median (range)`);
  console.log('| page | performance | LCP | CLS | TBT |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const { path, runs } of rows) {
    const shown = path.startsWith('/tin-tuc/') ? '/tin-tuc/… (an article)' : path;
    console.log(
      `| ${shown} | ${cell(runs.map((r) => r.performance), String)} | ${cell(runs.map((r) => r.lcpMs / 1000), (v) => `${v.toFixed(1)} s`)} | ${cell(runs.map((r) => r.cls), (v) => v.toFixed(3))} | ${cell(runs.map((r) => r.tbtMs), (v) => `${Math.round(v)} ms`)} |`,
    );
  }
}

/** The compiled app on a free port with the demo content, for `work`; stopped afterwards. */
async function withApp(work: (base: string, dataDir: string) => Promise<void>) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-'));
  const server = spawn(process.execPath, [compiledServer()], {
    env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '1', LOG_LEVEL: 'warn', EXAM_SWEEP_SECONDS: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForReady(`http://127.0.0.1:${port}/readyz`, 60_000);
    await work(`http://127.0.0.1:${port}`, dataDir);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (process.argv[2] === 'lighthouse') {
  await withApp((base) => lighthouseTable(base, chromiumPath));
  process.exit(0);
}
const withinBudget = weighBundles();
await weighFontsAndImages();
if (existsSync(chromiumPath)) await withApp((base) => lighthouseTable(base, chromiumPath));
if (!withinBudget) {
  console.error(`\nOVER BUDGET: the home page's JavaScript is over ${KB(JS_BUDGET_BYTES)} gzipped.`);
  process.exit(1);
}
console.log('\nWithin budget.');
