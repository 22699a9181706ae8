// buildApp(deps): the Fastify instance with every feature registered by hand. Never listens.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { messages } from '../shared/messages';
import { installVietnameseValidation } from '../shared/schemas/validation-errors';
import { handleClientError, handleError } from './core/error-answers';
import { refuseControlCharacters, registerJsonParser } from './lib/input-guard';
import { createLoadShedder } from './core/load-shedding';
import { apiSecurityHeaders, pageSecurityHeaders } from './lib/security-headers';
import type { Api } from './lib/api';
import { createAuth } from './core/guard';
import { registerHealthRoutes } from './features/health/routes';
import { registerSiteRoutes } from './features/site/routes';
import { registerCatalogRoutes } from './features/catalog/routes';
import { registerNewsRoutes } from './features/news/routes';
import { registerAuthRoutes } from './features/auth/routes';
import { registerProfileRoutes } from './features/profile/routes';
import { registerPrivacyRoutes } from './features/privacy/routes';
import { registerExamRoutes } from './features/exams/routes';
import { registerPracticeRoutes } from './features/practice/routes';
import { registerReportRoutes } from './features/reports/routes';
import { registerCertificateRoutes } from './features/certificates/routes';
import { registerMediaRoutes } from './features/media/routes';
import { registerAdminRoutes } from './features/admin/routes';
import { registerWinnersRoutes } from './features/winners/routes';
import { registerViewerRoutes } from './features/viewers';
import { registerOptOutRoutes } from './features/admin/messages';
import { registerDocsRoutes, registerOpenApi } from './features/docs/routes';
import type { AppDeps, Services } from './services';
import { loadWebPages } from './web-pages';
import { createDeadlines, registerRequestDeadline } from './core/request-deadline';
import { createHotLane } from './core/hot-lane';
import { registerUnitWords } from './core/unit-words';

type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<FastifyBaseLogger['info']>;

/**
 * A request's logger, made on its first line (docs/decisions/005-exam-save-path.md, issue 34): the
 * child logger Fastify makes for every request (pino's child, its bindings redacted and
 * serialised) cost about 1 % of the exam day's CPU, for requests that, at the production level
 * (warn), write no line. Made with the same bindings as Fastify's own, so a line reads as before.
 */
class LazyRequestLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger & { isLevelEnabled?(level: string): boolean },
    private readonly own: Record<string, unknown>,
  ) {}
  private real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.own));
  }
  private write(level: LogLevel, args: LogArgs) {
    if (this.#child === undefined && this.parent.isLevelEnabled?.(level) === false) return;
    (this.real()[level] as (...args: LogArgs) => void)(...args);
  }
  get level() {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  fatal(...args: LogArgs) { this.write('fatal', args); }
  error(...args: LogArgs) { this.write('error', args); }
  warn(...args: LogArgs) { this.write('warn', args); }
  info(...args: LogArgs) { this.write('info', args); }
  debug(...args: LogArgs) { this.write('debug', args); }
  trace(...args: LogArgs) { this.write('trace', args); }
  silent(...args: LogArgs) { this.real().silent(...args); }
  child(...args: Parameters<FastifyBaseLogger['child']>) {
    return this.real().child(...args);
  }
  isLevelEnabled(level: string) {
    return (this.real() as FastifyBaseLogger & { isLevelEnabled(level: string): boolean }).isLevelEnabled(level);
  }
  bindings() {
    return (this.real() as FastifyBaseLogger & { bindings(): Record<string, unknown> }).bindings();
  }
}

const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const ONE_YEAR_SECONDS = 31_536_000;
/** The largest request body (bytes) of any route but the uploads, which set their own. */
const BODY_LIMIT = 256 * 1024;

export async function buildApp(deps: AppDeps) {
  // Every validation message in Vietnamese with its field's name, none of Zod's English defaults.
  installVietnameseValidation();
  // One deadline sweep for the requests of Fastify and of the hot lane (core/request-deadline.ts).
  const deadlines = createDeadlines(deps.config.load.requestTimeoutMs);
  // The autosave and the re-sync answered by the HTTP server itself (core/hot-lane.ts).
  const hotLane = createHotLane({ bodyLimit: BODY_LIMIT, deadlines, observe: deps.metrics?.requestAnswered });
  const shedder = createLoadShedder({ config: deps.config, db: deps.db, onShed: deps.onShed, lane: hotLane });
  const app = Fastify({
    // The HTTP server refuses shed requests itself, before Fastify's own work (core/load-shedding.ts).
    serverFactory: shedder.serverFactory,
    loggerInstance: typeof deps.logger === 'object' ? deps.logger : undefined,
    logger: typeof deps.logger === 'boolean' ? deps.logger : undefined,
    // Trust the first TRUST_PROXY hops (socket peer = hop 0). A bare number no longer works:
    // Fastify 5.12 treats a hop count as "trust nothing", which would put every client behind
    // the proxy on one address (and one per-IP rate limit).
    trustProxy: deps.config.trustProxy > 0 ? (_address: string, hop: number) => hop < deps.config.trustProxy : false,
    bodyLimit: BODY_LIMIT,
    // Requests carry an id in the logs and in error answers; the client may not choose it.
    genReqId: () => crypto.randomUUID(),
    // Each request's logger made on its first line only (LazyRequestLogger above); a route's own
    // log level or serialisers get pino's child at once, as Fastify would make it.
    childLoggerFactory: (logger, bindings, options) =>
      options.level !== undefined || options.serializers !== undefined || typeof (logger as { isLevelEnabled?: unknown }).isLevelEnabled !== 'function'
        ? logger.child(bindings, options)
        : (new LazyRequestLogger(logger, bindings) as unknown as FastifyBaseLogger),
    // A client that sends its request (headers and body) too slowly, e.g. slowloris, gets a 408 and
    // its connection is closed (core/error-answers.ts handleClientError).
    requestTimeout: deps.config.load.requestBodyTimeoutMs,
    // Fastify's and the HTTP parser's own refusals, in our error shape.
    frameworkErrors: (error, request, reply) => handleError(error, request, reply),
    clientErrorHandler: handleClientError,
  }).withTypeProvider<ZodTypeProvider>();

  // JSON bodies too deeply nested are refused before they are parsed (lib/input-guard.ts).
  registerJsonParser(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The security headers (lib/security-headers.ts), fixed, given to each reply in one pass.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? apiSecurityHeaders : pageSecurityHeaders);
    done();
  });
  await app.register(compress, { global: true, threshold: 1024 });

  app.setErrorHandler(handleError);
  shedder.register(app);
  // A request not answered in time gets a 503 (the client retries) instead of hanging.
  registerRequestDeadline(app, deadlines);
  // Before the routes are registered, so that every route (and every 404) is timed.
  if (deps.metrics) app.addHook('onResponse', deps.metrics.requestDone);

  // Before the routes: it adds its replay hook to its routes as Fastify registers them.
  hotLane.register(app);

  const auth = createAuth(deps.db, deps.clock);
  const services: Services = { ...deps, auth, hotLane };

  // The OpenAPI document sees every route registered after this line (features/docs).
  await registerOpenApi(app, deps.config);

  await app.register(
    async (api) => {
      api.addHook('preValidation', refuseControlCharacters);
      registerUnitWords(api, deps.db);
      registerHealthRoutes(api, services);
      registerSiteRoutes(api, services);
      registerCatalogRoutes(api, services);
      registerNewsRoutes(api, services);
      registerAuthRoutes(api, services);
      registerProfileRoutes(api, services);
      registerPrivacyRoutes(api, services);
      registerExamRoutes(api, services);
      registerPracticeRoutes(api, services);
      registerReportRoutes(api, services);
      registerCertificateRoutes(api, services);
      registerWinnersRoutes(api, services);
      registerMediaRoutes(api, services);
      registerAdminRoutes(api, services);
      registerViewerRoutes(api, services);
      registerOptOutRoutes(api, services);
      registerDocsRoutes(api, services);
    },
    { prefix: '/api' },
  );
  // Probes for load balancers and orchestrators live outside /api as well.
  registerHealthRoutes(app as unknown as Api, services);

  const webRoot = deps.webRoot ?? DEFAULT_WEB_ROOT;
  const hasWeb = existsSync(webRoot + '/index.html');
  const pages = hasWeb ? await loadWebPages(webRoot, services, app.log) : undefined;
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // Our own cache rules below, per kind of file.
      cacheControl: false,
      setHeaders(reply, path) {
        // Vite puts a content hash in every file name under assets/.
        if (path.includes('/assets/')) reply.header('cache-control', `public, max-age=${ONE_YEAR_SECONDS}, immutable`);
        // The service worker (public/sw.js, decision 019) is checked at every visit, so that a new
        // build's worker takes over at once; it sits at the root, so its scope is the whole site.
        else if (path.endsWith('.html') || path.endsWith('/sw.js')) reply.header('cache-control', 'no-cache');
        else reply.header('cache-control', 'public, max-age=86400');
      },
    });
  }

  const apiNotFound = (request: FastifyRequest, reply: FastifyReply) =>
    reply.status(404).send({ success: false, code: 'not_found', message: messages.apiNotFound, request_id: request.id });
  if (pages) {
    // Client routes: the single-page app decides what to show (its own 404 screen included); a
    // public page is sent drawn already, a news page with its posts (web-pages.ts). A route rather
    // than the not-found handler: @fastify/compress compresses routes only (it hooks onRoute), and
    // a page is 11-13 KB of HTML that nginx, which leaves compression to the app, sends as it is.
    app.get('/*', { schema: { hide: true } }, async (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      if (path === '/api' || path.startsWith('/api/')) return apiNotFound(request, reply);
      // A file-like path that does not exist (e.g. an old hashed asset) is a real 404.
      if (/\.[a-z0-9]+$/i.test(path)) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
      reply.header('cache-control', 'no-cache');
      const page = await pages.pageFor(path);
      return 'html' in page ? reply.type('text/html; charset=utf-8').send(page.html) : reply.sendFile(page.file);
    });
  }
  app.setNotFoundHandler(apiNotFound);

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
