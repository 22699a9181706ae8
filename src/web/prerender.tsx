// The public pages drawn at build time (docs/decisions/034): built for Node by the build's
// prerender step (scripts/vite-prerender.ts), which writes each into its own copy of index.html.
// Drawn as a visitor without a session sees them before any data has come: what the browser then
// draws first (main.tsx takes it over with hydrateRoot) is the same.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/app';
import { PRERENDERED_PAGES, preloadPrerendered } from './app/routes';

export { PRERENDERED_PAGES };

export async function render(path: string): Promise<string> {
  await preloadPrerendered(path);
  return renderToString(
    <StrictMode>
      <App ssrPath={path} />
    </StrictMode>,
  );
}
