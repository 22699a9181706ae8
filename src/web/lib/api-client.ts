// fetch wrapper for /api: JSON in and out, the bearer token of the session, one error shape, a
// time limit on every call, and one notion of "temporarily unavailable, try again shortly".
import { retryableStatuses, type ErrorCode } from '../../shared/error-codes';
import { messages } from '../../shared/messages';
import type { ApiError } from '../../shared/schemas/common';
import { getSession, sessionEnded } from './session';

/** Time limit of an ordinary call (ms); the server's own handler timeout is 15 s too. */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** Thrown when the request never got an answer (offline, DNS, aborted...). */
export class NetworkError extends Error {
  constructor(cause: unknown, message = 'Không thể kết nối tới máy chủ.') {
    super(message);
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

/** No answer within the call's time limit: like a lost connection, try again shortly. */
export class RequestTimeoutError extends NetworkError {
  constructor(cause: unknown) {
    super(cause, messages.serviceUnavailable);
    this.name = 'RequestTimeoutError';
  }
}

/** An answer with success:false (any status), carrying the server's message and field errors. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError & Record<string, unknown>,
    /** The server's Retry-After, in seconds (503 answers carry it), when it sent one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(body.message);
    this.name = 'ApiRequestError';
  }
  /** Field errors by field name (an import's row problems are in `rowProblems`). */
  get errors(): Record<string, string> {
    const errors = this.body.errors;
    return errors && !Array.isArray(errors) ? errors : {};
  }
  /** A refused import's problems by row and column (422 import_invalid). */
  get rowProblems(): { row: number; column: string; message: string }[] {
    return Array.isArray(this.body.errors) ? this.body.errors : [];
  }
}

/** Codes of a server that is briefly away or saturated (sent with 503 and Retry-After). */
const retryableCodes: readonly ErrorCode[] = ['service_unavailable', 'request_timeout'];

/**
 * "Temporarily unavailable, try again shortly": no answer (network loss, timeout) or 502/503/504.
 * Anything else (a refusal, a bug's 500, a 429) is not, and callers keep their own handling.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiRequestError && (retryableStatuses.includes(error.status) || retryableCodes.includes(error.body.code));
}

/** Retry-After as seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP date names its day or month; Date.parse alone would take "-1" as a year.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export interface BackoffOptions {
  /** Window of the first retry (ms); it doubles with each failure... */
  baseMs: number;
  /** ...up to this (ms). */
  capMs: number;
  /** The server's Retry-After (s): never retry sooner. Taken up to capMs (a proxy's bogus hour must not freeze an exam). */
  retryAfterSeconds?: number;
  /** A number in [0, 1); Math.random unless a test fixes it. */
  random?: () => number;
}

/**
 * Wait before retry number `failures` (0 = after the first failure), in ms: "full jitter", a
 * random point in [0, min(cap, base * 2^failures)], so that clients cut off together do not come
 * back together. A Retry-After shifts that window to start at it rather than clamping to it:
 * clamping would send every client whose draw fell below it at the same instant.
 */
export function retryDelayMs(failures: number, { baseMs, capMs, retryAfterSeconds, random = Math.random }: BackoffOptions): number {
  const window = Math.min(capMs, baseMs * 2 ** Math.min(failures, 30));
  const floor = Math.min(capMs, (retryAfterSeconds ?? 0) * 1000);
  return Math.round(floor + random() * window);
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Send the request even while the page unloads (exam saves). */
  keepalive?: boolean;
  /** Give up after this many ms (RequestTimeoutError); DEFAULT_TIMEOUT_MS unless given. */
  timeoutMs?: number;
  /** A 401 leaves the session as it is: the caller asks for the login in place (the exam screen,
   * which must never leave a running exam for /dang-nhap). */
  keepSession?: boolean;
  /** The fetch's cache mode ('no-cache': ask the server again, past what the browser kept). */
  cache?: RequestCache;
}

/** The caller's signal (if any) combined with a time limit; `timedOut` tells which one fired. */
function limitSignal(caller: AbortSignal | undefined, ms: number) {
  if (typeof AbortSignal.any === 'function' && typeof AbortSignal.timeout === 'function') {
    const timeout = AbortSignal.timeout(ms);
    return { signal: caller ? AbortSignal.any([caller, timeout]) : timeout, timedOut: () => timeout.aborted, done: () => undefined };
  }
  // Older browsers (Safari < 17.4): one controller, aborted by a timer or by the caller.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ms);
  const forward = () => controller.abort(caller?.reason);
  if (caller?.aborted) forward();
  else caller?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', forward);
    },
  };
}

export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const session = getSession();
  // A FormData body (a file upload) is sent as multipart, with the boundary the browser sets.
  const isForm = typeof FormData !== 'undefined' && options.body instanceof FormData;
  const limit = limitSignal(options.signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  // A timeout only when the caller did not abort first (an abort is the caller's own choice).
  const noAnswer = (error: unknown) => (limit.timedOut() && !options.signal?.aborted ? new RequestTimeoutError(error) : new NetworkError(error));
  try {
    let response: Response;
    try {
      response = await fetch(`/api${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(options.body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
          ...(session ? { authorization: `Bearer ${session.token}` } : {}),
        },
        body: options.body === undefined ? undefined : isForm ? (options.body as FormData) : JSON.stringify(options.body),
        signal: limit.signal,
        keepalive: options.keepalive,
        ...(options.cache ? { cache: options.cache } : {}),
      });
    } catch (error) {
      throw noAnswer(error);
    }
    let body: any;
    try {
      body = await response.json();
    } catch (error) {
      // The time limit also covers the body: cut off half-way is no answer.
      if (limit.signal.aborted) throw noAnswer(error);
      // Not JSON (a proxy's error page): the same shape, with a code that classifies it.
      const unavailable = retryableStatuses.includes(response.status);
      body = {
        success: false,
        code: unavailable ? 'service_unavailable' : 'server_error',
        message: unavailable ? messages.serviceUnavailable : `Lỗi máy chủ (${response.status}).`,
      } satisfies ApiError;
    }
    if (!response.ok || body?.success === false) {
      // The session ended on the server (expired or revoked): forget it here too.
      if (response.status === 401 && session && !options.keepSession) sessionEnded();
      throw new ApiRequestError(response.status, body, parseRetryAfter(response.headers.get('retry-after')));
    }
    return body as T;
  } finally {
    limit.done();
  }
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('POST', path, { ...options, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, { ...options, body: body ?? {} }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};
