// Weighs what the home page costs a phone: the gzipped JavaScript and CSS it needs before it is
// interactive (the entry chunk, its static imports and their CSS, from the Vite manifest), against
// the budget; the lazy chunks of the other screens; and the fonts and images the home page
// downloads at a 360 px viewport (measured in Chromium against the built app). Run after `vite build`
// (`npm run bench:web` does both). Exits 1 when the JavaScript is over budget.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIST = 'dist/web';
const JS_BUDGET_BYTES = 90 * 1024;
const KB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const gzipped = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;

/** The chunk and everything it imports statically (what must arrive before it runs). */
function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(manifest, imported, seen);
  return seen;
}

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

/** Bytes on the wire of the fonts and images the home page loads at 360 x 740: at first, then scrolled. */
async function weighFontsAndImages() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    console.log(`\nFonts and images: skipped (no Chromium at ${chromium}; set CHROMIUM_PATH).`);
    return;
  }
  const { chromium: playwright } = await import('@playwright/test');
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
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
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const withinBudget = weighBundles();
await weighFontsAndImages();
if (!withinBudget) {
  console.error(`\nOVER BUDGET: the home page's JavaScript is over ${KB(JS_BUDGET_BYTES)} gzipped.`);
  process.exit(1);
}
console.log('\nWithin budget.');
