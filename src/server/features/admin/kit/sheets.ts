// Tabular imports (.xlsx or UTF-8 .csv): the file read into rows of trimmed text, each with its
// spreadsheet row number, after the header is checked against the template's columns. One rule
// for every import (issue 12): every row is checked, problems are reported with their row and
// column (the first MAX_LISTED_PROBLEMS of them, with the total), and nothing is stored unless
// there is none. Files come from strangers (issue 21): both kinds are read as streams, the row
// cap stops the read at the first row past it, and the event loop gets control between slices.
// The routes call readTable through file-reader.ts, which runs it in a worker thread.
import { Readable } from 'node:stream';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { parse as parseCsv } from 'csv-parse';
import { columnTitlesOf, headerKey, importMessages, MAX_IMPORT_ROWS, MAX_LISTED_PROBLEMS, optionalColumns, templateColumns, type RowProblem, type TemplateKind } from '../../../../shared/schemas/admin';
import { normaliseQuestionText } from '../../../../shared/question-formats/question-text';
import { appError, AppError } from '../../../lib/errors';
import { readFirstSheet, XlsxLimitError, type XlsxValue } from '../../../lib/xlsx-reader';
import { isTotalRow } from '../../../../shared/total-row';
import { fileKindOf, utf8Pieces, type Upload } from './uploads';

export interface SheetRow {
  /** The spreadsheet's own row number: the header is 1, the first data row 2. */
  row: number;
  /** One trimmed text per template column ('' when empty). */
  cells: string[];
}

/** Rows (empty ones included) past which a file is refused even when most of them are empty. */
const MAX_SHEET_ROWS = 5 * MAX_IMPORT_ROWS;
/** Rows handled between two returns to the event loop. */
const SLICE_ROWS = 500;

/**
 * For a loop over a whole file's rows on the main thread (the checks that need the database):
 * `await breathe()` in the loop returns to the event loop every SLICE_ROWS rows, so that exam
 * saves of the same process never wait behind the loop for more than a few milliseconds.
 */
export function breather(): () => Promise<void> {
  let calls = 0;
  return async () => {
    if (++calls % SLICE_ROWS === 0) await yieldToEventLoop();
  };
}

/** `items` in consecutive parts of at most `size` (batched statements, slices of work). */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const refuse = (message: string, errors: RowProblem[] = [], extra?: Record<string, unknown>) =>
  appError('import_invalid', message, errors, extra);

/**
 * A cell as text: numbers without exponent or float noise, dates as dd/mm/yyyy, formulas as their
 * values; one line, unless `multiline` (a question's text keeps its Alt+Enter line breaks).
 */
function cellText(value: XlsxValue | string | undefined, multiline = false): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
  if (value instanceof Date) return value.toISOString().slice(0, 10).split('-').reverse().join('/');
  if (multiline) return normaliseQuestionText(String(value));
  // White space runs (incl. non-breaking spaces pasted from the web) become one space; NFC so that
  // text typed on different keyboards compares equal.
  return String(value).normalize('NFC').replace(/[\s\u00a0\u200b\ufeff]+/g, ' ').trim();
}

type RawRow = { row: number; values: (XlsxValue | string | undefined)[] };

async function* xlsxRows(bytes: Buffer): AsyncGenerator<RawRow> {
  try {
    yield* readFirstSheet(bytes);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse(error instanceof XlsxLimitError ? importMessages.inflatedTooLarge : importMessages.unreadable);
  }
}

async function* csvRows(bytes: Buffer): AsyncGenerator<RawRow> {
  // Decoded as it is parsed, in small pieces: a file refused at row 20,001 is not decoded further,
  // and csv-parse's work on one piece (16 KB, about 800 rows) is a short slice of the event loop.
  const pieces = utf8Pieces(bytes, 16 * 1024);
  const first = await pieces.next();
  const head = first.done ? '' : first.value;
  // Excel saves ";"-separated CSV where the decimal separator is a comma (Vietnamese Windows).
  const firstLine = head.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const parser = parseCsv({ delimiter, relax_column_count: true, bom: true, skip_empty_lines: false, max_record_size: 1024 * 1024 });
  const source = Readable.from(
    (async function* () {
      yield head;
      yield* pieces;
    })(),
  );
  // A piece that is not UTF-8 fails the source: the parser fails with it (pipe alone would hang).
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield { row: ++row, values: record };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse(importMessages.unreadable);
  } finally {
    source.unpipe(parser);
    source.destroy();
    parser.destroy();
  }
}

function rawRows(upload: Upload, accepted: string): AsyncGenerator<RawRow> {
  const kind = fileKindOf(upload);
  if (kind === 'xlsx') return xlsxRows(upload.bytes);
  if (kind === 'csv') return csvRows(upload.bytes);
  throw refuse(importMessages.unsupported(accepted));
}

/**
 * Where each template column is in the file, from its header: columns in any order, under their
 * template title or a synonym (columnTitlesOf), any case and accents. A column the template does
 * not know, a repeated one or a missing one refuses the file, each named. Empty header cells (and
 * what is under them) are ignored.
 */
function columnIndexes(header: RawRow['values'], kind: TemplateKind): number[] {
  const columns = templateColumns[kind];
  const optional = optionalColumns[kind] ?? [];
  const titles = columnTitlesOf(kind);
  const at = new Map<string, { index: number; found: string }>();
  const problems: RowProblem[] = [];
  header.forEach((value, index) => {
    const found = cellText(value);
    if (!found) return;
    const column = titles.get(headerKey(found));
    if (!column) problems.push({ row: 1, column: found, message: importMessages.unknownColumn(found, columns) });
    else if (at.has(column)) problems.push({ row: 1, column: found, message: importMessages.repeatedColumn(found, at.get(column)!.found) });
    else at.set(column, { index, found });
  });
  for (const column of columns) {
    if (!at.has(column) && !optional.includes(column)) problems.push({ row: 1, column, message: importMessages.missingColumn(column) });
  }
  if (problems.length > 0) throw refuse(importMessages.wrongColumns(columns), problems);
  // A missing optional column reads as empty cells.
  return columns.map((column) => at.get(column)?.index ?? -1);
}

