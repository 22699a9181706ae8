import './lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import './styles/fonts.css';
import './styles/base.css';
import { App } from './app/app';
import { preloadScreen } from './app/routes';
import { registerOfflineShell } from './app/offline-shell';
import { setPageData } from './lib/page-data';

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A page drawn at build time (the server sent it with its text, its root naming its screen):
// taken over as it is, once that screen's chunk is here so that the first draw is the same (a failed chunk: the screen's own
// loading and error, as on any page). Any other page is drawn from nothing.
if (root.firstElementChild) {
  const answers = document.getElementById('page-data')?.textContent;
  if (answers) setPageData(location.pathname, JSON.parse(answers) as Record<string, unknown>);
  void preloadScreen(root.dataset.screen)
    .catch(() => undefined)
    .then(() => startTransition(() => void hydrateRoot(root, app)));
} else createRoot(root).render(app);

registerOfflineShell();
