// What every question source (the editor, a spreadsheet row, an Aiken or GIFT file) agrees on:
// how text is normalised, what counts as markup, and when two questions are the same.

/** NFC, every run of white space (non-breaking and zero-width ones too) one space, trimmed. */
export const normaliseText = (text: string) => text.normalize('NFC').replace(/[\s\u00a0\u200b\ufeff]+/gu, ' ').trim();

/**
 * A question's text keeps its line breaks (a poem, a dialogue: typed in the editor or with
 * Alt+Enter in an Excel cell); each line is normalised as `normaliseText`, and blank lines shrink
 * to one between paragraphs.
 */
export const normaliseQuestionText = (text: string) =>
  text
    .normalize('NFC')
    .split(/\r\n|\r|\n|\u2028|\u2029/u)
    .map(normaliseText)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/*
 * Text that looks like markup ("<html class=…>", "a <b> c", "3 < 5") is text, from every source:
 * the editor, a spreadsheet, Aiken, GIFT (issue 23). It is stored as typed and every screen shows
 * it as text: the exam, review and editor screens render `value` as React text nodes (escaped),
 * never as HTML, so what is stored is what a child sees, letter for letter. The one exception is a
 * GIFT field marked [html], which says it is HTML: its tags are dropped and its entities decoded
 * (what Moodle would show).
 */

export const QUESTION_MAX_LENGTH = 1000;
export const ANSWER_MAX_LENGTH = 500;
export const MIN_ANSWERS = 2;
export const MAX_ANSWERS = 4;
export const ANSWER_LETTERS = ['A', 'B', 'C', 'D'] as const;

/** A multiple-choice question read from a file: `row` is its row (spreadsheet) or line (text file). */
export interface ParsedQuestion {
  row: number;
  value: string;
  answers: string[];
  /** Index of the correct answer in `answers`. */
  correct: number;
  /** Something the question had that was not imported (a media file it links to). */
  warning?: string;
}

/** A question a text file holds that is not a one-answer multiple-choice one (an essay, a matching...): left out, with why. */
export interface SkippedQuestion {
  row: number;
  skipped: string;
}

/** What a text file's parser yields, one by one. */
export type ParseItem = ParsedQuestion | ParseProblem | SkippedQuestion;

/** A problem found while reading a text file, before the common checks. */
export interface ParseProblem {
  row: number;
  message: string;
}

/**
 * Two questions are the same when their normalised texts, their answers (in any order: an exam
 * shuffles them) and their correct answer are.
 */
export function questionKey(question: { value: string; answers: readonly string[]; correct: number }): string {
  const answers = question.answers.map(normaliseText);
  return JSON.stringify([normaliseQuestionText(question.value), [...answers].sort(), answers[question.correct] ?? '']);
}

/**
 * A text's lines with their numbers (the first is 1), as `text.split(/\r\n|\r|\n/)` would give
 * them, from the text or its pieces (a server decodes a big file in pieces), never split all at once.
 */
export function* linesOf(text: string | Iterable<string>): Generator<{ line: string; row: number }> {
  const newline = /\r\n|\r|\n/g;
  let carry = '';
  let row = 1;
  for (const piece of typeof text === 'string' ? [text] : text) {
    const chunk = carry + piece;
    let start = 0;
    newline.lastIndex = 0;
    for (let match = newline.exec(chunk); match; match = newline.exec(chunk)) {
      // A "\r" at a piece's very end may be the first half of "\r\n": wait for the next piece.
      if (match[0] === '\r' && match.index === chunk.length - 1) break;
      yield { line: chunk.slice(start, match.index), row: row++ };
      start = match.index + match[0].length;
    }
    carry = chunk.slice(start);
  }
  if (carry.endsWith('\r')) {
    yield { line: carry.slice(0, -1), row: row++ };
    carry = '';
  }
  yield { line: carry, row };
}

export const isParsedQuestion = (item: ParseItem): item is ParsedQuestion => 'value' in item;
export const isSkipped = (item: ParseItem): item is SkippedQuestion => 'skipped' in item;

export interface ParsedText {
  questions: ParsedQuestion[];
  problems: ParseProblem[];
  skipped: SkippedQuestion[];
}

/** Questions, problems and skipped questions apart (the parsers' simple form, for tests and small texts). */
export function splitItems(items: Iterable<ParseItem>): ParsedText {
  const parsed: ParsedText = { questions: [], problems: [], skipped: [] };
  for (const item of items) {
    if (isParsedQuestion(item)) parsed.questions.push(item);
    else if (isSkipped(item)) parsed.skipped.push(item);
    else parsed.problems.push(item);
  }
  return parsed;
}

const MEDIA_LINKS = [
  /@@PLUGINFILE@@\/([^\s"'<>)]+)/i,
  /<(?:audio|img|video|source|embed)\b[^>]*?\bsrc\s*=\s*["']?([^"'\s>]+)/i,
  /([\w%.-]+\.(?:mp3|wav|ogg|oga|m4a|aac|flac|png|jpe?g|gif|webp|svg|bmp|mp4|webm))\b/i,
];

/**
 * The media file (a sound, a picture) a question's text links to, by its name, or undefined. A
 * file holds text only: the file itself is not in it, so the question is imported without it.
 */
export function mediaLinkOf(text: string): string | undefined {
  for (const link of MEDIA_LINKS) {
    const found = link.exec(text)?.[1];
    if (found) return decodeURIComponentSafe(found.split('/').pop()!);
  }
  return undefined;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export const mediaWarning = (name: string) =>
  `câu hỏi có liên kết tệp âm thanh/hình ảnh ${name}, tệp này không được nhập: hãy tải âm thanh lên trong trình sửa câu hỏi`;

/** The warning for a question whose texts (question and answers, as written) link to a media file. */
export function mediaWarningOf(texts: string[]): { warning?: string } {
  for (const text of texts) {
    const name = mediaLinkOf(text);
    if (name) return { warning: mediaWarning(name) };
  }
  return {};
}
