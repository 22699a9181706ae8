// Reading a question file into questions, with every problem by row and column: the template
// (.xlsx or UTF-8 .csv: Câu hỏi, Đáp án A-D, Đáp án đúng) or Moodle's Aiken and GIFT text
// formats (.txt, told apart by their content). Nothing here touches the database. A text file is
// read question by question with returns to the event loop, and refused past MAX_IMPORT_ROWS
// questions (issue 21): a 10 MB file must not hold the process that also serves exam saves.
// The route calls readQuestionFile through question-file-reader.ts, in a worker thread (question-file-worker.ts).
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { importMessages, MAX_IMPORT_ROWS, templateColumns } from '../../../../shared/schemas/admin';
import { booksMessages } from '../../../../shared/schemas/admin-books';
import { aikenItems, looksLikeAiken } from '../../../../shared/question-formats/aiken';
import { giftItems, looksLikeGift } from '../../../../shared/question-formats/gift';
import {
  ANSWER_LETTERS,
  ANSWER_MAX_LENGTH,
  isParsedQuestion,
  isSkipped,
  MAX_ANSWERS,
  MIN_ANSWERS,
  normaliseQuestionText,
  normaliseText,
  QUESTION_MAX_LENGTH,
  questionKey,
  type ParsedQuestion,
} from '../../../../shared/question-formats/question-text';
import { appError } from '../../../lib/errors';
import { ImportProblems, readTable, type SheetRow } from '../kit/sheets';
import { decodeUtf8, fileKindOf, type Upload } from '../kit/uploads';

export const QUESTION_FILES = '.xlsx, .csv (UTF-8) hoặc .txt (Aiken, GIFT)';

export interface QuestionFile {
  format: 'xlsx' | 'csv' | 'aiken' | 'gift';
  /** Rows (or text questions) read, good or not. */
  rows: number;
  questions: ParsedQuestion[];
  problems: ImportProblems;
  /** A text file's questions of other types, left out (the first MAX_LISTED of them, by row), and how many. */
  skipped: RowNote[];
  skippedTotal: number;
  /** What imported questions lost (a media link), the first MAX_LISTED, and how many. */
  warnings: RowNote[];
  warningsTotal: number;
  /** A spreadsheet's rows, when every problem is kept and there are some (the full list of errors). */
  table?: SheetRow[];
  /** A spreadsheet's last row when it was a total line, skipped (sheets.ts). */
  totalRow?: number;
}

export interface RowNote {
  row: number;
  message: string;
}

/** Skipped questions and warnings listed in a preview: the rest are counted. */
const MAX_LISTED = 200;

const [QUESTION, ...ANSWER_AND_KEY] = templateColumns.questions;
const ANSWER_COLUMNS = ANSWER_AND_KEY.slice(0, 4);
const KEY_COLUMN = ANSWER_AND_KEY[4]!;

/**
 * The template's rows as questions: answers A and B are needed, C and D optional (MIN_ANSWERS to
 * MAX_ANSWERS, the rule of every source), filled from A on without a gap, and the key names one of them.
 */
function readRows(rows: { row: number; cells: string[] }[], problems: ImportProblems): ParsedQuestion[] {
  const questions: ParsedQuestion[] = [];
  for (const { row, cells } of rows) {
    const [value = '', ...rest] = cells;
    const cellsOfAnswers = rest.slice(0, MAX_ANSWERS);
    const key = (rest[MAX_ANSWERS] ?? '').toUpperCase();
    const before = problems.count;
    if (!value) problems.add(row, QUESTION!, importMessages.required);
    const count = cellsOfAnswers.findLastIndex((answer) => answer !== '') + 1;
    cellsOfAnswers.forEach((answer, i) => {
      if (answer) return;
      if (i < MIN_ANSWERS) problems.add(row, ANSWER_COLUMNS[i]!, `không được để trống (mỗi câu hỏi có từ ${MIN_ANSWERS} đến ${MAX_ANSWERS} đáp án)`);
      else if (i < count) problems.add(row, ANSWER_COLUMNS[i]!, `để trống giữa các đáp án: hãy điền các đáp án liền nhau từ ${ANSWER_LETTERS[0]}`);
    });
    const letters = ANSWER_LETTERS.slice(0, Math.max(count, MIN_ANSWERS));
    const correct = (letters as readonly string[]).indexOf(key);
    if (correct < 0) problems.add(row, KEY_COLUMN, `phải là ${letters.slice(0, -1).join(', ')} hoặc ${letters.at(-1)} (một đáp án đã điền)`);
    if (problems.count === before) questions.push({ row, value, answers: cellsOfAnswers.slice(0, count), correct });
  }
  return questions;
}

