// The pages the web app is sent as (docs/decisions/034 and 035). The public pages come drawn by
// the build (dist/web/pages.json); the news pages are drawn here at each request with their posts,
// by the build's own Node bundle of the app (dist/prerender/prerender.mjs) into the page's shell,
// with the same answers in a script for the app that takes the page over (src/web/lib/page-data.ts):
// a phone shows the titles as soon as the HTML is there, not after the JavaScript and a second
// request. A page that cannot be drawn so (no build, the database away, an unknown slug) is sent
// as the build drew it, and the app asks the API as on any page.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { newsSlugParamsSchema } from '../shared/schemas/news';
import { newsArticleAnswer, newsListAnswer } from './features/news/routes';
import type { Services } from './services';

interface BuiltPage {
  pattern: RegExp;
  /** The page as the build drew it (before any data), relative to the web root. */
  file: string;
  /** The same HTML with <!--app--> in place of the drawing. */
  shell?: string;
}

type Render = (path: string, screen: string | undefined, answers: Record<string, unknown>) => Promise<string>;

/** The API answers a page is drawn with, by their path under /api; null when the page is sent as built. */
type PageAnswers = (services: Services, path: string) => Promise<Record<string, unknown> | null>;

const DRAWN_WITH_DATA: { pattern: RegExp; answers: PageAnswers }[] = [
  { pattern: /^\/tin-tuc$/, answers: async (services) => ({ '/blogs': await newsListAnswer(services) }) },
  {
    pattern: /^\/tin-tuc\/[^/]+$/,
    answers: async (services, path) => {
      let slug: string;
      try {
        slug = decodeURIComponent(path.slice('/tin-tuc/'.length));
      } catch {
        return null; // A broken escape: the app shows its not-found page.
      }
      if (!newsSlugParamsSchema.safeParse({ slug }).success) return null;
      const answer = await newsArticleAnswer(services, slug);
      // The key the article page asks by (news-article-page.tsx).
      return answer ? { [`/blog/${encodeURIComponent(slug)}`]: answer } : null;
    },
  },
];

const OUTLET = '<!--app-->';

/** JSON inside a script element: "<" escaped, so that no text of a post can close the element. */
const dataScript = (json: string) => `<script type="application/json" id="page-data">${json.replaceAll('<', '\\u003c')}</script>`;

/**
 * Pages drawn lately, by their address and data: the data is read at every request (a post
 * published or changed shows at once), the drawing (a few milliseconds of CPU) only when it
 * changed, so that a crowd on one announcement costs the database read alone.
 */
const DRAWN_KEPT = 64;

export async function loadWebPages(webRoot: string, services: Services, log: FastifyBaseLogger) {
  const listFile = join(webRoot, 'pages.json');
  const built: BuiltPage[] = existsSync(listFile)
    ? (JSON.parse(readFileSync(listFile, 'utf8')) as { pattern: string; file: string; shell?: string }[]).map((page) => ({ ...page, pattern: new RegExp(page.pattern) }))
    : [];
  const bundle = join(webRoot, '../prerender/prerender.mjs');
  const render: Render | undefined = existsSync(bundle) ? ((await import(pathToFileURL(bundle).href)) as { render: Render }).render : undefined;
  const shells = new Map<string, string>();
  const drawn = new Map<string, string>();
  const remember = (key: string, html: string) => {
    if (drawn.size >= DRAWN_KEPT) drawn.delete(drawn.keys().next().value!);
    drawn.set(key, html);
  };
  const shellOf = (file: string) => {
    let shell = shells.get(file);
    if (shell === undefined) shells.set(file, (shell = readFileSync(join(webRoot, file), 'utf8')));
    return shell;
  };

  /** The HTML drawn for `path` with its data, or null when the built page (builtFile) is what to send. */
  async function drawnWithData(path: string, page: BuiltPage | undefined): Promise<string | null> {
    const withData = DRAWN_WITH_DATA.find(({ pattern }) => pattern.test(path));
    if (!render || !page?.shell || !withData) return null;
    try {
      const answers = await withData.answers(services, path);
      if (!answers) return null;
      const json = JSON.stringify(answers);
      const key = `${path}\n${json}`;
      let html = drawn.get(key);
      if (html === undefined) {
        const shell = shellOf(page.shell);
        const screen = /<div id="root" data-screen="([A-Za-z]+)">/.exec(shell)?.[1];
        const markup = await render(path, screen, answers);
        html = shell.replace(OUTLET, () => markup).replace('</body>', () => `  ${dataScript(json)}\n  </body>`);
        remember(key, html);
      }
      return html;
    } catch (error) {
      // The database away, most likely: the page as built, whose app then says so (503) itself.
      log.warn({ err: error, path }, 'page drawn without its data');
      return null;
    }
  }

  return {
    /** What to send for a client route: the page drawn with its data, else its built page's file or the app's empty index.html. */
    async pageFor(path: string): Promise<{ html: string } | { file: string }> {
      const page = built.find(({ pattern }) => pattern.test(path));
      const html = await drawnWithData(path, page);
      return html === null ? { file: page?.file ?? 'index.html' } : { html };
    },
  };
}
