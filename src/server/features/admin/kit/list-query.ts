// The SQL pieces every paged admin list shares: the search pattern, the page's offset, and the
// order (a column the table asked for, then the list's own order).
import { sql, type RawBuilder } from 'kysely';
import type { Page, PageQuery, SortDirection } from '../../../../shared/schemas/admin';
import { naturalVietnameseOrder, vietnameseOrder } from '../../../db/vietnamese-order';

/** An ILIKE/LIKE pattern that finds `text` anywhere, its own % and _ taken literally. */
export const containing = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

const offsetOf = (query: PageQuery) => (query.page - 1) * query.per_page;

/**
 * The ORDER BY of a list: `columns[query.sort]` in `query.dir` first when a sort is asked for,
 * then the list's own order (`own`, which ends with a unique column, so pages never overlap).
 * `columns` are SQL references (`schools.name`, or an output column's name like `contestants`);
 * those in `names` sort in Vietnamese order (vietnameseOrder), those in `natural` in natural order
 * (naturalVietnameseOrder: "3A", "3A1", "3B"), then by the text itself.
 */
function listOrder<K extends string>(query: { sort?: K; dir: SortDirection }, columns: Record<K, string>, own: string[], names: string[], natural: string[]): RawBuilder<unknown> {
  const by = (column: string, dir = '') => {
    const order = natural.includes(column) ? naturalVietnameseOrder : names.includes(column) ? vietnameseOrder : undefined;
    const keys = order ? [order(column), sql.ref(column)] : [sql.ref(column)];
    return keys.map((key) => sql`${key}${sql.raw(dir)}`);
  };
  const asked = query.sort ? by(columns[query.sort], query.dir === 'desc' ? ' DESC' : ' ASC') : [];
  return sql`${sql.join([...asked, ...own.flatMap((column) => by(column))])}`;
}

interface Listed<R> {
  orderBy(order: RawBuilder<unknown>): { limit(n: number): { offset(n: number): { execute(): Promise<R[]> } } };
}
interface Counted {
  executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }>;
}

/**
 * One page of a list: `rows` (the filtered, selected query) in listOrder, and the number of all
 * rows (`counted`: the same filters, `count(*) AS n`), read at once.
 */
export async function pageOf<R, K extends string>(
  rows: Listed<R>,
  counted: Counted,
  query: PageQuery & { sort?: K; dir: SortDirection },
  order: { columns: Record<K, string>; own: string[]; names?: string[]; natural?: string[] },
): Promise<Page<R>> {
  const [items, total] = await Promise.all([
    rows.orderBy(listOrder(query, order.columns, order.own, order.names ?? [], order.natural ?? [])).limit(query.per_page).offset(offsetOf(query)).execute(),
    counted.executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n), page: query.page, per_page: query.per_page };
}
