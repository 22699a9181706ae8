// A question bank's file as the import reads it (the main thread's side): readQuestionFile
// (question-file.ts) run in a worker thread of its own (question-file-worker.ts) by the kit's
// file reader.
import { templateColumns } from '../../../../shared/schemas/admin';
import type { ParsedQuestion } from '../../../../shared/question-formats/question-text';
import { readInWorker, type FileReader } from '../kit/file-reader';
import { ImportProblems, type ProblemsState } from '../kit/sheets';
import type { QuestionFile } from './question-file';

const WORKER_URL = new URL('./question-file-worker.mjs', import.meta.url);

/** A question bank (.xlsx, .csv, GIFT or Aiken). */
export const questionFile: FileReader<Omit<QuestionFile, 'problems' | 'table'>> = async (upload, limits) => {
  const { items, done } = await readInWorker(WORKER_URL, upload, { allProblems: limits.allProblems ?? false }, limits);
  const { problems, table, ...rest } = done as Omit<QuestionFile, 'questions' | 'problems'> & { problems: ProblemsState };
  const tableRows = table ? { columns: templateColumns.questions, rows: table } : undefined;
  return { file: { ...rest, questions: items as ParsedQuestion[] }, rows: rest.rows, problems: ImportProblems.from(problems), table: tableRows, totalRow: rest.totalRow };
};
