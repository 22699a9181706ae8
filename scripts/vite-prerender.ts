// The build's prerender step (docs/decisions/034): after the browser build, the public pages of
// PRERENDERED_PAGES (src/web/prerender.tsx) are drawn in Node and each written into a copy of
// index.html (dist/web/pages/*.html), with its screen's stylesheets in the head, so that a phone
// shows the page as soon as the HTML, the styles and the fonts are there, before any JavaScript
// has come (the app then takes the page over, main.tsx). pages.json says which
// addresses get which file; the server sends it (src/server/app.ts), any other address index.html.
// The Node build stays in dist/prerender/ with each page's shell (its HTML with <!--app--> where
// the drawing goes): the server draws the news pages with their posts at each request from them
// (src/server/web-pages.ts, docs/decisions/035).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'vite';
import { staticClosure, type Manifest } from './lib/vite-manifest.ts';

interface PrerenderModule {
  render: (path: string, screen: string | undefined, answers?: Record<string, unknown>) => Promise<string>;
  PRERENDERED_PAGES: readonly { path: string; pattern: RegExp; screen?: string }[];
}

/**
 * The stylesheets a screen needs beyond the entry's, for the head: its text is drawn in the HTML,
 * so its styles must come with it. Its JavaScript is not named there (no modulepreload): measured
 * on a throttled phone, fetching it beside the fonts and styles put the first paint 0.1 s later and
 * the app's start no earlier (the link is the limit); main.tsx asks for it once the entry runs.
 */
function screenStylesheets(manifest: Manifest, loaded: Set<string>, screenName: string): string {
  // A screen's export is its file's name in PascalCase: RulesPage lives in rules-page.tsx.
  const file = `/${screenName.replace(/(?<=.)([A-Z])/g, '-$1').toLowerCase()}.tsx`;
  const source = Object.keys(manifest).find((key) => manifest[key]!.isDynamicEntry && key.endsWith(file));
  if (!source) throw new Error(`prerender: no chunk of the build is ${file} (the file of ${screenName} in PRERENDERED_PAGES)`);
  const keys = [...staticClosure(manifest, source)].filter((key) => !loaded.has(key));
  const css = [...new Set(keys.flatMap((key) => manifest[key]!.css ?? []))];
  return css.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`).join('\n    ');
}

/** Where a shell's drawing goes (src/server/web-pages.ts puts it there). */
const APP_OUTLET = '<!--app-->';

export function prerenderPages(): Plugin {
  let configFile: string | undefined;
  let outDir = '';
  let ssr = false;
  return {
    name: 'prerender-pages',
    apply: 'build',
    configResolved(config) {
      configFile = config.configFile;
      outDir = resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    async closeBundle() {
      if (ssr) return;
      const serverDir = resolve(outDir, '../prerender');
      // The same configuration (root, plugins) built for Node; this plugin does nothing there.
      await build({
        configFile,
        logLevel: 'warn',
        build: {
          ssr: 'prerender.tsx',
          outDir: serverDir,
          emptyOutDir: true,
          copyPublicDir: false,
          manifest: false,
          sourcemap: false,
          target: 'node22',
          rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
        },
      });
      const { render, PRERENDERED_PAGES }: PrerenderModule = await import(`${pathToFileURL(join(serverDir, 'prerender.mjs')).href}?${Date.now()}`);
      const manifest: Manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'));
      const loaded = staticClosure(manifest, Object.keys(manifest).find((key) => manifest[key]!.isEntry)!);
      const template = readFileSync(join(outDir, 'index.html'), 'utf8');
      if (!template.includes('<div id="root"></div>')) throw new Error('prerender: index.html has no empty <div id="root"></div>');
      mkdirSync(join(outDir, 'pages'), { recursive: true });
      const pages: { pattern: string; file: string; shell: string }[] = [];
      for (const page of PRERENDERED_PAGES) {
        const file = `pages/${page.path === '/' ? 'index' : page.path.slice(1).replaceAll('/', '-')}.html`;
        const head = page.screen ? screenStylesheets(manifest, loaded, page.screen) : '';
        const markup = await render(page.path, page.screen);
        const root = page.screen ? `<div id="root" data-screen="${page.screen}">` : '<div id="root">';
        const shell = template.replace('</head>', head ? `  ${head}\n  </head>` : '</head>').replace('<div id="root"></div>', `${root}${APP_OUTLET}</div>`);
        writeFileSync(join(outDir, file), shell.replace(APP_OUTLET, () => markup));
        const shellFile = file.replace(/\.html$/, '.shell.html');
        writeFileSync(join(outDir, shellFile), shell);
        pages.push({ pattern: page.pattern.source, file, shell: shellFile });
      }
      writeFileSync(join(outDir, 'pages.json'), `${JSON.stringify(pages, null, 2)}\n`);
    },
  };
}
