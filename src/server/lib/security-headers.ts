// The security headers of every answer, the same for every request, so written out here and given
// to each reply as Fastify headers (one pass with the reply's own) instead of running helmet's
// middleware per request (13 setHeader calls: measurable on the exam-save hot path). They are
// helmet's defaults with our Content-Security-Policy; security-headers.test.ts runs helmet with
// those options and fails when its output and this list part ways (e.g. after a helmet upgrade).

/** Pages and files: helmet's set. */
export const pageSecurityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "img-src 'self' data: blob:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self'",
    "connect-src 'self'",
    // The Excel export compresses large sheets in a Web Worker made from a blob: URL (fflate).
    "worker-src 'self' blob:",
    // The exam plays each read-aloud clip from the copy it downloaded once (read-aloud.ts).
    "media-src 'self' blob:",
  ].join(';'),
  'cross-origin-opener-policy': 'same-origin',
  // Certificates and covers may be shown by other sites (e.g. a school's page).
  'cross-origin-resource-policy': 'same-site',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/**
 * JSON answers (/api/) are never rendered as a page: only the headers that matter for data (OWASP's
 * REST set). Fewer bytes on every exam save over a phone's 3G link.
 */
export const apiSecurityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-site',
  'strict-transport-security': pageSecurityHeaders['strict-transport-security']!,
};

/**
 * The API's description page (/api/docs, swagger-ui from node_modules): the page set, except that
 * swagger-ui inserts one fixed inline style, allowed by its hash (for this page only; a new
 * swagger-ui may need a new hash: e2e/api-docs.spec.ts fails on the blocked style).
 */
export const SWAGGER_UI_STYLE_HASH = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";
export const docsPageSecurityHeaders: Readonly<Record<string, string>> = {
  ...pageSecurityHeaders,
  'content-security-policy': pageSecurityHeaders['content-security-policy']!.replace("style-src 'self'", `style-src 'self' ${SWAGGER_UI_STYLE_HASH}`),
};
