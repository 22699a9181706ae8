// The API's description: GET /api/docs/openapi.json (OpenAPI 3.1, generated from the routes' Zod
// schemas) and a page to read it at /api/docs (swagger-ui, served from node_modules). The document
// is built once, on its first request, from the routes @fastify/swagger saw being registered.
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { z } from 'zod';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { createOpenApiTransform, createOpenApiTransformObject, baseDocument, type UploadConfig } from '../../lib/openapi';
import { docsPageSecurityHeaders } from '../../lib/security-headers';
import { tagRules, tagsOf } from './tags';
// Imported, not read by path, so that the compiled server (dist/server, decision 022) carries it.
import packageJson from '../../../../package.json' with { type: 'json' };

const DESCRIPTION = [
  'API của trang Cuộc thi Đại sứ Văn hoá đọc: phần công khai (phụ huynh, thí sinh, quản trị trường) và phần quản trị của ban tổ chức (/api/admin).',
  '',
  '- Mọi câu trả lời là JSON (trừ tệp: Excel, PDF, ảnh). Thành công: `{success: true, ...}`; lỗi: `{success: false, code, message, errors?, request_id}` (schema ApiError). `code` dành cho chương trình, `message` (tiếng Việt) dành cho người dùng.',
  '- Xác thực: POST /api/login trả về `access_token`; gửi nó trong tiêu đề `Authorization: Bearer <mã>` (nút Authorize). /api/admin chỉ dành cho tài khoản ban tổ chức: 401 khi chưa đăng nhập, 403 với vai trò khác.',
  '- Nhập tệp (…/import): `multipart/form-data`, tệp trong trường `file`; `dry_run=1` để xem trước; tệp có lỗi trả 422 với `errors: [{row, column, message}]` và không lưu gì.',
  '- Ngày giờ theo ISO 8601; danh sách của quản trị phân trang bằng `page`, `per_page`, `q`.',
].join('\n');

/** The essentials of the document (its full shape is the OpenAPI 3.1 specification's). */
const documentSchema = z.object({
  openapi: z.string(),
  info: z.object({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
  components: z.record(z.string(), z.unknown()),
});

/**
 * Whether a route needs a session: the back office, a route with a guard (the guards are the
 * routes' own preHandlers: auth.requireUser, requireParent), or one that says so in its schema
 * (the exam's hot paths check the token inside their own statement).
 */
const needsToken = (route: RouteOptions) =>
  route.url.startsWith('/api/admin/') || (Array.isArray(route.preHandler) ? route.preHandler.length > 0 : Boolean(route.preHandler));

/** package.json's version, the document's version. */
const packageVersion = (): string => packageJson.version;

export interface CataloguedRoute {
  method: string;
  url: string;
  hidden: boolean;
  upload?: UploadConfig;
}

const catalogues = new WeakMap<object, CataloguedRoute[]>();

/** Every route of the app as registered (HEAD copies left out), for the document's own check. */
export function routeCatalogue(app: object): readonly CataloguedRoute[] {
  // Fastify's plugin scopes inherit from the root instance through their prototype.
  for (let instance: object | null = app; instance; instance = Object.getPrototypeOf(instance) as object | null) {
    const catalogue = catalogues.get(instance);
    if (catalogue) return catalogue;
  }
  return [];
}

/**
 * Every route not hidden (swagger-ui's own files, the front end's static files) must be in the
 * document: a route that @fastify/swagger did not see (registered before it, or dropped) is a bug,
 * and the document is refused rather than served incomplete.
 */
function checkComplete(app: object, document: { paths?: Record<string, Record<string, unknown> | undefined> }) {
  const missing = routeCatalogue(app)
    .filter((route) => !route.hidden && !document.paths?.[route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[route.method.toLowerCase()])
    .map((route) => `${route.method} ${route.url}`);
  if (missing.length) throw new Error(`routes missing from the OpenAPI document: ${missing.join(', ')}`);
}

/**
 * Registers @fastify/swagger on the root instance. Call it before any route is registered: it
 * collects routes as they are added (an onRoute hook), nothing more until the first request.
 */
export async function registerOpenApi(app: Api, site: { publicUrl: string }) {
  const catalogue: CataloguedRoute[] = [];
  catalogues.set(app, catalogue);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      catalogue.push({ method, url: route.url, hidden: Boolean(route.schema?.hide), upload: route.config?.upload });
    }
  });
  await app.register(swagger, {
    openapi: baseDocument,
    transform: createOpenApiTransform({ tagsOf, needsToken }),
    transformObject: createOpenApiTransformObject({
      title: 'API Cuộc thi Đại sứ Văn hoá đọc',
      version: packageVersion(),
      description: DESCRIPTION,
      // Not an open-source API: its only published terms are the contest's rules page (thể lệ).
      license: { name: 'Proprietary', url: `${site.publicUrl}/the-le` },
      tags: tagRules.map(({ name, description }) => ({ name, description })),
    }),
  });
}

/** The page's own headers: the site's page set with the docs page's CSP (security-headers.ts). */
function docsHeaders(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  reply.headers(docsPageSecurityHeaders);
  // swagger-ui redirects /static/index.html to the page by rewriting the URL with a pattern that
  // misses a query string, so /static/index.html?x redirected to itself for ever.
  if (/\/static\/index\.html\?/.test(request.url)) {
    void reply.redirect('/api/docs/');
    return;
  }
  done();
}

export function registerDocsRoutes(api: Api, _services: Services) {
  let documentJson: string | undefined;
  api.get(
    '/docs/openapi.json',
    {
      schema: {
        summary: 'Bản mô tả OpenAPI 3.1 của toàn bộ API',
        response: { 200: documentSchema },
      },
    },
    async (_request, reply) => {
      // Built once per process (the routes do not change after start-up), then sent as is.
      if (!documentJson) {
        const document = api.swagger() as Parameters<typeof checkComplete>[1];
        checkComplete(api, document);
        documentJson = JSON.stringify(document);
      }
      // A string with a JSON content type is sent as it is, not serialised again.
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(documentJson as unknown as z.infer<typeof documentSchema>);
    },
  );

  api.register(swaggerUi, {
    routePrefix: '/docs',
    // The page's links are absolute (/api/docs/static/...) when it is opened without a trailing slash.
    indexPrefix: '/api',
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0, tryItOutEnabled: false },
    uiHooks: { onRequest: docsHeaders },
    theme: { title: 'API Cuộc thi Đại sứ Văn hoá đọc' },
  });
}
