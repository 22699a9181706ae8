// The build's prerender step (docs/decisions/034): after the browser build, the public pages of
// PRERENDERED_PAGES (src/web/app/routes.tsx) are drawn in Node and each written into a copy of
// index.html (dist/web/pages/*.html), with its screen's stylesheets in the head, so that a phone
// shows the page as soon as the HTML, the styles and the fonts are there, before any JavaScript
// has come (the app then takes the page over, main.tsx). pages.json says which
// addresses get which file; the server sends it (src/server/app.ts), any other address index.html.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface PrerenderModule {
  render: (path: string) => Promise<string>;
  PRERENDERED_PAGES: readonly { path: string; pattern: RegExp; source?: string }[];
}

/** The chunk and everything it imports statically. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(manifest, imported, seen);
  return seen;
}

/**
 * The stylesheets a screen needs beyond the entry's, for the head: its text is drawn in the HTML,
 * so its styles must come with it. Its JavaScript is not named there (no modulepreload): measured
 * on a throttled phone, fetching it beside the fonts and styles put the first paint 0.1 s later and
 * the app's start no earlier (the link is the limit); main.tsx asks for it once the entry runs.
 */
function screenStylesheets(manifest: Manifest, source: string): string {
  if (!manifest[source]) throw new Error(`prerender: ${source} is not a chunk of the build (PRERENDERED_PAGES names its screen's source)`);
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
  const loaded = closure(manifest, entry);
  const keys = [...closure(manifest, source)].filter((key) => !loaded.has(key));
  const css = [...new Set(keys.flatMap((key) => manifest[key]!.css ?? []))];
  return css.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`).join('\n    ');
}

export function prerenderPages(): Plugin {
  let root = '';
  let outDir = '';
  let ssr = false;
  return {
    name: 'prerender-pages',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    async closeBundle() {
      if (ssr) return;
      const serverDir = resolve(outDir, '../prerender');
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [react()],
        build: { ssr: 'prerender.tsx', outDir: serverDir, emptyOutDir: true, target: 'node22', rollupOptions: { output: { entryFileNames: 'prerender.mjs' } } },
      });
      const { render, PRERENDERED_PAGES }: PrerenderModule = await import(`${pathToFileURL(join(serverDir, 'prerender.mjs')).href}?${Date.now()}`);
      const manifest: Manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'));
      const template = readFileSync(join(outDir, 'index.html'), 'utf8');
      if (!template.includes('<div id="root"></div>')) throw new Error('prerender: index.html has no empty <div id="root"></div>');
      mkdirSync(join(outDir, 'pages'), { recursive: true });
      const pages: { pattern: string; file: string }[] = [];
      for (const page of PRERENDERED_PAGES) {
        const file = `pages/${page.path === '/' ? 'index' : page.path.slice(1).replaceAll('/', '-')}.html`;
        const head = page.source ? screenStylesheets(manifest, page.source) : '';
        const markup = await render(page.path);
        const html = template.replace('</head>', head ? `  ${head}\n  </head>` : '</head>').replace('<div id="root"></div>', () => `<div id="root">${markup}</div>`);
        writeFileSync(join(outDir, file), html);
        pages.push({ pattern: page.pattern.source, file });
      }
      writeFileSync(join(outDir, 'pages.json'), `${JSON.stringify(pages, null, 2)}\n`);
      rmSync(serverDir, { recursive: true, force: true });
    },
  };
}
