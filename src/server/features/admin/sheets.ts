// Tabular imports (.xlsx or UTF-8 .csv): the file read into rows of trimmed text, each with its
// spreadsheet row number, after the header is checked against the template's columns. One rule
// for every import (issue 12): every row is checked, every problem is reported with its row and
// column, and nothing is stored unless there is none.
import { readSheet } from 'read-excel-file/node';
import { parse as parseCsv } from 'csv-parse/sync';
import { importMessages, MAX_IMPORT_ROWS, type RowProblem } from '../../../shared/schemas/admin';
import { AppError, unprocessable } from '../../lib/errors';
import { decodeUtf8, fileKindOf, type Upload } from './uploads';

export interface SheetRow {
  /** The spreadsheet's own row number: the header is 1, the first data row 2. */
  row: number;
  /** One trimmed text per template column ('' when empty). */
  cells: string[];
}

const refuse = (message: string, errors: RowProblem[] = []) => unprocessable(message, 'import_invalid', errors);

/** A cell as text: numbers without exponent or float noise, dates as dd/mm/yyyy, formulas as their values. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
  if (value instanceof Date) return value.toISOString().slice(0, 10).split('-').reverse().join('/');
  // White space runs (incl. non-breaking spaces pasted from the web) become one space; NFC so that
  // text typed on different keyboards compares equal.
  return String(value).normalize('NFC').replace(/[\s\u00a0\u200b\ufeff]+/g, ' ').trim();
}

async function rawRows(upload: Upload, accepted: string): Promise<unknown[][]> {
  const kind = fileKindOf(upload);
  if (kind === 'xlsx') {
    try {
      return (await readSheet(upload.bytes)) as unknown[][];
    } catch {
      throw refuse(importMessages.unreadable);
    }
  }
  if (kind === 'csv') {
    const text = decodeUtf8(upload.bytes);
    // Excel saves ";"-separated CSV where the decimal separator is a comma (Vietnamese Windows).
    const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
    const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
    try {
      return parseCsv(text, { delimiter, relax_column_count: true, bom: true, skip_empty_lines: false }) as string[][];
    } catch {
      throw refuse(importMessages.unreadable);
    }
  }
  throw refuse(importMessages.unsupported(accepted));
}

/**
 * The data rows of a tabular import whose header must be `columns` (in order; case and spacing
 * aside). Empty rows are skipped but keep their numbers. 422 for a wrong header, no data rows or
 * too many rows.
 */
export async function readTable(upload: Upload, columns: readonly string[], accepted = '.xlsx hoặc .csv (UTF-8)'): Promise<SheetRow[]> {
  const rows = await rawRows(upload, accepted);
  const header = (rows[0] ?? []).map(cellText);
  const sameTitle = (a: string | undefined, b: string) => (a ?? '').toLocaleLowerCase('vi') === b.toLocaleLowerCase('vi');
  if (!columns.every((title, i) => sameTitle(header[i], title)) || header.slice(columns.length).some((cell) => cell !== '')) {
    const problems = columns
      .map((title, i) => ({ title, found: header[i] ?? '' }))
      .filter(({ title, found }) => !sameTitle(found, title))
      .map(({ title, found }) => ({ row: 1, column: title, message: found ? `tiêu đề là "${found}", phải là "${title}"` : `thiếu cột "${title}"` }));
    throw refuse(importMessages.wrongColumns(columns), problems);
  }
  const data: SheetRow[] = [];
  for (let i = 1; i < rows.length; i++) {
    const cells = columns.map((_, c) => cellText(rows[i]?.[c]));
    if (cells.every((cell) => cell === '')) continue;
    data.push({ row: i + 1, cells });
    if (data.length > MAX_IMPORT_ROWS) throw refuse(importMessages.tooManyRows(MAX_IMPORT_ROWS));
  }
  if (data.length === 0) throw refuse(importMessages.empty);
  return data;
}

/** Collects an import's problems; `throwIfAny` refuses the whole file with all of them. */
export class ImportProblems {
  readonly list: RowProblem[] = [];
  add(row: number, column: string, message: string): void {
    this.list.push({ row, column, message: `Dòng ${row}, cột ${column}: ${message}` });
  }
  /** Reports rows whose `key` repeats an earlier row of the file ("trùng với dòng 3"). */
  duplicates(rows: { row: number; key: string }[], column: string): void {
    const seen = new Map<string, number>();
    for (const { row, key } of rows) {
      const first = seen.get(key);
      if (first === undefined) seen.set(key, row);
      else this.add(row, column, importMessages.duplicateRow(first));
    }
  }
  throwIfAny(): void {
    if (this.list.length === 0) return;
    this.list.sort((a, b) => a.row - b.row);
    throw refuse(importMessages.hasProblems(this.list.length), this.list);
  }
}

export const isImportRefusal = (error: unknown): error is AppError => error instanceof AppError && error.code === 'import_invalid';
