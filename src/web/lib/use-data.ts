// Loading data for a screen, the one way every screen does it: loading, the error and its
// Vietnamese message, retry, abort on unmount or when the key changes, and a refetch after a change.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiRequestError, api, isRetryable } from './api-client';

export const LOAD_FAILED = 'Không tải được dữ liệu.';

export interface DataState<T> {
  /** The last answer; kept while the next key loads, so a paged table does not empty between pages. */
  data: T | undefined;
  /** What the last load threw (kept until an answer comes, so a failing poll does not blink). */
  error: unknown;
  /** The error as a sentence for the screen: the server's message when it answered, else `failed`. */
  message: string | undefined;
  loading: boolean;
  /** Loads the same key again (a retry, or a refetch after a change). */
  reload: () => void;
}

/**
 * Runs `load` whenever `key` (or `version`, a counter the caller bumps when a change elsewhere makes
 * the data stale) changes; a null key loads nothing. Answers that come after the key moved on or
 * after unmount are dropped, and the request is aborted.
 */
export function useData<T>(
  key: string | null,
  load: (signal: AbortSignal) => Promise<T>,
  {
    version = 0,
    failed = LOAD_FAILED,
    warn,
  }: {
    version?: number;
    failed?: string;
    /** Logged (console.warn) with a failure that has no answer of the server (network, timeout); the server's own refusals are its message. */
    warn?: string;
  } = {},
): DataState<T> {
  const [data, setData] = useState<T | undefined>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(false);
  // The key of the last answer or failure: a new key counts as loading from its first render.
  const [settled, setSettled] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  // The latest loader and log line without re-running the effect: the key says what to load.
  const latest = useRef({ load, warn });
  latest.current = { load, warn };
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setLoading(true);
    latest.current.load(controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setData(answer);
        setError(undefined);
        setLoading(false);
        setSettled(key);
      },
      (caught: unknown) => {
        if (controller.signal.aborted) return;
        const { warn: line } = latest.current;
        if (line && !(caught instanceof ApiRequestError)) console.warn(line, caught);
        setError(caught);
        setLoading(false);
        setSettled(key);
      },
    );
    return () => controller.abort();
  }, [key, version, reloads]);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  const message = error === undefined ? undefined : error instanceof ApiRequestError ? error.message : failed;
  return { data, error, message, loading: loading || (key !== null && settled !== key), reload };
}

/** Whether trying the same load again can help: no answer, a 503, a server fault; not a refusal. */
export function retryCanHelp(error: unknown): boolean {
  return !(error instanceof ApiRequestError) || isRetryable(error) || error.status >= 500;
}

/** GET /api{path} answering {data: T}; null loads nothing. */
export function useApiData<T>(path: string | null, version = 0, failed = LOAD_FAILED): DataState<T> {
  return useData(path, (signal) => api.get<{ data: T }>(path ?? '', { signal }).then((answer) => answer.data), { version, failed });
}

/** ?page=&per_page=&q= for a paged list. */
export function pageQuery(page: number, q: string, extra: Record<string, string | number | undefined> = {}, perPage = 50): string {
  const params = new URLSearchParams({ page: String(page), per_page: String(perPage) });
  if (q.trim()) params.set('q', q.trim());
  for (const [key, value] of Object.entries(extra)) if (value !== undefined && value !== '') params.set(key, String(value));
  return params.toString();
}
