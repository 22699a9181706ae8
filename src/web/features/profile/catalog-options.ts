// Districts, schools, class groups and class rooms for the contestant selects. Each list is
// fetched once per page load and shared by the cards (three cards in one district: one call).
import { useEffect, useState } from 'react';
import type { NamedItem } from '../../../shared/schemas/catalog';
import { api } from '../../lib/api-client';

const cache = new Map<string, Promise<NamedItem[]>>();

function load(path: string): Promise<NamedItem[]> {
  let pending = cache.get(path);
  if (!pending) {
    pending = api.get<{ data: NamedItem[] }>(path).then((response) => response.data);
    // A failed list is asked again next time rather than remembered.
    pending.catch(() => cache.delete(path));
    cache.set(path, pending);
  }
  return pending;
}

/** The items at `path` (none while `path` is null, e.g. no district chosen yet). */
export function useOptions<T extends NamedItem = NamedItem>(path: string | null): { items: T[]; loading: boolean } {
  const [state, setState] = useState<{ path: string; items: T[] }>();
  useEffect(() => {
    if (!path) return;
    let current = true;
    load(path).then(
      (items) => current && setState({ path, items: items as T[] }),
      (error: unknown) => console.warn('Không tải được danh sách lựa chọn', path, error),
    );
    return () => {
      current = false;
    };
  }, [path]);
  if (!path) return { items: [], loading: false };
  return state?.path === path ? { items: state.items, loading: false } : { items: [], loading: true };
}
