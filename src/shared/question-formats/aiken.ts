// Moodle's Aiken format (https://docs.moodle.org/en/Aiken_format): a question line, its answers
// "A. ..." or "A) ..." in order, then "ANSWER: X". Like Moodle, a question may take several lines
// before its first answer. Rows are line numbers (the first line is 1). Aiken is plain text
// (Moodle escapes it): "<b>" in a question is the three characters, kept as typed.
import { linesOf, MAX_ANSWERS, MIN_ANSWERS, mediaWarningOf, normaliseText, splitItems, type ParseItem, type ParsedText, type ParseProblem } from './question-text';

/** Moodle's own rule (question/format/aiken/format.php, /^[A-Z][).][ \t]?/): the space after "A)" is optional. */
const ANSWER_LINE = /^([A-Z])[.)] ?(.*)$/;
const KEY_LINE = /^ANSWER\s*:\s*(.*)$/i;

/** True when the text looks like Aiken: some line is "ANSWER: X" and there is no GIFT answer set. */
export const looksLikeAiken = (text: string) => /^\s*ANSWER\s*:\s*[A-Z]\s*$/im.test(text) && !/[^\\]\{|^\{/m.test(text);

/** The file's questions and problems one by one, in order (a caller may stop or pause between them). */
export function* aikenItems(text: string | Iterable<string>): Generator<ParseItem> {
  let current: { row: number; lines: string[]; answers: { letter: string; value: string }[] } | undefined;

  const unfinished = (): ParseProblem | undefined => {
    const problem = current ? { row: current.row, message: 'câu hỏi thiếu dòng "ANSWER: <chữ cái của đáp án đúng>"' } : undefined;
    current = undefined;
    return problem;
  };

  for (const { line: raw, row } of linesOf(text)) {
    const line = normaliseText(raw);
    if (line === '') continue;
    const key = KEY_LINE.exec(line);
    if (key) {
      if (!current) {
        yield { row, message: 'dòng ANSWER không thuộc câu hỏi nào' };
        continue;
      }
      const letter = key[1]!.trim().toUpperCase();
      const correct = current.answers.findIndex((answer) => answer.letter === letter);
      if (current.answers.length < MIN_ANSWERS || current.answers.length > MAX_ANSWERS) {
        yield { row: current.row, message: `câu hỏi phải có từ ${MIN_ANSWERS} đến ${MAX_ANSWERS} đáp án (có ${current.answers.length})` };
      } else if (correct < 0) {
        yield { row, message: `đáp án đúng "${key[1]}" không phải là một trong các đáp án ${current.answers.map((a) => a.letter).join(', ')}` };
      } else {
        const value = current.lines.join(' ');
        const answers = current.answers.map((a) => a.value);
        yield { row: current.row, value, answers, correct, ...mediaWarningOf([value, ...answers]) };
      }
      current = undefined;
      continue;
    }
    const answer = current ? ANSWER_LINE.exec(line) : null;
    if (current && answer) {
      const expected = String.fromCharCode(65 + current.answers.length);
      if (answer[2] === '') yield { row, message: `đáp án ${answer[1]} để trống` };
      else if (answer[1] !== expected) yield { row, message: `đáp án phải đánh thứ tự A, B, C, D: dòng này là "${answer[1]}", cần "${expected}"` };
      current.answers.push({ letter: answer[1]!, value: answer[2]! });
      continue;
    }
    if (current && current.answers.length > 0) {
      const problem = unfinished();
      if (problem) yield problem;
    }
    if (current) current.lines.push(line);
    else current = { row, lines: [line], answers: [] };
  }
  const problem = unfinished();
  if (problem) yield problem;
}

export function parseAiken(text: string): ParsedText {
  return splitItems(aikenItems(text));
}
