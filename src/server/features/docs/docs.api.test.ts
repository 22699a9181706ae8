// The API's description: /api/docs/openapi.json covers every route of the real app (compared with
// Fastify's own route tree), is valid OpenAPI 3.1 in its essentials, documents uploads as
// multipart/form-data, the bearer scheme and the one error shape; /api/docs is a readable page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { routesOfTree } from '../../test/route-tree';
import { pageSecurityHeaders, SWAGGER_UI_STYLE_HASH } from '../../lib/security-headers';
import { routeCatalogue } from './routes';
import { tagRules } from './tags';

let server: TestServer;
let document: any;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  const response = await server.request('GET', '/api/docs/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/json');
  document = response.body;
});
afterAll(() => server?.close());

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
/** swagger-ui's own page, script and files: not part of the API. */
const isDocsPageFile = (path: string) => path === '/api/docs' || (path.startsWith('/api/docs/') && path !== '/api/docs/openapi.json');

/** "METHOD /path" of every route of the app under /api and the probes (docs page files aside). */
function routesOfTheApp(): string[] {
  const routes = new Set<string>();
  for (const { method, path } of routesOfTree(server.app)) {
    if (!/^\/(api(\/|$)|healthz$|readyz$)/.test(path) || isDocsPageFile(path)) continue;
    routes.add(`${method} ${toOpenApiPath(path)}`);
  }
  return [...routes].sort();
}

function operations(): { path: string; method: string; operation: any }[] {
  return Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method] })),
  );
}

