// A spreadsheet's total line ("Tổng cộng | | | 12.450"), which offices add under a list: its first
// filled cell says "Tổng cộng", "Tổng" or "Cộng" (a ":" after it or not, any case) and every
// other cell is empty or a number. An import skips such a last row instead of reading it as a record.

const TOTAL_LABEL = /^(?:tổng cộng|tổng|cộng)\s*:?$/u;
const NUMBER = /^[-+]?\d[\d.,\s]*$/u;

/** Whether the row's cells (trimmed text, '' when empty) are a total line. */
export function isTotalRow(cells: readonly string[]): boolean {
  const [label, ...rest] = cells.filter((cell) => cell !== '');
  return label !== undefined && TOTAL_LABEL.test(label.normalize('NFC').toLocaleLowerCase('vi')) && rest.every((cell) => NUMBER.test(cell));
}
