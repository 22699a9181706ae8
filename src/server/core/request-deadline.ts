// A request not answered within REQUEST_TIMEOUT_MS gets a 503 `request_timeout` (the client
// retries) instead of hanging. The requests in flight are kept in arrival order and one timer sweeps
// the front of them every SWEEP_MS; with one timeout for all, the oldest are the first to expire.
// The same sweep serves Fastify's requests (the hooks below) and the hot lane's (core/hot-lane.ts).
//
// Not Fastify's handlerTimeout: that one gives every request an AbortController and a timer of its
// own, and aborts the controller when the request stream closes, which for a request with a body
// over HTTP happens as soon as the body is read: a DOMException with its stack at each exam save
// (about a tenth of the app's CPU in the exam-day benchmark's profile), and its timer cleared there.
// Nothing here reads request.signal. A route with a timeout of its own (the results' exports, 5
// minutes) keeps Fastify's handlerTimeout and is left out of the sweep.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendUnavailable } from './error-answers';

/** How often the front of the requests in flight is checked (ms): a timeout fires at most this late. */
const SWEEP_MS = 100;

export interface Deadlines {
  /** Calls `expire` if `key` is still in flight `timeoutMs` from now. */
  track(key: object, expire: () => void): void;
  /** `key` was answered (or its client is gone): no expiry. */
  done(key: object): void;
  close(): void;
}

/** One sweep for every request of the process; none when `timeoutMs` is 0. */
export function createDeadlines(timeoutMs: number): Deadlines | undefined {
  if (timeoutMs <= 0) return undefined;
  /** In arrival order, so in order of deadline. */
  const inFlight = new Map<object, { expire: () => void; deadline: number }>();
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const [key, { expire, deadline }] of inFlight) {
      if (deadline > now) break;
      inFlight.delete(key);
      expire();
    }
  }, SWEEP_MS).unref();
  return {
    track: (key, expire) => void inFlight.set(key, { expire, deadline: performance.now() + timeoutMs }),
    done: (key) => void inFlight.delete(key),
    close() {
      clearInterval(sweep);
      inFlight.clear();
    },
  };
}

export function registerRequestDeadline(app: FastifyInstance, deadlines: Deadlines | undefined) {
  if (!deadlines) return;
  const expire = (request: FastifyRequest, reply: FastifyReply) => () => {
    // Answered (its onResponse comes later), or its client gone: nothing to send.
    if (reply.sent || reply.raw.writableEnded || reply.raw.destroyed) return;
    request.log.warn('request timed out');
    void sendUnavailable(request, reply, 'request_timeout');
  };
  const track = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    deadlines.track(request, expire(request, reply));
    done();
  };
  // Added to each route as it is registered (this must come before the routes), so that a request
  // pays no check of its route's options.
  app.addHook('onRoute', (route) => {
    if (route.handlerTimeout) return;
    route.onRequest = [track, ...(route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest])];
  });
  // Once an answer is on its way, the deadline sends nothing: the answer's onSend hooks (the
  // compression of a large body among them) run asynchronously before its headers go out, and a
  // 503 sent meanwhile would be a second answer interleaved with it on the socket (seen as a
  // broken gzip stream by an organiser whose import ended just at the deadline).
  app.addHook('onSend', (request, _reply, payload, done) => {
    deadlines.done(request);
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    deadlines.done(request);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    deadlines.close();
    done();
  });
}
