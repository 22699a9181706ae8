import './lib/zod-jitless';
import { StrictMode } from 'react';
import { vietnameseValidationError } from '../shared/schemas/validation-errors';
import { createRoot } from 'react-dom/client';
import './styles/fonts.css';
import './styles/base.css';
import { App } from './app/app';
import { registerOfflineShell } from './app/offline-shell';

// The server's Zod error map (installVietnameseValidation in app.ts), so that a form's field
// without a message of its own says what is wrong in Vietnamese. Written into the configuration
// zod adopts from globalThis (as lib/zod-jitless.ts does), which is what z.config() would do:
// calling it here would put zod in the home page's bundle, which has no form.
const zodConfig = globalThis as { __zod_globalConfig?: { customError?: typeof vietnameseValidationError } };
(zodConfig.__zod_globalConfig ??= {}).customError = vietnameseValidationError;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

registerOfflineShell();
