// Moodle's GIFT format (https://docs.moodle.org/en/GIFT_format), its multiple-choice subset:
//   // comment
//   ::Title:: Question text {=right answer#feedback ~wrong answer ~%0%another}
// with "missing word" questions (text after the answer set: the set becomes "_____"), the
// [moodle]/[plain]/[markdown]/[html] text formats of the question and of each answer (an answer
// takes the question's unless it has its own; only [html] is read as HTML, see question-text.ts), $CATEGORY
// lines (ignored) and the escapes \~ \= \# \{ \} \: \\ \n. Like Moodle, a file mixing question
// types is read: the other types (essay, true/false, short answer, matching, numerical, a
// description, a multiple-response question with partial-credit weights such as %50%) are
// skipped, each with why; several right answers without weights are a problem.
// A link to a media file (a sound, a picture) is not imported: the question is, with a warning.
import {
  linesOf,
  MAX_ANSWERS,
  MIN_ANSWERS,
  mediaWarningOf,
  normaliseText,
  splitItems,
  type ParsedText,
  type ParseItem,
  type ParseProblem,
} from './question-text';

type TextFormat = 'moodle' | 'plain' | 'markdown' | 'html';

/** A field's own [format] marker, or the one it inherits. */
function withFormat(raw: string, inherited: TextFormat): { format: TextFormat; raw: string } {
  const marker = /^\s*\[(moodle|plain|markdown|html)\]/i.exec(raw);
  return marker ? { format: marker[1]!.toLowerCase() as TextFormat, raw: raw.slice(marker[0].length) } : { format: inherited, raw };
}

/** Media elements, dropped from HTML-ish text (their file is not in a text file: a warning says so). */
const MEDIA_ELEMENT = /<(audio|video)\b[^>]*>[\s\S]*?<\/\1\s*>|<(?:audio|video|img|source|embed)\b[^>]*>/gi;

/** True when the text has a GIFT answer set (an unescaped "{"). */
export const looksLikeGift = (text: string) => /(^|[^\\])\{/.test(text);

/** Index of the first unescaped `char` from `start`, or -1. */
function findUnescaped(text: string, char: string, start = 0): number {
  for (let i = start; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === char) return i;
  }
  return -1;
}

/** The text of a GIFT field: escapes resolved, [html] markup dropped, white space normalised. */
function fieldText(raw: string, format: TextFormat): string {
  let text = raw.replace(/\\n/g, ' ').replace(/\\(.)/g, '$1');
  if (format !== 'plain') text = text.replace(MEDIA_ELEMENT, ' ');
  if (format === 'html') {
    text = text
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
      // A block (a paragraph, a line break, a cell) parts words; an inline tag ("<b>sky</b>?") does not.
      .replace(/<\/?(p|div|br|hr|li|ul|ol|tr|td|th|table|h[1-6]|blockquote|pre)\b[^>]*>/gi, ' ')
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;|&apos;/g, "'")
      .replace(/&amp;/g, '&');
  }
  return normaliseText(text);
}

/** Splits an answer set into its answers: each starts at an unescaped "=" or "~". */
function splitAnswers(set: string): { mark: '=' | '~'; raw: string }[] | undefined {
  const answers: { mark: '=' | '~'; raw: string }[] = [];
  let start = -1;
  for (let i = 0; i <= set.length; i++) {
    const char = set[i];
    if (char === '\\') {
      i++;
      continue;
    }
    if (i === set.length || char === '=' || char === '~') {
      if (start >= 0) answers.push({ mark: set[start] as '=' | '~', raw: set.slice(start + 1, i) });
      else if (set.slice(0, i).trim() !== '') return undefined; // text before the first answer
      start = i;
    }
  }
  return answers;
}

interface Block {
  row: number;
  text: string;
}

