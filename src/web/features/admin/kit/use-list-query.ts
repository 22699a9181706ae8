// A list's page, filters and sort: changing a filter, the search or the sort goes back to page 1.
// The sort is the server's (decision 015): `path()` carries `sort`/`dir` into the list's query,
// and without a sort the list keeps the server's own order.
import { useState } from 'react';
import { pageQuery } from '../../../lib/use-data';
import type { Sort } from '../../../components/ui/data-table';

export function useListQuery<F extends Record<string, string>>(initial: F) {
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState(initial);
  const [sort, setSort] = useState<Sort | undefined>();
  /** A setter for one filter, for a select's or a search box's change. */
  const filter = (key: keyof F) => (value: string) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPage(1);
  };
  /** Sets every filter at once (a search form's submit). */
  const search = (values: F) => {
    setFilters(values);
    setPage(1);
  };
  const onSort = (next: Sort) => {
    setSort(next);
    setPage(1);
  };
  /** The list's address with this page, the filters (`q` the search) and the sort. */
  const path = (base: string, perPage?: number) => {
    const { q = '', ...rest } = filters;
    return `${base}?${pageQuery(page, q, { ...rest, ...(sort && { sort: sort.key, dir: sort.direction }) }, perPage)}`;
  };
  /** What a PagedTable takes from the query: the sort shown in the headers, and where clicks go. */
  const table = { sort, onSort, onPage: setPage };
  return { page, setPage, filters, filter, search, sort, path, table };
}
