// Loading an admin list or record: state, errors and a reload after a change.
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';

/** `version`: a counter the caller bumps when a change elsewhere (an import, a merge) makes this data stale. */
export function useAdminData<T>(path: string | null, version = 0) {
  const [data, setData] = useState<T | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [loading, setLoading] = useState(false);
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    setLoading(true);
    api
      .get<{ data: T }>(path, { signal: controller.signal })
      .then((answer) => {
        setData(answer.data);
        setError(undefined);
      })
      .catch((caught: unknown) => {
        if (!controller.signal.aborted) setError(errorMessage(caught) ?? 'Không tải được dữ liệu.');
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [path, version, reloads]);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  return { data, error, loading, reload };
}

/** ?page=&per_page=&q= for a paged list. */
export function pageQuery(page: number, q: string, extra: Record<string, string | number | undefined> = {}, perPage = 50): string {
  const params = new URLSearchParams({ page: String(page), per_page: String(perPage) });
  if (q.trim()) params.set('q', q.trim());
  for (const [key, value] of Object.entries(extra)) if (value !== undefined && value !== '') params.set(key, String(value));
  return params.toString();
}