/** Questions are separated by blank lines; comment lines are dropped (keeping line numbers). */
function* blocksOf(text: string | Iterable<string>): Generator<Block> {
  let current: Block | undefined;
  for (const { line, row } of linesOf(text)) {
    if (/^\s*\/\//.test(line)) continue;
    if (line.trim() === '') {
      if (current) yield current;
      current = undefined;
      continue;
    }
    if (current) current.text += `\n${line}`;
    else current = { row, text: line };
  }
  if (current) yield current;
}

/** An answer's weight, "%50%" or "%-100%", before its text. */
const WEIGHT = /^\s*%(-?\d+(?:\.\d+)?)%/;

/** Whether an answer carries a weight other than 0 % or 100 % (Moodle's partial credit, or a penalty). */
const hasPartialCredit = (raw: string) => {
  const weight = WEIGHT.exec(raw);
  return weight !== null && Number(weight[1]) !== 0 && Number(weight[1]) !== 100;
};

function parseBlock({ row, text }: Block): ParseItem | ParseProblem[] | undefined {
  let body = text.trim();
  if (/^\$CATEGORY:/i.test(body)) return undefined;
  const problem = (message: string): ParseProblem => ({ row, message });
  // ::Title::
  if (body.startsWith('::')) {
    const end = body.indexOf('::', 2);
    if (end < 0) return problem('tiêu đề "::...::" chưa đóng');
    body = body.slice(end + 2).trim();
  }
  const { format, raw: rest } = withFormat(body, 'moodle');
  body = rest;
  const skip = (skipped: string) => ({ row, skipped });
  const open = findUnescaped(body, '{');
  if (open < 0) return skip('đoạn mô tả (description), không có phần đáp án "{...}"');
  const close = findUnescaped(body, '}', open + 1);
  if (close < 0) return problem('phần đáp án "{" chưa đóng bằng "}"');
  if (findUnescaped(body, '{', close + 1) >= 0) return problem('chỉ nhận một phần đáp án "{...}" trong mỗi câu hỏi');
  const before = body.slice(0, open);
  const after = body.slice(close + 1);
  const set = body.slice(open + 1, close).trim();
  const rawValue = after.trim() ? `${before} _____ ${after}` : before;
  const value = fieldText(rawValue, format);
  if (!value) return problem('câu hỏi không có nội dung');

  if (set === '') return skip('câu hỏi tự luận (essay), không phải trắc nghiệm');
  if (/^(T|F|TRUE|FALSE)\s*(#|$)/i.test(set)) return skip('câu hỏi đúng/sai (true/false), không phải trắc nghiệm: có thể viết lại thành câu trắc nghiệm có 2 đáp án');
  if (set.startsWith('#')) return skip('câu hỏi dạng số (numerical), không phải trắc nghiệm');
  const parts = splitAnswers(set);
  if (!parts || parts.length === 0) return problem('phần đáp án phải gồm các đáp án bắt đầu bằng "=" (đúng) hoặc "~" (sai)');
  if (parts.some((part) => /(^|[^\\])->/.test(part.raw))) return skip('câu hỏi ghép cặp (matching), không phải trắc nghiệm');
  if (parts.every((part) => part.mark === '=')) return skip('câu hỏi trả lời ngắn (short answer), không phải trắc nghiệm: không có đáp án sai "~"');
  if (parts.some((part) => hasPartialCredit(part.raw))) {
    return skip('câu hỏi nhiều đáp án đúng có điểm từng phần (multiple response, %50%...), không phải trắc nghiệm một đáp án đúng');
  }

  const rawTexts = [rawValue];
  const answers: string[] = [];
  let correct = -1;
  for (const part of parts) {
    let raw = part.raw;
    // General feedback "####..." and per-answer feedback "#..." are dropped.
    const feedback = findUnescaped(raw, '#');
    if (feedback >= 0) raw = raw.slice(0, feedback);
    const weight = WEIGHT.exec(raw);
    let right = part.mark === '=';
    if (weight) {
      // 0 or 100 here: any other weight is partial credit, skipped above.
      right = right || Number(weight[1]) === 100;
      raw = raw.slice(weight[0].length);
    }
    const field = withFormat(raw, format);
    const answer = fieldText(field.raw, field.format);
    if (!answer) return problem('có đáp án để trống');
    rawTexts.push(field.raw);
    if (right) {
      if (correct >= 0) return problem('câu hỏi có nhiều hơn một đáp án đúng: chỉ nhận đúng một đáp án "="');
      correct = answers.length;
    }
    answers.push(answer);
  }
  if (correct < 0) return problem('câu hỏi không có đáp án đúng (bắt đầu bằng "=")');
  if (answers.length < MIN_ANSWERS || answers.length > MAX_ANSWERS) {
    return problem(`câu hỏi phải có từ ${MIN_ANSWERS} đến ${MAX_ANSWERS} đáp án (có ${answers.length})`);
  }
  return { row, value, answers, correct, ...mediaWarningOf(rawTexts) };
}

/** The file's questions and problems one by one, in order (a caller may stop or pause between them). */
export function* giftItems(text: string | Iterable<string>): Generator<ParseItem> {
  for (const block of blocksOf(text)) {
    const parsed = parseBlock(block);
    if (Array.isArray(parsed)) yield* parsed;
    else if (parsed) yield parsed;
  }
}

export function parseGift(text: string): ParsedText {
  return splitItems(giftItems(text));
}
