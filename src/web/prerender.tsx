// The public pages drawn at build time (docs/decisions/034): built for Node by the build's
// prerender step (scripts/vite-prerender.ts), which writes each into its own copy of index.html.
// Drawn as a visitor without a session sees them before any data has come: what the browser then
// draws first (main.tsx takes it over with hydrateRoot) is the same.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/app';
import { preloadScreen } from './app/routes';
import { setPageData } from './lib/page-data';

/**
 * The pages drawn, as a visitor without a session sees them before any data has come (an
 * article's shell is the same for every article): the path drawn, the addresses the server
 * answers with it, and its screen (routes.tsx), which the HTML names for the app that takes it
 * over and whose chunk's stylesheets the build puts in that HTML, for the text drawn there.
 */
export const PRERENDERED_PAGES: readonly { path: string; pattern: RegExp; screen?: string }[] = [
  { path: '/', pattern: /^\/$/ },
  { path: '/the-le', pattern: /^\/the-le$/, screen: 'RulesPage' },
  { path: '/danh-sach-doat-giai', pattern: /^\/danh-sach-doat-giai$/, screen: 'WinnersPage' },
  { path: '/chinh-sach-bao-mat', pattern: /^\/chinh-sach-bao-mat$/, screen: 'PrivacyPage' },
  { path: '/tin-tuc', pattern: /^\/tin-tuc$/, screen: 'NewsListPage' },
  { path: '/tin-tuc/bai-viet', pattern: /^\/tin-tuc\/[^/]+$/, screen: 'NewsArticlePage' },
  { path: '/dang-nhap', pattern: /^\/dang-nhap$/, screen: 'LoginPage' },
  { path: '/dang-ky', pattern: /^\/dang-ky$/, screen: 'RegisterPage' },
  { path: '/quen-mat-khau', pattern: /^\/quen-mat-khau$/, screen: 'ForgotPasswordPage' },
];

/**
 * The page at `path` drawn as a visitor without a session sees it; with `answers` (API answers
 * by their path, lib/page-data.ts) it is drawn with that data instead of before it has come: the
 * server draws the news pages so at each request (src/server/web-pages.ts).
 */
export async function render(path: string, screen: string | undefined, answers?: Record<string, unknown>): Promise<string> {
  await preloadScreen(screen);
  // Set and unset around one synchronous draw: draws of other requests cannot come in between.
  setPageData(path, answers ?? null);
  try {
    return renderToString(
      <StrictMode>
        <App ssrPath={path} />
      </StrictMode>,
    );
  } finally {
    setPageData(path, null);
  }
}
