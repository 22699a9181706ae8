// The SQL pieces every paged admin list shares: the search pattern, the page's offset, and the
// order (a column the table asked for, then the list's own order).
import { sql, type RawBuilder } from 'kysely';
import type { PageQuery, SortDirection } from '../../../shared/schemas/admin';

/** An ILIKE/LIKE pattern that finds `text` anywhere, its own % and _ taken literally. */
export const containing = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

export const offsetOf = (query: PageQuery) => (query.page - 1) * query.per_page;

/**
 * The ORDER BY of a list: `columns[query.sort]` in `query.dir` first when a sort is asked for,
 * then the list's own order (`own`, which ends with a unique column, so pages never overlap).
 * `columns` are SQL references (`schools.name`, or an output column's name like `contestants`).
 */
export function listOrder<K extends string>(query: { sort?: K; dir: SortDirection }, columns: Record<K, string>, own: string[]): RawBuilder<unknown> {
  const asked = query.sort ? [sql`${sql.ref(columns[query.sort])} ${sql.raw(query.dir === 'desc' ? 'DESC' : 'ASC')}`] : [];
  return sql`${sql.join([...asked, ...own.map((column) => sql.ref(column))])}`;
}
