// Vietnamese alphabetical order in SQL (0026_vietnamese_order.sql): the database's C collation
// sorts by code points (Đ after Z); lists people read order by this, then by the name itself.
import { sql, type RawBuilder } from 'kysely';

/** For `.orderBy(vietnameseOrder('schools.name')).orderBy('schools.name')`. */
export const vietnameseOrder = (column: string): RawBuilder<string> => sql<string>`vi_sort_key(${sql.ref(column)})`;
