// A request not answered within REQUEST_TIMEOUT_MS gets a 503 `request_timeout` (the client
// retries) instead of hanging. The requests in flight are kept in arrival order and one timer sweeps
// the front of them every SWEEP_MS; with one timeout for all, the oldest are the first to expire.
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

interface InFlight {
  reply: FastifyReply;
  deadline: number;
}

export function registerRequestDeadline(app: FastifyInstance, timeoutMs: number) {
  if (timeoutMs <= 0) return;
  /** In arrival order, so in order of deadline. */
  const inFlight = new Map<FastifyRequest, InFlight>();

  const sweep = setInterval(() => {
    const now = performance.now();
    for (const [request, { reply, deadline }] of inFlight) {
      if (deadline > now) break;
      inFlight.delete(request);
      // Answered (its onResponse comes later), or its client gone: nothing to send.
      if (reply.sent || reply.raw.writableEnded || reply.raw.destroyed) continue;
      request.log.warn('request timed out');
      void sendUnavailable(request, reply, 'request_timeout');
    }
  }, SWEEP_MS).unref();

  const track = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    inFlight.set(request, { reply, deadline: performance.now() + timeoutMs });
    done();
  };
  // Added to each route as it is registered (this must come before the routes), so that a request
  // pays no check of its route's options.
  app.addHook('onRoute', (route) => {
    if (route.handlerTimeout) return;
    route.onRequest = [track, ...(route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest])];
  });
  app.addHook('onResponse', (request, _reply, done) => {
    inFlight.delete(request);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweep);
    inFlight.clear();
    done();
  });
}
