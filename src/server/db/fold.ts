// Accent- and case-insensitive matching of Vietnamese text, the same in SQL and in JavaScript:
// "nguyen thi lan" finds "Nguyễn Thị Lan", "hoa" finds both "Hòa" and "Hoà". Marks are dropped
// (so either tone-mark placement matches) and letters lowered; translate() maps the capitals
// itself, so that lower() only meets ASCII (a database in the C locale lowers nothing else).
// The function itself is shared with the web (shared/text/fold.ts); this file adds its SQL twin.
import { sql, type Expression, type RawBuilder } from 'kysely';
import { foldText, MARKED_LOWER, PLAIN_LOWER } from '../../shared/text/fold';

export { foldText };

const MARKED = MARKED_LOWER + MARKED_LOWER.toUpperCase();
const PLAIN = PLAIN_LOWER + PLAIN_LOWER;

/** A text column or expression folded in SQL like `foldText`. */
export const foldSql = (text: Expression<string | null> | RawBuilder<string | null>) => sql<string>`lower(translate(${text}, ${MARKED}, ${PLAIN}))`;

/** LIKE pattern: the folded needle anywhere, with %, _ and \ matched literally. */
export const foldedContains = (needle: string) => `%${foldText(needle).replace(/[%_\\]/g, '\\$&')}%`;
