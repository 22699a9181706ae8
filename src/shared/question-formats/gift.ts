// Moodle's GIFT format (https://docs.moodle.org/en/GIFT_format), its multiple-choice subset:
//   // comment
//   ::Title:: Question text {=right answer#feedback ~wrong answer ~%0%another}
// with "missing word" questions (text after the answer set: the set becomes "_____"), the
// [moodle]/[plain]/[markdown]/[html] text formats ([html] turned into plain text), $CATEGORY
// lines (ignored) and the escapes \~ \= \# \{ \} \: \\ \n. Every other question type (true/false,
// short answer, matching, numerical, essay, several right answers) is a problem on its line.
import { linesOf, splitItems, MAX_ANSWERS, MIN_ANSWERS, normaliseText, type ParsedQuestion, type ParseProblem } from './question-text';

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
function fieldText(raw: string, html: boolean): string {
  let text = raw.replace(/\\n/g, ' ').replace(/\\(.)/g, '$1');
  if (html) {
    text = text
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
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

function parseBlock({ row, text }: Block): ParsedQuestion | ParseProblem | undefined {
  let body = text.trim();
  if (/^\$CATEGORY:/i.test(body)) return undefined;
  const problem = (message: string): ParseProblem => ({ row, message });
  // ::Title::
  if (body.startsWith('::')) {
    const end = body.indexOf('::', 2);
    if (end < 0) return problem('tiêu đề "::...::" chưa đóng');
    body = body.slice(end + 2).trim();
  }
  let html = false;
  const format = /^\[(moodle|plain|markdown|html)\]/i.exec(body);
  if (format) {
    html = format[1]!.toLowerCase() === 'html';
    body = body.slice(format[0].length);
  }
  const open = findUnescaped(body, '{');
  if (open < 0) return problem('không có phần đáp án "{...}"');
  const close = findUnescaped(body, '}', open + 1);
  if (close < 0) return problem('phần đáp án "{" chưa đóng bằng "}"');
  if (findUnescaped(body, '{', close + 1) >= 0) return problem('chỉ nhận một phần đáp án "{...}" trong mỗi câu hỏi');
  const before = body.slice(0, open);
  const after = body.slice(close + 1);
  const set = body.slice(open + 1, close).trim();
  const value = fieldText(after.trim() ? `${before} _____ ${after}` : before, html);
  if (!value) return problem('câu hỏi không có nội dung');

  if (set === '') return problem('câu hỏi tự luận (essay) không được hỗ trợ: chỉ nhận câu hỏi trắc nghiệm');
  if (/^(T|F|TRUE|FALSE)\s*(#|$)/i.test(set)) return problem('câu hỏi đúng/sai (true/false) không được hỗ trợ: hãy viết thành câu trắc nghiệm có 2 đáp án');
  if (set.startsWith('#')) return problem('câu hỏi dạng số (numerical) không được hỗ trợ: chỉ nhận câu hỏi trắc nghiệm');
  const parts = splitAnswers(set);
  if (!parts || parts.length === 0) return problem('phần đáp án phải gồm các đáp án bắt đầu bằng "=" (đúng) hoặc "~" (sai)');
  if (parts.some((part) => /(^|[^\\])->/.test(part.raw))) {
    return problem('câu hỏi ghép cặp (matching) không được hỗ trợ: chỉ nhận câu hỏi trắc nghiệm');
  }
  if (parts.every((part) => part.mark === '=')) return problem('câu hỏi trả lời ngắn (short answer) không được hỗ trợ: cần các đáp án sai bắt đầu bằng "~"');

  const answers: string[] = [];
  let correct = -1;
  for (const part of parts) {
    let raw = part.raw;
    // General feedback "####..." and per-answer feedback "#..." are dropped.
    const feedback = findUnescaped(raw, '#');
    if (feedback >= 0) raw = raw.slice(0, feedback);
    const weight = /^\s*%(-?\d+(?:\.\d+)?)%/.exec(raw);
    let right = part.mark === '=';
    if (weight) {
      const percent = Number(weight[1]);
      if (percent !== 0 && percent !== 100) return problem('đáp án có điểm từng phần (%...%) không được hỗ trợ: chỉ nhận một đáp án đúng');
      right = right || percent === 100;
      raw = raw.slice(weight[0].length);
    }
    const answer = fieldText(raw, html);
    if (!answer) return problem('có đáp án để trống');
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
  return { row, value, answers, correct };
}

/** The file's questions and problems one by one, in order (a caller may stop or pause between them). */
export function* giftItems(text: string | Iterable<string>): Generator<ParsedQuestion | ParseProblem> {
  for (const block of blocksOf(text)) {
    const parsed = parseBlock(block);
    if (parsed) yield parsed;
  }
}

export function parseGift(text: string): { questions: ParsedQuestion[]; problems: ParseProblem[] } {
  return splitItems(giftItems(text));
}
