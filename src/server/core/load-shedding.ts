// Load is shed, not queued: when the requests already admitted would take the process longer than
// SHED_QUEUE_MS (100 ms) to answer, when the event loop lags or when too many requests already wait
// for a database connection, a new request gets a quick 503 with Retry-After (the exam screen keeps its
// answers on the device and retries with jittered back-off) instead of joining a queue that only
// grows. The probes (/healthz, /readyz) are never shed, so that a busy process is not killed or
// taken out of the balancer for it (docs/decisions/006-failures-and-load.md).
//
// The refusal is written by the HTTP server itself, before Fastify sees the request (no request
// object, logger, hooks or serializer): when the cores are saturated, a refusal must cost a small
// fraction of a served request, or refusing cannot bring the event loop back. The same decision is
// also an onRequest hook, for requests that do not come through that server (app.inject).
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { poolStats, type Db } from '../db/client';
import { RETRY_AFTER_SECONDS, unavailable, unavailableBody } from './error-answers';
import { apiSecurityHeaders } from '../lib/security-headers';
import type { HotLane } from './hot-lane';

export type ShedReason = 'in_flight' | 'event_loop' | 'db_pool';

export interface LoadSheddingOptions {
  config: Config;
  db: Db;
  onShed?: (reason: ShedReason) => void;
  /** The requests answered by the HTTP server itself once admitted (core/hot-lane.ts). */
  lane?: HotLane;
}

const PROBES = new Set(['/healthz', '/readyz', '/api/healthz', '/api/readyz']);
/**
 * How often the event-loop delay is read (ms); the mean over that window is compared. Short, so
 * that shedding starts within a fraction of a second of the loop falling behind and stops as soon
 * as it has caught up (a 1 s window and a 1,000 ms threshold let a backlog of seconds build up first).
 */
const SAMPLE_INTERVAL_MS = 100;
/**
 * Windows in a row whose mean delay must be above the threshold before shedding starts (it stops
 * at the first window below): a lone slow window (a garbage collection, a process descheduled on a
 * busy machine) is not an overload; a backlog keeps the delay up window after window.
 */
const WINDOWS_IN_A_ROW = 3;
/** The histogram's resolution (ms): its own timer period, taken off the mean. */
const RESOLUTION_MS = 10;
/** A refused request's body up to this size is read to keep its connection (writeRefusal). */
const SMALL_BODY_BYTES = 16 * 1024;
/** Shed requests are logged as one line per this period (a line per refusal would add to the load). */
const LOG_INTERVAL_MS = 5_000;

/** The answers counted per bucket of this many ms; the rate is over the last BUCKETS of them (1 s). */
const BUCKET_MS = 100;
const BUCKETS = 10;

export interface AdmissionOptions {
  /**
   * The longest (ms) a new request may expect to wait behind the requests already admitted and not
   * yet answered, at the rate the process has answered over the last second (0 = no limit).
   */
  queueMs: number;
  /** Requests in flight always admitted, whatever the rate: a process that has been idle serves a burst. */
  minInFlight: number;
  /** Milliseconds from any fixed origin (performance.now by default; a fake clock in tests). */
  now?: () => number;
}

/**
 * Admission by the queue the process already holds. The time a new request waits is the requests
 * in flight divided by the rate they are answered (Little's law), so it is refused when
 *   in flight >= max(minInFlight, answered in the last second x queueMs / 1000).
 * At overload the rate is the process's capacity whatever the machine, so the admitted requests wait
 * about queueMs and the rest are refused at once; when the database stalls, the rate falls and so
 * does the limit (down to minInFlight). One slow request (an export of the back office) counts once:
 * it does not refuse everyone the way a rule on the age of the oldest request in flight would.
 */
