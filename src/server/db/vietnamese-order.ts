// Vietnamese alphabetical order in SQL (0026_vietnamese_order.sql): the database's C collation
// sorts by code points (Đ after Z); lists people read order by this, then by the name itself.
import { sql, type RawBuilder } from 'kysely';

/** For `.orderBy(vietnameseOrder('schools.name')).orderBy('schools.name')`. */
export const vietnameseOrder = (column: string): RawBuilder<string> => sql<string>`vi_sort_key(${sql.ref(column)})`;

/**
 * The natural order of names with numbers in them, classes above all: "3A", "3A1", "3A2", "3A10",
 * "3B", "4A1" (compareVietnamese's, numeric). Each run of digits is padded to ten digits (first
 * ten zeros before it, then the last ten kept), so that numbers compare as numbers; the letters
 * as vietnameseOrder. For `.orderBy(naturalVietnameseOrder('class_rooms.name')).orderBy('class_rooms.name')`.
 */
export const naturalVietnameseOrder = (column: string): RawBuilder<string> =>
  sql<string>`vi_sort_key(regexp_replace(regexp_replace(${sql.ref(column)}, '(\\d+)', '0000000000\\1', 'g'), '0*(\\d{10})', '\\1', 'g'))`;
