import './lib/zod-jitless';
import { StrictMode } from 'react';
import { vietnameseValidationError } from '../shared/schemas/validation-errors';
import { createRoot, hydrateRoot } from 'react-dom/client';
import './styles/fonts.css';
import './styles/base.css';
import { App } from './app/app';
import { preloadScreen } from './app/routes';
import { registerOfflineShell } from './app/offline-shell';

// The server's Zod error map (installVietnameseValidation in app.ts), so that a form's field
// without a message of its own says what is wrong in Vietnamese. Written into the configuration
// zod adopts from globalThis (as lib/zod-jitless.ts does), which is what z.config() would do:
// calling it here would put zod in the home page's bundle, which has no form.
const zodConfig = globalThis as { __zod_globalConfig?: { customError?: typeof vietnameseValidationError } };
(zodConfig.__zod_globalConfig ??= {}).customError = vietnameseValidationError;

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
  void preloadScreen(root.dataset.screen)
    .catch(() => undefined)
    .then(() => hydrateRoot(root, app));
} else createRoot(root).render(app);

registerOfflineShell();
