// The hot lane: the exam day's two most frequent requests (the autosave and the time re-sync,
// docs/decisions/005-exam-save-path.md) answered by the HTTP server itself, without Fastify's
// request and reply objects, routing, hook chain and their garbage (issue 34: the minimal Fastify
// route costs several times a bare node:http answer, and these two are 95 % of an exam day's
// requests).
//
// The lane only ever takes the request every phone sends, in its plain form: the exact path, a JSON
// body of at most the body limit with its Content-Length, a body or query the route's schema would
// accept as it is (the same compiled predicates as the Fastify route's), no control character, a
// bearer token. Anything else goes to Fastify as if the lane did not exist: before the body is read
// it is simply passed on; after (a body not in that form), the body read is given back to Fastify
// through a preParsing hook, so that Fastify answers it with its own parser, schema and messages.
// What the lane keeps of Fastify's per-request work: a request id in every error answer and log
// line, the security headers, the request deadline (the same sweep), the request-duration metric,
// the error shape (answerOfError, shared with the error handler) and, at the info level, the same
// two log lines. The routes stay registered in Fastify too: the OpenAPI document, app.inject and
// every request the lane leaves are served there.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, preParsingHookHandler } from 'fastify';
import { statusOf } from '../../shared/error-codes';
import { bearerTokenOf } from './guard';
import { answerOfError, RETRY_AFTER_SECONDS, unavailableBody } from './error-answers';
import type { Deadlines } from './request-deadline';
import { findControlCharacter, jsonDepthWithin } from '../lib/input-guard';
import { apiSecurityHeaders } from '../lib/security-headers';

export interface HotInput {
  /** The bearer token (undefined without one: the route's rule answers 401). */
  token: string | undefined;
  /** A POST's body, as the route's predicate accepted it. */
  body: unknown;
  /** A GET's query, as the route's reader gave it. */
  query: unknown;
}

export interface HotRoute {
  method: 'GET' | 'POST';
  /** The exact path, /api prefix included; a request with anything else in its URL goes to Fastify. */
  path: string;
  /** POST: true when the parsed body is in the form the route's schema gives back unchanged. */
  acceptsBody?: (body: unknown) => boolean;
  /** GET: the query read from the raw query string (after "?"), or undefined to leave it to Fastify. */
  readQuery?: (search: string) => unknown;
  /** Headers of the route's own (e.g. cache-control). */
  headers?: OutgoingHttpHeaders;
  /** The reply object; a thrown error is answered as Fastify's error handler would. */
  handle(input: HotInput): Promise<unknown>;
  serialize(reply: unknown): string;
}

export interface HotLane {
  route(route: HotRoute): void;
  /** Serves `request` if it is one of the lane's; false: not taken, nothing read (Fastify serves it). */
  take(request: IncomingMessage, response: ServerResponse, fallback: (request: IncomingMessage, response: ServerResponse) => void): boolean;
  /** Gives the lane Fastify's logger and the replay hook of the lane's routes; checks each has its Fastify route. */
  register(app: FastifyInstance): void;
}

interface LaneOptions {
  bodyLimit: number;
  deadlines?: Deadlines;
  /** The request-duration metric (core/metrics): the route is its path. */
  observe?: (method: string, statusCode: number, route: string, seconds: number) => void;
}

