// Vietnamese text as people type it: two tone-mark placements in common use, accents that are
// sometimes left out, and an alphabet whose order is not the code points'. One place for the rules
// that decide when two names are the same name, how a list is sorted and how an accent-free search
// folds text (foldText here, the same mapping in SQL in db/fold.ts).

/**
 * The open syllables whose tone mark has two accepted places: old "hoà, khoẻ, thuỷ" and new
 * "hòa, khỏe, thủy". Only at the end of a word ("hoàng", "khuyến" have one placement) and, for
 * "uy", not after q ("quý" is qu + ý in both styles).
 */
const OLD_PLACEMENT = /(?<![qQ])([uU])([ỳýỷỹỵỲÝỶỸỴ])(?![\p{L}\p{M}])|([oO])([àáảãạèéẻẽẹÀÁẢÃẠÈÉẺẼẸ])(?![\p{L}\p{M}])/gu;

/** The tone marks as combining characters: grave, acute, tilde, hook above, dot below. */
const TONE = /[\u0300\u0301\u0303\u0309\u0323]/u;

/** Moves a tone mark from the second vowel to the first: "à" on "o" -> "ò" + "a". */
function moveTone(first: string, marked: string): string {
  const [base, ...marks] = marked.normalize('NFD');
  const tone = marks.find((mark) => TONE.test(mark)) ?? '';
  return (first + tone).normalize('NFC') + base;
}

/**
 * The name with every tone mark in the new placement ("Hoà" -> "Hòa", "THUỶ" -> "THỦY"), NFC.
 * Both placements are correct Vietnamese; one of them is needed to compare names.
 */
export function canonicalToneMarks(text: string): string {
  return text
    .normalize('NFC')
    .replace(OLD_PLACEMENT, (_match, u?: string, y?: string, o?: string, a?: string) =>
      u !== undefined ? moveTone(u, y!) : moveTone(o!, a!),
    );
}

/**
 * What two names must share to be the same name (a district, a school, a class, a person): one
 * tone placement, any case, white space collapsed. "An Hoà" and "an  hòa" have the same key.
 */
export function nameKey(text: string): string {
  return canonicalToneMarks(text).toLocaleLowerCase('vi').replace(/\s+/gu, ' ').trim();
}

const collator = new Intl.Collator('vi', { sensitivity: 'base', numeric: true });

/** Vietnamese alphabetical order (a ă â b c d đ e ê …, "Lớp 2" before "Lớp 10"), for Array.sort. */
export const compareVietnamese = (a: string, b: string): number => collator.compare(a, b);

/** Vietnamese letters with marks (lower case, NFC) and the plain letter each folds to, in the same order. */
export const FOLD_MARKED_LOWER = 'àáạảãâầấậẩẫăằắặẳẵèéẹẻẽêềếệểễìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹđ';
export const FOLD_PLAIN_LOWER = 'aaaaaaaaaaaaaaaaaeeeeeeeeeeeiiiiiooooooooooooooooouuuuuuuuuuuyyyyyd';

/**
 * Lower case, without Vietnamese marks: what an accent-free search compares ("hoa binh" finds
 * "Phường Hoà Bình" and "Phường Hòa Bình"; either tone placement folds alike, as does NFD text).
 * The same mapping as db/fold.ts's foldSql, so a search in SQL and one in the browser agree.
 */
export function foldText(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC').toLowerCase()) {
    const at = FOLD_MARKED_LOWER.indexOf(char);
    out += at >= 0 ? FOLD_PLAIN_LOWER[at] : char;
  }
  return out;
}
