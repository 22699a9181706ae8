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

/**
 * An HTML tag or comment ("<b>", "</p>", "<script ...>", "<!--"). Questions are plain text
 * (the exam screens render them as text), so markup is refused rather than stored: it would show
 * as literal tags to a child. "3 < 5" and "a<b" are not tags.
 */
const TAG = /<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>|<!--/i;
export const hasMarkup = (text: string) => TAG.test(text);

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
}

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

export const isParsedQuestion = (item: ParsedQuestion | ParseProblem): item is ParsedQuestion => 'value' in item;

/** Questions and problems apart (the parsers' simple form, for tests and small texts). */
export function splitItems(items: Iterable<ParsedQuestion | ParseProblem>): { questions: ParsedQuestion[]; problems: ParseProblem[] } {
  const questions: ParsedQuestion[] = [];
  const problems: ParseProblem[] = [];
  for (const item of items) {
    if (isParsedQuestion(item)) questions.push(item);
    else problems.push(item);
  }
  return { questions, problems };
}
