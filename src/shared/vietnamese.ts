// Vietnamese text as people type it: two tone-mark placements in common use, accents that are
// sometimes left out, and an alphabet whose order is not the code points'. One place for the rules
// that decide when two names are the same name and how a list is sorted (an accent-free search is
// db/fold.ts, the same in SQL and in JavaScript).

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
