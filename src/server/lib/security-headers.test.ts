// The fixed security headers against helmet itself, run the supported way (as middleware of a
// node:http server), with the options that describe our policy. A helmet upgrade that changes its
// defaults fails here, and the list in security-headers.ts is then updated on purpose.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSecurityHeaders, pageSecurityHeaders } from './security-headers';

const policy = helmet({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginResourcePolicy: { policy: 'same-site' },
});

// Headers node:http or fetch add to every answer, not helmet's.
const TRANSPORT_HEADERS = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding']);

let server: http.Server;
let url: string;
beforeAll(async () => {
  server = http.createServer((request, response) => policy(request, response, () => response.end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('security headers', () => {
  it('of pages are exactly those helmet sends with our policy', async () => {
    const response = await fetch(url);
    const helmetHeaders = Object.fromEntries([...response.headers].filter(([name]) => !TRANSPORT_HEADERS.has(name)));
    expect(pageSecurityHeaders).toEqual(helmetHeaders);
  });

  it('of JSON answers are a subset of them, with a CSP that allows nothing', () => {
    for (const name of ['x-content-type-options', 'referrer-policy', 'cross-origin-resource-policy', 'strict-transport-security']) {
      expect(apiSecurityHeaders[name], name).toBe(pageSecurityHeaders[name]);
    }
    expect(apiSecurityHeaders['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
