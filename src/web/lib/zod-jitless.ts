// zod compiles fast parsers with `new Function` once a probe says eval is allowed. Under the site's
// policy (script-src 'self', no 'unsafe-eval') the probe is refused and the browser reports a
// securitypolicyviolation on every page that validates a form, although zod catches the refusal.
// Jitless parsing is what zod advises under a strict CSP; imported first by main.tsx, before any parse.
import { config } from 'zod/v4/core';

config({ jitless: true });
