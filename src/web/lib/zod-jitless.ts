// zod compiles fast parsers with `new Function` once a probe says eval is allowed. Under the site's
// policy (script-src 'self', no 'unsafe-eval') the probe is refused and the browser reports a
// securitypolicyviolation on every page that validates a form, although zod catches the refusal.
// Jitless parsing is what zod advises under a strict CSP; imported first by main.tsx, before any parse.
//
// zod keeps its configuration on globalThis.__zod_globalConfig and adopts an object already there
// (zod/v4/core/core.js), so the setting is written here without importing zod: `config()` from
// 'zod/v4/core' would put zod's core (about 7 KB gzipped) in the home page's bundle, which has no
// schema. zod-jitless.test.ts checks that zod reads this object.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
// The same object, never a new one: a zod loaded before this module keeps the one it found.
(holder.__zod_globalConfig ??= {}).jitless = true;
