import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../shared/messages';
import type { ApiError } from '../../shared/schemas/common';
import {
  ApiRequestError,
  NetworkError,
  RequestTimeoutError,
  api,
  isRetryable,
  parseRetryAfter,
  retryDelayMs,
} from './api-client';

const apiError = (status: number, code: ApiError['code']) => new ApiRequestError(status, { success: false, code, message: 'x' });

/** A fetch that answers only when aborted (with the signal's reason, as browsers do). */
const hangingFetch = () =>
  vi.fn(
    (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal!.reason));
      }),
  );

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('retryDelayMs (full jitter)', () => {
  const backoff = { baseMs: 1_000, capMs: 8_000 };

  it('draws in [0, min(cap, base * 2^failures)]', () => {
    expect([0, 1, 2, 3, 4, 10].map((n) => retryDelayMs(n, { ...backoff, random: () => 0.5 }))).toEqual([500, 1_000, 2_000, 4_000, 4_000, 4_000]);
    expect(retryDelayMs(0, { ...backoff, random: () => 0 })).toBe(0);
    expect(retryDelayMs(2, { ...backoff, random: () => 0.999_999 })).toBe(4_000);
    expect(retryDelayMs(1_000, { ...backoff, random: () => 0.999_999 })).toBe(8_000);
  });

  it('never retries sooner than Retry-After, and still spreads the clients after it', () => {
    expect(retryDelayMs(0, { ...backoff, retryAfterSeconds: 2, random: () => 0 })).toBe(2_000);
    expect(retryDelayMs(0, { ...backoff, retryAfterSeconds: 2, random: () => 0.5 })).toBe(2_500);
    expect(retryDelayMs(3, { ...backoff, retryAfterSeconds: 2, random: () => 0.5 })).toBe(6_000);
  });

  it('takes a Retry-After only up to the cap', () => {
    expect(retryDelayMs(0, { ...backoff, retryAfterSeconds: 3_600, random: () => 0 })).toBe(8_000);
  });
});

describe('isRetryable', () => {
  it('is true for no answer, a timeout and 502/503/504', () => {
    expect(isRetryable(new NetworkError(new TypeError('Failed to fetch')))).toBe(true);
    expect(isRetryable(new RequestTimeoutError(new DOMException('t', 'TimeoutError')))).toBe(true);
    expect(isRetryable(apiError(503, 'service_unavailable'))).toBe(true);
    expect(isRetryable(apiError(503, 'request_timeout'))).toBe(true);
    expect(isRetryable(apiError(502, 'server_error'))).toBe(true);
    expect(isRetryable(apiError(504, 'server_error'))).toBe(true);
  });

  it('is false for a bug, a throttle, a refusal or anything else', () => {
    expect(isRetryable(apiError(500, 'server_error'))).toBe(false);
    expect(isRetryable(apiError(429, 'too_many_requests'))).toBe(false);
    expect(isRetryable(apiError(400, 'invalid_input'))).toBe(false);
    expect(isRetryable(apiError(409, 'exam_submitted'))).toBe(false);
    expect(isRetryable(new Error('bug'))).toBe(false);
    expect(isRetryable(undefined)).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2);
    expect(parseRetryAfter(' 10 ')).toBe(10);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
  });

  it('ignores what is absent or unreadable', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-1')).toBeUndefined();
  });
});

describe('apiRequest', () => {
  it('carries the status, code and Retry-After of a 503', async () => {
    const body = { success: false, code: 'service_unavailable', message: messages.serviceUnavailable, request_id: 'r1' };
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 503, headers: { 'retry-after': '2' } })));
    const error = await api.post('/store-answers-exam', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 503, retryAfterSeconds: 2, message: messages.serviceUnavailable, body: { code: 'service_unavailable' } });
    expect(isRetryable(error)).toBe(true);
  });

  it('gives a proxy error page the API shape with a code that says try again', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>Bad Gateway</html>', { status: 502 })));
    const error = await api.get('/news').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, retryAfterSeconds: undefined, body: { success: false, code: 'service_unavailable' } });
    expect(isRetryable(error)).toBe(true);
  });

  /** What a request to a server that never answers throws: after 20 ms, or when the caller aborts it first. */
  const timedOut = () => {
    vi.stubGlobal('fetch', hangingFetch());
    return api.get('/news', { timeoutMs: 20 }).catch((caught: unknown) => caught);
  };
  const abortedByCaller = () => {
    vi.stubGlobal('fetch', hangingFetch());
    const controller = new AbortController();
    const pending = api.get('/news', { signal: controller.signal, timeoutMs: 5_000 }).catch((caught: unknown) => caught);
    controller.abort();
    return pending;
  };

  it('gives up after the time limit with a timeout, a retryable error', async () => {
    const error = await timedOut();
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toBeInstanceOf(NetworkError);
    expect(isRetryable(error)).toBe(true);
  });

  it("reports the caller's own abort as an abort, not a timeout", async () => {
    const error = await abortedByCaller();
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(RequestTimeoutError);
  });

  it('has the same time limit where AbortSignal.any is missing (older browsers)', async () => {
    const any = Object.getOwnPropertyDescriptor(AbortSignal, 'any')!;
    Object.defineProperty(AbortSignal, 'any', { ...any, value: undefined });
    try {
      expect(await timedOut()).toBeInstanceOf(RequestTimeoutError);
      const error = await abortedByCaller();
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).not.toBeInstanceOf(RequestTimeoutError);
    } finally {
      Object.defineProperty(AbortSignal, 'any', any);
    }
  });
});