/** Items handled between two returns to the event loop. */
const SLICE = 500;

/**
 * The checks every source shares: lengths, answers repeated inside a question. Text that looks like
 * markup is text (question-text.ts).
 */
async function checkQuestions(questions: ParsedQuestion[], problems: ImportProblems, columnOf: (answer: number | 'question') => string) {
  const good: ParsedQuestion[] = [];
  for (const [index, question] of questions.entries()) {
    if (index % SLICE === SLICE - 1) await yieldToEventLoop();
    const before = problems.count;
    const value = normaliseQuestionText(question.value);
    if (value.length > QUESTION_MAX_LENGTH) problems.add(question.row, columnOf('question'), `dài quá ${QUESTION_MAX_LENGTH} ký tự`);
    const answers = question.answers.map(normaliseText);
    answers.forEach((answer, i) => {
      if (answer.length > ANSWER_MAX_LENGTH) problems.add(question.row, columnOf(i), `dài quá ${ANSWER_MAX_LENGTH} ký tự`);
      const first = answers.indexOf(answer);
      if (first < i) problems.add(question.row, columnOf(i), `trùng với đáp án ${ANSWER_LETTERS[first]}`);
    });
    if (problems.count === before) good.push({ ...question, value, answers });
  }
  await problems.duplicates(good.map((q) => ({ row: q.row, key: questionKey(q) })), columnOf('question'));
  return good;
}

export async function readQuestionFile(upload: Upload, { allProblems = false } = {}): Promise<QuestionFile> {
  const problems = new ImportProblems(allProblems);
  const kind = fileKindOf(upload);
  if (kind === 'txt') {
    const text = await decodeUtf8(upload.bytes);
    // Pieces end at line breaks, and neither format's mark spans one.
    const format = text.some(looksLikeGift) ? 'gift' : text.some(looksLikeAiken) ? 'aiken' : undefined;
    if (!format) throw appError('import_invalid', booksMessages.unknownTextFormat, []);
    const column = format === 'gift' ? 'GIFT' : 'Aiken';
    const parsed: ParsedQuestion[] = [];
    const skipped: RowNote[] = [];
    let skippedTotal = 0;
    let items = 0;
    let lastRow = 0;
    for (const item of format === 'gift' ? giftItems(text) : aikenItems(text)) {
      // A question's several problems (its text's and its answers') count once.
      if (item.row !== lastRow) items++;
      lastRow = item.row;
      if (items > MAX_IMPORT_ROWS) throw appError('import_invalid', importMessages.tooManyQuestions(MAX_IMPORT_ROWS), []);
      if (items % SLICE === 0) await yieldToEventLoop();
      if (isParsedQuestion(item)) parsed.push(item);
      else if (isSkipped(item)) {
        if (++skippedTotal <= MAX_LISTED) skipped.push({ row: item.row, message: item.skipped });
      } else problems.add(item.row, column, item.message);
    }
    if (items === 0) throw appError('import_invalid', booksMessages.emptyText, []);
    const questions = await checkQuestions(parsed, problems, () => column);
    const warned = questions.filter((q) => q.warning);
    const warnings = warned.slice(0, MAX_LISTED).map((q) => ({ row: q.row, message: q.warning! }));
    return { format, rows: items, questions, problems, skipped, skippedTotal, warnings, warningsTotal: warned.length };
  }
  // The question's cell (the first) keeps its line breaks (a poem); the answers are one line.
  const { rows, totalRow } = await readTable(upload, 'questions', QUESTION_FILES, [0]);
  const questions = await checkQuestions(readRows(rows, problems), problems, (answer) => (answer === 'question' ? QUESTION! : ANSWER_COLUMNS[answer]!));
  // The rows themselves only for the full list of errors (beside their problems).
  const table = allProblems && problems.count > 0 ? rows : undefined;
  return { format: kind === 'csv' ? 'csv' : 'xlsx', rows: rows.length, questions, problems, skipped: [], skippedTotal: 0, warnings: [], warningsTotal: 0, table, totalRow };
}