/** A table as read: its data rows, and the number of its last row when it was a total line, skipped. */
export interface TableRead {
  rows: SheetRow[];
  totalRow?: number;
}

/**
 * The data rows of a tabular import of `kind`, their cells in the template's column order,
 * whatever the file's (columnIndexes). Empty rows are skipped but keep their numbers, and so is a
 * last row that is the sheet's total ("Tổng cộng" and numbers: isTotalRow). 422 for a
 * wrong header, no data rows, too many rows (as soon as the first one past the cap is read), an
 * unreadable file or one that inflates past the limits.
 */
export async function readTable(
  upload: Upload,
  kind: TemplateKind,
  accepted = '.xlsx hoặc .csv (UTF-8)',
  /** The columns (by template index) whose cells keep their line breaks. */
  multiline: readonly number[] = [],
): Promise<TableRead> {
  const data: SheetRow[] = [];
  let indexes: number[] | undefined;
  let seen = 0;
  for await (const { row, values } of rawRows(upload, accepted)) {
    if (!indexes) {
      // The header is row 1; a sheet starting lower has an empty one.
      indexes = columnIndexes(row === 1 ? values : [], kind);
      if (row === 1) continue;
    }
    if (row > MAX_SHEET_ROWS) throw refuse(importMessages.tooManyRows(MAX_IMPORT_ROWS));
    if (++seen % SLICE_ROWS === 0) await yieldToEventLoop();
    const cells = indexes.map((index, c) => (index < 0 ? '' : cellText(values[index], multiline.includes(c))));
    if (cells.every((cell) => cell === '')) continue;
    data.push({ row, cells });
    if (data.length > MAX_IMPORT_ROWS) throw refuse(importMessages.tooManyRows(MAX_IMPORT_ROWS));
  }
  if (!indexes) columnIndexes([], kind);
  const totalRow = data.length > 0 && isTotalRow(data.at(-1)!.cells) ? data.pop()!.row : undefined;
  if (data.length === 0) throw refuse(importMessages.empty);
  return { rows: data, totalRow };
}

export interface ProblemsState {
  list: RowProblem[];
  count: number;
  all: boolean;
}

/**
 * Collects an import's problems; `throwIfAny` refuses the whole file with the first
 * MAX_LISTED_PROBLEMS of them (by row) and their total, so that a file of 200,000 mistakes
 * answers a short list, not 20 MB. Memory stays bounded too: the list is cut as it grows, unless
 * `all` (the full list of errors as an .xlsx, imports.ts: bounded by the rows and columns of a file).
 */
export class ImportProblems {
  private list: RowProblem[] = [];
  /** Every problem added, listed or not. */
  count = 0;
  constructor(private readonly all = false) {}
  /** What a worker thread found, to be carried on by the main thread (file-reader.ts). */
  static from(state: ProblemsState): ImportProblems {
    const problems = new ImportProblems(state.all);
    problems.list = state.list;
    problems.count = state.count;
    return problems;
  }
  state(): ProblemsState {
    return { list: this.list, count: this.count, all: this.all };
  }
  add(row: number, column: string, message: string): void {
    this.count++;
    this.list.push({ row, column, message: `Dòng ${row}, cột ${column}: ${message}` });
    if (!this.all && this.list.length >= 4 * MAX_LISTED_PROBLEMS) this.keepFirst();
  }
  /** The first problems by row (stable: problems of one row keep their order). */
  private keepFirst(): RowProblem[] {
    this.list.sort((a, b) => a.row - b.row);
    this.list.length = Math.min(this.list.length, MAX_LISTED_PROBLEMS);
    return this.list;
  }
  /** Every problem by row, each as "Cột X: what is wrong" (only complete when made with `all`). */
  everyProblem(): { row: number; text: string }[] {
    return [...this.list]
      .sort((a, b) => a.row - b.row)
      .map(({ row, column, message }) => ({ row, text: `Cột ${column}: ${message.slice(`Dòng ${row}, cột ${column}: `.length)}` }));
  }
  /** Reports rows whose `key` repeats an earlier row of the file ("trùng với dòng 3"). */
  async duplicates(rows: { row: number; key: string }[], column: string): Promise<void> {
    const seen = new Map<string, number>();
    const breathe = breather();
    for (const { row, key } of rows) {
      await breathe();
      const first = seen.get(key);
      if (first === undefined) seen.set(key, row);
      else this.add(row, column, importMessages.duplicateRow(first));
    }
  }
  throwIfAny(): void {
    if (this.count === 0) return;
    const listed = this.firstListed();
    const message = this.count > listed.length ? `${importMessages.hasProblems(this.count)} ${importMessages.moreProblems(listed.length, this.count)}` : importMessages.hasProblems(this.count);
    throw refuse(message, listed, { errors_total: this.count });
  }
  /** The first MAX_LISTED_PROBLEMS by row; a full list (`all`) is left whole. */
  private firstListed(): RowProblem[] {
    if (!this.all) return [...this.keepFirst()];
    return [...this.list].sort((a, b) => a.row - b.row).slice(0, MAX_LISTED_PROBLEMS);
  }
}