describe('GET /api/docs/openapi.json', () => {
  it('describes every route of the app, and nothing else', () => {
    const documented = operations()
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`)
      .sort();
    expect(routesOfTheApp().length).toBeGreaterThan(30);
    expect(documented).toEqual(routesOfTheApp());
  });

  it('gives every operation a summary, the line its page shows', () => {
    const without = operations()
      .filter(({ operation }) => typeof operation.summary !== 'string' || operation.summary.trim() === '')
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    expect(without).toEqual([]);
  });

  it('is OpenAPI 3.1 in its essentials', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(typeof document.paths).toBe('object');
    for (const [path, item] of Object.entries(document.paths as Record<string, object>)) {
      expect(path).toMatch(/^\//);
      expect(Object.keys(item).every((key) => METHODS.includes(key) || ['parameters', 'summary', 'description'].includes(key)), path).toBe(true);
    }
    const operationIds = new Set<string>();
    for (const { path, method, operation } of operations()) {
      const label = `${method} ${path}`;
      expect(Object.keys(operation.responses ?? {}).length, label).toBeGreaterThan(0);
      for (const status of Object.keys(operation.responses)) expect(status, label).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
      for (const response of Object.values(operation.responses) as any[]) expect(response.$ref ?? response.description, label).toEqual(expect.any(String));
      // Every {name} of the path is a required path parameter, and the other way round.
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      const declared = (operation.parameters ?? []).filter((parameter: any) => parameter.in === 'path');
      expect(declared.map((parameter: any) => parameter.name).sort(), label).toEqual(inPath);
      for (const parameter of operation.parameters ?? []) {
        expect(['query', 'header', 'path', 'cookie'], label).toContain(parameter.in);
        if (parameter.in === 'path') expect(parameter.required, label).toBe(true);
      }
      if (operation.requestBody) expect(Object.keys(operation.requestBody.content).length, label).toBeGreaterThan(0);
      expect(operation.operationId, label).toMatch(/^[a-z]+[A-Za-z0-9]*$/);
      expect(operationIds.has(operation.operationId), label).toBe(false);
      operationIds.add(operation.operationId);
      for (const requirement of operation.security ?? []) {
        for (const scheme of Object.keys(requirement)) expect(document.components.securitySchemes, label).toHaveProperty(scheme);
      }
    }
  });

  it('names every operation by its method and path, once', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/api/login'].post.operationId).toBe('postLogin');
    expect(document.paths['/api/admin/books/{bookId}/questions/import'].post.operationId).toBe('postAdminBooksByBookIdQuestionsImport');
    expect(document.paths['/api/healthz'].get.operationId).toBe('getHealthz');
    expect(document.paths['/healthz'].get.operationId).toBe('getRootHealthz');
  });

  it('says where the API is served and under which terms', () => {
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(document.info.license).toEqual({ name: 'Proprietary', url: `${server.config.publicUrl}/the-le` });
  });

  it('resolves every $ref inside the document', () => {
    const refs = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          if (key === '$ref' && typeof child === 'string') refs.add(child);
          else walk(child);
        }
      }
    };
    walk(document);
    expect(refs.size).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\//);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<any>((node, part) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], document);
      expect(target, ref).toBeDefined();
    }
  });

  it('tags every operation with a declared feature tag', () => {
    const declared = (document.tags as { name: string; description: string }[]).map((tag) => tag.name);
    expect(declared).toEqual(tagRules.map((rule) => rule.name));
    const untagged = operations().filter(({ operation }) => !operation.tags?.length || !operation.tags.every((tag: string) => declared.includes(tag)));
    expect(untagged.map(({ path, method }) => `${method} ${path}: add its prefix to features/docs/tags.ts`)).toEqual([]);
  });

  it('documents the bearer scheme on guarded routes and the error shape on every operation', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.schemas.ApiError).toMatchObject({
      type: 'object',
      properties: { success: { const: false }, code: { enum: expect.arrayContaining(['invalid_input', 'import_invalid']) }, request_id: {}, errors: {} },
    });
    const secured = (path: string, method: string) => document.paths[path][method].security;
    expect(secured('/api/admin/audit', 'get')).toEqual([{ bearerAuth: [] }]);
    expect(secured('/api/profile', 'get')).toEqual([{ bearerAuth: [] }]);
    expect(secured('/api/start-exam', 'post')).toEqual([{ bearerAuth: [] }]);
    expect(secured('/api/store-answers-exam', 'post')).toEqual([{ bearerAuth: [] }]);
    // Public operations say so (an empty requirement), rather than leaving it unsaid.
    expect(secured('/api/login', 'post')).toEqual([]);
    expect(secured('/api/site', 'get')).toEqual([]);
    expect(secured('/healthz', 'get')).toEqual([]);
    expect(document.security).toBeUndefined();
    for (const { path, method, operation } of operations()) {
      expect(Array.isArray(operation.security), `${method} ${path}`).toBe(true);
      expect(operation.responses.default, `${method} ${path}`).toEqual({ $ref: '#/components/responses/OtherError' });
      // A 4xx on every operation: at the least the 400 of a request refused as malformed.
      expect(operation.responses['400'], `${method} ${path}`).toEqual({ $ref: '#/components/responses/Error400' });
      if (operation.security?.length) expect(operation.responses['401'], `${method} ${path}`).toEqual({ $ref: '#/components/responses/Error401' });
    }
    for (const response of Object.values(document.components.responses) as any[]) {
      expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ApiError' });
    }
  });

  it('documents every upload route (config.upload) as multipart/form-data with its file and fields', () => {
    const catalogue = routeCatalogue(server.app);
    expect(catalogue.length).toBeGreaterThan(30);
    const uploads = catalogue.filter((route) => route.upload && !route.hidden);
    for (const route of uploads) {
      const operation = document.paths[toOpenApiPath(route.url)][route.method.toLowerCase()];
      const body = operation.requestBody?.content?.['multipart/form-data']?.schema;
      expect(body, `${route.method} ${route.url}`).toMatchObject({ required: ['file'], properties: { file: { type: 'string', format: 'binary' } } });
      for (const [field, description] of Object.entries(route.upload!.fields ?? {})) {
        expect(body.properties[field], `${route.url} ${field}`).toEqual({ type: 'string', description });
      }
      expect(operation.responses['422']).toEqual({ $ref: '#/components/responses/Error422' });
    }
    // The import routes, once their areas exist, are among them.
    for (const path of ['/api/admin/schools/import', '/api/admin/class-teachers/import', '/api/admin/school-admins/import', '/api/admin/books/{bookId}/questions/import']) {
      if (document.paths[path]) expect(uploads.map((route) => toOpenApiPath(route.url))).toContain(path);
    }
  });

  it('answers the same document again without building it anew', async () => {
    const again = await fetch(`${server.url}/api/docs/openapi.json`);
    expect(again.headers.get('cache-control')).toBe('no-cache');
    expect(await again.json()).toEqual(document);
  });
});

describe('GET /api/docs', () => {
  it('is a page with the site-wide page headers, loading its script and styles from the server itself', async () => {
    for (const path of ['/api/docs', '/api/docs/']) {
      const response = await fetch(server.url + path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      // The site's page policy, with one hash more for swagger-ui's inline style.
      expect(response.headers.get('content-security-policy')).toBe(
        pageSecurityHeaders['content-security-policy']!.replace("style-src 'self'", `style-src 'self' ${SWAGGER_UI_STYLE_HASH}`),
      );
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      const html = await response.text();
      expect(html).toContain('swagger-ui-bundle.js');
      expect(html).not.toMatch(/<script>(?!\s*<\/script>)/);
    }
    const script = await fetch(`${server.url}/api/docs/static/swagger-ui-bundle.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it('leaves every other API answer with the strict API headers', async () => {
    const response = await fetch(`${server.url}/api/docs/openapi.json`);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    // Read to the end: an unread answer keeps its connection busy and the server's close waiting.
    await response.arrayBuffer();
  });

  it('sends the old index address to the page once, query string or not (no redirect loop)', async () => {
    for (const path of ['/api/docs/static/index.html', '/api/docs/static/index.html?a=b']) {
      const response = await fetch(server.url + path, { redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/api/docs/');
      await response.arrayBuffer();
    }
  });
});
