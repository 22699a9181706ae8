// The suggested books in their class groups (GET /api/books), for the home page and the rules
// page: null while loading. A load error is only logged (spec section 8).
import { useEffect, useState } from 'react';
import type { ClassGroupWithBooks } from '../../shared/schemas/catalog';
import { api } from '../lib/api-client';

export function useBookGroups(): ClassGroupWithBooks[] | null {
  const [groups, setGroups] = useState<ClassGroupWithBooks[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.get<{ data: ClassGroupWithBooks[] }>('/books', { signal: controller.signal }).then(
      (response) => setGroups(response.data),
      (error: unknown) => controller.signal.aborted || console.warn('Không tải được danh sách sách', error),
    );
    return () => controller.abort();
  }, []);
  return groups;
}
