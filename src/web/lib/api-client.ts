// fetch wrapper for /api: JSON in and out, the bearer token of the session, one error shape.
import type { ApiError } from '../../shared/schemas/common';
import { clearSession, getSession } from './session';

/** Thrown when the request never got an answer (offline, DNS, aborted...). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('Không thể kết nối tới máy chủ.');
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

/** An answer with success:false (any status), carrying the server's message and field errors. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError & Record<string, unknown>,
  ) {
    super(body.message);
    this.name = 'ApiRequestError';
  }
  get errors(): Record<string, string> {
    return this.body.errors ?? {};
  }
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Send the request even while the page unloads (exam saves). */
  keepalive?: boolean;
}

export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const session = getSession();
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(session ? { authorization: `Bearer ${session.token}` } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (error) {
    throw new NetworkError(error);
  }
  let body: any;
  try {
    body = await response.json();
  } catch {
    body = { success: false, message: `Lỗi máy chủ (${response.status}).` };
  }
  if (!response.ok || body?.success === false) {
    // The session ended on the server (expired or revoked): forget it here too.
    if (response.status === 401 && session) clearSession();
    throw new ApiRequestError(response.status, body);
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('POST', path, { ...options, body: body ?? {} }),
};