export function createAdmission({ queueMs, minInFlight, now = () => performance.now() }: AdmissionOptions) {
  const answeredIn = new Uint32Array(BUCKETS);
  let bucket = Math.floor(now() / BUCKET_MS);
  let inFlight = 0;

  /** Moves to the bucket of `at`, emptying those that fell out of the last second. */
  function roll(at: number) {
    const current = Math.floor(at / BUCKET_MS);
    for (let k = Math.max(bucket + 1, current - BUCKETS + 1); k <= current; k += 1) answeredIn[k % BUCKETS] = 0;
    bucket = Math.max(bucket, current);
  }

  /** Requests in flight at and beyond which a new one is refused. */
  function limit(): number {
    const at = now();
    roll(at);
    let answered = 0;
    for (let k = 0; k < BUCKETS; k += 1) answered += answeredIn[k]!;
    // The buckets cover the 9 whole ones before this one and this one so far: 0.9 to 1 s.
    const spanMs = (BUCKETS - 1) * BUCKET_MS + (at - bucket * BUCKET_MS);
    return Math.max(minInFlight, Math.floor((answered * queueMs) / spanMs));
  }

  return {
    get inFlight() {
      return inFlight;
    },
    limit,
    /** True when a new request must be refused. */
    full: () => queueMs > 0 && inFlight >= minInFlight && inFlight >= limit(),
    admitted() {
      inFlight += 1;
    },
    answered() {
      inFlight -= 1;
      roll(now());
      answeredIn[bucket % BUCKETS]! += 1;
    },
  };
}

/** What Fastify itself sets on the servers it creates (lib/server.js), given to serverFactory. */
interface ServerTimeouts {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

export interface LoadShedder {
  /** Why a new request should be refused now (undefined: serve it). */
  reason(): ShedReason | undefined;
  /** Fastify's serverFactory: an HTTP server that refuses at once, before Fastify, while shedding. */
  serverFactory(handler: RequestListener, options: ServerTimeouts): Server;
  /** Registers the onRequest hook (requests not made through the server) and the shutdown. */
  register(app: FastifyInstance): void;
}

export function createLoadShedder({ config, db, onShed, lane }: LoadSheddingOptions): LoadShedder {
  const { shedDbWaiting } = config.load;
  const admission = createAdmission({ queueMs: config.load.shedQueueMs, minInFlight: config.load.shedInFlightMin });
  /** Requests admitted by the server below: the onRequest hook neither decides nor counts them again. */
  const admittedByServer = new WeakSet<IncomingMessage>();
  // On PGlite the database itself runs on the event loop: the loop's delay is then the database's
  // own work (one long query blocks it), not a backlog of requests, and refusing would not shorten
  // it. The rule holds on PostgreSQL (a pool), where the loop only serves requests.
  const shedEventLoopDelayMs = poolStats(db) ? config.load.shedEventLoopDelayMs : 0;
  let eventLoopDelayMs = 0;
  let slowWindows = 0;
  /** When the sampling timer last ran: a request read long after it is read in a loop turn that is itself late. */
  let lastTick = performance.now();
  let stopSampling = () => {};
  if (shedEventLoopDelayMs > 0) {
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    const timer = setInterval(() => {
      eventLoopDelayMs = histogram.count > 0 ? Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS) : 0;
      slowWindows = eventLoopDelayMs > shedEventLoopDelayMs ? slowWindows + 1 : 0;
      histogram.reset();
      lastTick = performance.now();
    }, SAMPLE_INTERVAL_MS).unref();
    stopSampling = () => {
      clearInterval(timer);
      histogram.disable();
    };
  }

  const shedSinceLog: Record<ShedReason, number> = { in_flight: 0, event_loop: 0, db_pool: 0 };
  let logger: FastifyBaseLogger | undefined;
  const logTimer = setInterval(() => {
    if (shedSinceLog.in_flight + shedSinceLog.event_loop + shedSinceLog.db_pool === 0) return;
    logger?.warn(
      { shed: { ...shedSinceLog }, in_flight: admission.inFlight, in_flight_limit: admission.limit(), event_loop_delay_ms: Math.round(eventLoopDelayMs) },
      'requests shed',
    );
    shedSinceLog.in_flight = shedSinceLog.event_loop = shedSinceLog.db_pool = 0;
  }, LOG_INTERVAL_MS).unref();

