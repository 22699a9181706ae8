// Accent-, case- and tone-mark-insensitive Vietnamese text: "nguyen thi lan" finds "Nguyễn Thị Lan",
// "hoa binh" finds "Phường Hoà Bình" and "Phường Hòa Bình". Marks are dropped (so either tone-mark
// placement matches, and a name typed without accents too) and letters lowered. One function for
// the server's searches and matches (the catalogue's move, decision 038) and the web's search
// boxes; the server's SQL twin is db/fold.ts (`foldSql`, the same mapping).

/** The marked lower-case letters and, position by position, their plain letters. */
export const MARKED_LOWER = 'àáạảãâầấậẩẫăằắặẳẵèéẹẻẽêềếệểễìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹđ';
export const PLAIN_LOWER = 'aaaaaaaaaaaaaaaaaeeeeeeeeeeeiiiiiooooooooooooooooouuuuuuuuuuuyyyyyd';

/** Lower case, without Vietnamese marks (the same mapping as the SQL `foldSql`). */
export function foldText(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC').toLowerCase()) {
    const at = MARKED_LOWER.indexOf(char);
    out += at >= 0 ? PLAIN_LOWER[at] : char;
  }
  return out;
}