const JSON_TYPE = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i;
/** Texts secure-json-parse (Fastify's JSON parser) looks at twice: left to it. */
const POISON = /__proto__|constructor/;
const DIGITS = /^[0-9]{1,9}$/;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function createHotLane({ bodyLimit, deadlines, observe }: LaneOptions): HotLane {
  const routes = new Map<string, HotRoute>();
  const registered = new Set<string>();
  /** Bodies read by the lane and given back to Fastify (the request it left after reading). */
  const replays = new WeakMap<IncomingMessage, Buffer>();
  let log: FastifyBaseLogger | undefined;
  /** Each route's fixed headers (the security headers, the JSON type, the route's own), merged once. */
  const headersOf = new Map<HotRoute, OutgoingHttpHeaders>();

  const replay: preParsingHookHandler = (request, _reply, payload, done) => {
    const body = replays.get(request.raw);
    if (body === undefined) return done(null, payload);
    replays.delete(request.raw);
    done(null, Readable.from([body]));
  };

  function serve(route: HotRoute, request: IncomingMessage, response: ServerResponse, input: HotInput) {
    const started = performance.now();
    const requestId = crypto.randomUUID();
    let requestLog: FastifyBaseLogger | undefined;
    // The request's logger made on its first line only, as app.ts's LazyRequestLogger does.
    const logOf = () => (requestLog ??= log?.child({ reqId: requestId }) ?? silentLog);
    const logging = (log as { isLevelEnabled?(level: string): boolean } | undefined)?.isLevelEnabled?.('info') === true;
    if (logging) {
      const { socket } = request;
      logOf().info({ req: { method: request.method, url: request.url, host: request.headers.host, remoteAddress: socket.remoteAddress, remotePort: socket.remotePort } }, 'incoming request');
    }
    let answered = false;
    const answer = (status: number, body: string, headers?: OutgoingHttpHeaders) => {
      if (answered) return;
      answered = true;
      deadlines?.done(response);
      if (response.destroyed || response.writableEnded) return;
      response.writeHead(status, { ...headersOf.get(route), ...headers, 'content-length': Buffer.byteLength(body) });
      response.end(body);
      const seconds = (performance.now() - started) / 1000;
      observe?.(route.method, status, route.path, seconds);
      if (logging) logOf().info({ res: { statusCode: status }, responseTime: seconds * 1000 }, 'request completed');
    };
    deadlines?.track(response, () => {
      // The client gone meanwhile: nobody to answer or to warn about.
      if (response.destroyed) return;
      logOf().warn('request timed out');
      answer(statusOf('request_timeout'), JSON.stringify(unavailableBody(requestId, 'request_timeout')), { 'retry-after': String(RETRY_AFTER_SECONDS) });
    });
    route.handle(input).then(
      (reply) => answer(200, route.serialize(reply)),
      (error: Error) => {
        const lazyLog = {
          info: (object: object | string, message?: string) => logOf().info(object, message),
          warn: (object: object | string, message?: string) => logOf().warn(object, message),
          error: (object: object | string, message?: string) => logOf().error(object, message),
        };
        const { status, body, retryAfter } = answerOfError(error, requestId, lazyLog, request.socket.destroyed);
        answer(status, JSON.stringify(body), retryAfter ? { 'retry-after': String(RETRY_AFTER_SECONDS) } : undefined);
      },
    );
  }

  /** Reads the body (its length already checked), then serves it or gives it back to Fastify. */
  function readBody(route: HotRoute, request: IncomingMessage, response: ServerResponse, fallback: (request: IncomingMessage, response: ServerResponse) => void, length: number) {
    const chunks: Buffer[] = [];
    let received = 0;
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    });
    // A body cut off or too slow: Node's own handling (its 'aborted', the request timeout's 408)
    // closes the connection; there is nobody to answer.
    request.on('error', () => {});
    request.on('end', () => {
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
      const body = received === length ? parsedIfPlain(route, raw.toString('utf8')) : undefined;
      if (body === undefined) {
        replays.set(request, raw);
        return fallback(request, response);
      }
      serve(route, request, response, { token: bearerTokenOf(request.headers.authorization), body, query: undefined });
    });
  }

  /** The body if it is in the route's plain form (else undefined: Fastify parses and judges it). */
  function parsedIfPlain(route: HotRoute, text: string): unknown {
    if (POISON.test(text) || !jsonDepthWithin(text)) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return undefined;
    }
    return route.acceptsBody!(body) && findControlCharacter(body) === undefined ? body : undefined;
  }

  return {
    route(route) {
      const key = `${route.method} ${route.path}`;
      if (routes.has(key)) throw new Error(`hot lane: ${key} twice`);
      if ((route.method === 'POST') !== (route.acceptsBody !== undefined) || (route.method === 'GET') !== (route.readQuery !== undefined)) {
        throw new Error(`hot lane: ${key} needs a body predicate (POST) or a query reader (GET)`);
      }
      routes.set(key, route);
      headersOf.set(route, { ...apiSecurityHeaders, 'content-type': JSON_CONTENT_TYPE, ...route.headers });
    },
    take(request, response, fallback) {
      const url = request.url ?? '';
      const question = url.indexOf('?');
      const route = routes.get(`${request.method} ${question < 0 ? url : url.slice(0, question)}`);
      if (route === undefined) return false;
      const { headers } = request;
      if (route.method === 'GET') {
        if (question < 0 || headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
        const query = route.readQuery!(url.slice(question + 1));
        if (query === undefined) return false;
        serve(route, request, response, { token: bearerTokenOf(headers.authorization), body: undefined, query });
        return true;
      }
      const length = headers['content-length'];
      if (
        question >= 0 ||
        headers['transfer-encoding'] !== undefined ||
        headers['content-encoding'] !== undefined ||
        length === undefined ||
        !DIGITS.test(length) ||
        Number(length) === 0 ||
        Number(length) > bodyLimit ||
        !JSON_TYPE.test(headers['content-type'] ?? '')
      ) {
        return false;
      }
      readBody(route, request, response, fallback, Number(length));
      return true;
    },
    register(app) {
      log = app.log;
      // The replay hook on the lane's own routes only: no other route pays for it.
      app.addHook('onRoute', (options) => {
        const methods = Array.isArray(options.method) ? options.method : [options.method];
        for (const method of methods) {
          const key = `${method} ${options.url}`;
          if (!routes.has(key)) continue;
          registered.add(key);
          options.preParsing = [replay, ...(options.preParsing === undefined ? [] : Array.isArray(options.preParsing) ? options.preParsing : [options.preParsing])];
        }
      });
      app.addHook('onReady', (done) => {
        const missing = [...routes.keys()].filter((key) => !registered.has(key));
        done(missing.length > 0 ? new Error(`hot lane: no Fastify route for ${missing.join(', ')}`) : undefined);
      });
    },
  };
}

const silentLog = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
