// A list's page and filters: changing a filter (or the search) goes back to page 1.
import { useState } from 'react';

export function useListQuery<F extends Record<string, string>>(initial: F) {
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState(initial);
  /** A setter for one filter, for a select's or a search box's change. */
  const filter = (key: keyof F) => (value: string) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPage(1);
  };
  return { page, setPage, filters, filter };
}
