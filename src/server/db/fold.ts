// Accent- and case-insensitive matching of Vietnamese text, the same in SQL and in JavaScript:
// "nguyen thi lan" finds "Nguyễn Thị Lan", "hoa" finds both "Hòa" and "Hoà". Marks are dropped
// (so either tone-mark placement matches) and letters lowered; translate() maps the capitals
// itself, so that lower() only meets ASCII (a database in the C locale lowers nothing else).
import { sql, type Expression, type RawBuilder } from 'kysely';

const MARKED_LOWER = 'àáạảãâầấậẩẫăằắặẳẵèéẹẻẽêềếệểễìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹđ';
const PLAIN_LOWER = 'aaaaaaaaaaaaaaaaaeeeeeeeeeeeiiiiiooooooooooooooooouuuuuuuuuuuyyyyyd';
const MARKED = MARKED_LOWER + MARKED_LOWER.toUpperCase();
const PLAIN = PLAIN_LOWER + PLAIN_LOWER;

/** Lower case, without Vietnamese marks (the same mapping as `foldSql`). */
export function foldText(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC').toLowerCase()) {
    const at = MARKED_LOWER.indexOf(char);
    out += at >= 0 ? PLAIN_LOWER[at] : char;
  }
  return out;
}

/** A text column or expression folded in SQL like `foldText`. */
export const foldSql = (text: Expression<string | null> | RawBuilder<string | null>) => sql<string>`lower(translate(${text}, ${MARKED}, ${PLAIN}))`;

/** LIKE pattern: the folded needle anywhere, with %, _ and \ matched literally. */
export const foldedContains = (needle: string) => `%${foldText(needle).replace(/[%_\\]/g, '\\$&')}%`;