  function reason(): ShedReason | undefined {
    if (admission.full()) return 'in_flight';
    if (slowWindows >= WINDOWS_IN_A_ROW) return 'event_loop';
    // The timers have not run for longer than the threshold: this request comes from a backlog read
    // in one long turn of the loop (thousands of requests at once), which the windows above only
    // see once that turn has ended (turns of 6-7 s were measured at 2-4 x capacity).
    if (shedEventLoopDelayMs > 0 && performance.now() - lastTick > SAMPLE_INTERVAL_MS + shedEventLoopDelayMs) return 'event_loop';
    if (shedDbWaiting > 0 && (poolStats(db)?.waiting ?? 0) > shedDbWaiting) return 'db_pool';
    return undefined;
  }

  /** The decision for one request; counts it when it is refused. */
  function refuse(url: string | undefined): ShedReason | undefined {
    const why = reason();
    if (!why) return undefined;
    const path = url?.split('?', 1)[0] ?? '';
    if (PROBES.has(path)) return undefined;
    shedSinceLog[why] += 1;
    onShed?.(why);
    return why;
  }

  /** Counts a request admitted until its response is sent or its connection lost ('close' comes once, either way). */
  function track(response: ServerResponse) {
    admission.admitted();
    response.once('close', admission.answered);
  }

  /** The 503 of the error handler's shape, written straight on the response; only its request id changes. */
  const refusalBody = (requestId: string) => JSON.stringify(unavailableBody(requestId));
  const refusalHeaders = {
    ...apiSecurityHeaders,
    'retry-after': String(RETRY_AFTER_SECONDS),
    'content-type': 'application/json; charset=utf-8',
    // A UUID is always 36 characters: the length is the same for every refusal.
    'content-length': Buffer.byteLength(refusalBody(crypto.randomUUID())),
    'cache-control': 'no-store',
  };
  // A request with a body is refused before its body is read: Node would read all of it (at
  // whatever pace the client sends it) to keep the connection, so a large or chunked body's
  // connection is closed at once (issue 35: a slow body kept its connection long after its 503).
  // A small body (an autosave is under 2 KB) nearly always came in the same packet as its headers:
  // once the parser has done with what the socket gave, it is read, and the connection is kept
  // for the client's retry (behind nginx, an upstream connection kept instead of a new one for
  // each refusal); if it is not all there by then, the connection is closed as for a large one.
  // Without a body, the connection is kept.
  const closingRefusalHeaders = { ...refusalHeaders, connection: 'close' };
  function writeRefusal(request: IncomingMessage, response: ServerResponse) {
    const chunked = request.headers['transfer-encoding'] !== undefined;
    const length = request.headers['content-length'] ?? '0';
    const small = !chunked && Number(length) <= SMALL_BODY_BYTES;
    response.writeHead(503, small ? refusalHeaders : closingRefusalHeaders);
    response.end(refusalBody(crypto.randomUUID()));
    if (small && length !== '0') {
      request.resume();
      setImmediate(() => {
        if (!request.complete) request.socket.destroySoon();
      });
    }
  }

  return {
    reason,
    serverFactory(handler, options) {
      // A request's headers and body must all arrive within requestTimeout (a 408, then the
      // connection is closed). Node checks these deadlines every connectionsCheckingInterval (its
      // default, 30 s, lets a slow request outlive its deadline by as much again), and takes the
      // shorter of the two timeouts for the headers and the longer for the whole request: its
      // headersTimeout (60 s) must not be above requestTimeout, or the request gets 60 s.
      const requestTimeout = options.requestTimeout ?? 0;
      const deadlines = requestTimeout > 0
        ? { requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(requestTimeout / 10))) }
        : {};
      const server = createServer(deadlines, (request: IncomingMessage, response: ServerResponse) => {
        if (refuse(request.url)) return writeRefusal(request, response);
        admittedByServer.add(request);
        track(response);
        if (!lane?.take(request, response, handler)) handler(request, response);
      });
      // The settings Fastify gives the servers it creates itself.
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
    register(app) {
      logger = app.log;
      // A callback hook (no promise per request). Answering early means sending and not calling done.
      app.addHook('onRequest', (request, reply, done) => {
        if (admittedByServer.has(request.raw)) return done();
        if (!refuse(request.url)) {
          track(reply.raw);
          return done();
        }
        reply.send(unavailable(request, reply));
      });
      app.addHook('onClose', async () => {
        stopSampling();
        clearInterval(logTimer);
      });
    },
  };
}
