// The one flow of every import (issue 22): the schools, the class teachers, the school
// administrators, and a book's questions (.xlsx, .csv, GIFT, Aiken).
//   upload   readImportUpload: one file, its size capped while it streams in (uploads.ts)
//   read     in a worker thread per upload (file-reader.ts), by the import's own reader: the kit's
//            tables, .xlsx and .csv (sheets.ts), or an area's (a book's questions, .xlsx, .csv,
//            GIFT, Aiken: books/question-file.ts); rows capped, bombs refused
//   preview  the import's own checks against the database; every problem counted, the first
//            MAX_LISTED_PROBLEMS listed with the total (ImportProblems), nothing stored
//   commit   unless dry_run: the same preview, its writes and the audit entry in one transaction
//   errors   with errors=xlsx: the same preview keeping every problem, answered as an .xlsx of
//            the rows that have one, their cells beside a "Lỗi" column (issue 23); nothing stored
// An import names only its reader, its preview and what its writes are (ImportSpec).
import { relabelUnit } from '../../../../shared/unit-level';
import { getCurrentContest } from '../../../core/contest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { importMessages, MAX_IMPORT_BYTES, MAX_LISTED_CHANGES, type ImportChanges, type ImportCounts, type ImportCreation, type ImportUpdate } from '../../../../shared/schemas/admin';
import type { Db } from '../../../db/client';
import { isUniqueViolation } from '../../../db/errors';
import { AppError } from '../../../lib/errors';
import { XlsxBuilder } from '../../../lib/xlsx-writer';
import type { Services } from '../../../services';
import { recordAudit, type Actor, type AuditEntryInput } from './audit';
import type { FileReader, TableRows } from './file-reader';
import type { ImportProblems } from './sheets';
import { isDryRun, readUpload, type Upload } from './uploads';

/** What a checked file would store: its counts, and how to store it. */
export interface ImportPlan<C extends ImportCounts, A> {
  counts: C;
  /** What the answer adds to the counts (a dry run's, and a commit's unless `store` answers its own). */
  answer: A;
  /** Each row it would update, with its fields before and after (listed bounded, kept in the audit). */
  updates?: ImportUpdate[];
  /** The districts and schools it would create. */
  creations?: ImportCreation[];
  /** The plan's writes, in the import's transaction; answers its audit entry (and the commit's answer, when it differs). */
  store(trx: Db): Promise<{ audit: AuditEntryInput; answer?: A }>;
}

export interface ImportSpec<F, C extends ImportCounts, A> {
  read: FileReader<F>;
  /** Checks every row (problems go to `problems`) and plans the writes; stores nothing. */
  preview(db: Db, file: F, context: { dryRun: boolean; problems: ImportProblems }): Promise<ImportPlan<C, A>>;
  /** A unique violation at the commit: another request changed the same rows meanwhile. */
  raced?: () => AppError;
}

export type ImportAnswer<C, A> = C & A & ImportChanges & { dry_run: boolean; rows: number; file_name: string; notes: string[] };

/** The first MAX_LISTED_CHANGES updates and creations of a plan, with their totals. */
function changesOf(plan: { updates?: ImportUpdate[]; creations?: ImportCreation[] }): ImportChanges {
  const updates = plan.updates ?? [];
  const creations = plan.creations ?? [];
  return {
    updates: updates.slice(0, MAX_LISTED_CHANGES),
    updates_total: updates.length,
    creations: creations.slice(0, MAX_LISTED_CHANGES),
    creations_total: creations.length,
  };
}

/** The import's file (field `file`) and its form fields; a 422 when it is missing or over MAX_IMPORT_BYTES. */
export const readImportUpload = (request: FastifyRequest) => readUpload(request);

/** An import route's form, for the OpenAPI document (uploads.ts). */
export const importRouteConfig = (accept: string, fields: Record<string, string> = {}) => ({
  upload: {
    maxBytes: MAX_IMPORT_BYTES,
    accept,
    fields: {
      dry_run: '"1" (hoặc "true"): chỉ kiểm tra và báo trước số dòng sẽ thêm, cập nhật, giữ nguyên; không lưu gì.',
      errors: '"xlsx": không lưu gì, trả về tệp .xlsx liệt kê mọi dòng có lỗi (các ô của dòng và cột "Lỗi").',
      ...fields,
    },
  },
});

/**
 * Reads, previews and (unless `dry_run`) commits one uploaded file. A refused file answers its
 * problems (422) before anything is stored; a dry run reads the database without a transaction
 * and writes nothing.
 */
export async function runImport<F, C extends ImportCounts, A>(
  deps: Pick<Services, 'db' | 'config'>,
  actor: Actor,
  upload: Upload,
  spec: ImportSpec<F, C, A>,
): Promise<ImportAnswer<C, A> | ImportErrorsFile> {
  if (upload.fields.errors === 'xlsx') return { errors_file: await errorsFile(deps, upload, spec) };
  const dryRun = isDryRun(upload.fields);
  const { file, rows, problems, totalRow } = await spec.read(upload, { timeoutMs: deps.config.load.importReadTimeoutMs });
  const run = async (db: Db) => {
    const plan = await spec.preview(db, file, { dryRun, problems });
    problems.throwIfAny();
    if (dryRun) return plan;
    const stored = await plan.store(db);
    const { updates, updates_total, creations, creations_total } = changesOf(plan);
    const details = { ...stored.audit.details, updates, updates_total, creations, creations_total };
    await recordAudit(db, actor, { ...stored.audit, details });
    return { ...plan, answer: stored.answer ?? plan.answer };
  };
  let plan: Pick<ImportPlan<C, A>, 'counts' | 'answer' | 'updates' | 'creations'>;
  try {
    plan = dryRun ? await run(deps.db) : await deps.db.transaction().execute(run);
  } catch (error) {
    if (spec.raced && isUniqueViolation(error)) throw spec.raced();
    throw error;
  }
  const notes = totalRow === undefined ? [] : [importMessages.totalRowSkipped(totalRow)];
  return { ...plan.counts, ...plan.answer, ...changesOf(plan), dry_run: dryRun, rows, file_name: upload.fileName, notes };
}

/** The full list of a file's errors, as an .xlsx (errors=xlsx). */
export interface ImportErrorsFile {
  errors_file: Buffer;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An import route's answer: the import's JSON, or the full list of errors as an .xlsx. */
export function answerImport<T extends object>(reply: FastifyReply, answer: T | ImportErrorsFile) {
  if ('errors_file' in answer) {
    return reply.header('content-type', XLSX_TYPE).header('content-disposition', 'attachment; filename="danh-sach-loi.xlsx"').send(answer.errors_file);
  }
  return { success: true as const, data: answer };
}

/**
 * Every problem of the file (a preview that keeps them all, nothing stored), one line of the
 * workbook per row that has any: the row's number, its cells in the template's order (when the
 * file is a table) and its problems, one per line. A file without problems gives the header alone.
 */
async function errorsFile<F, C extends ImportCounts, A>(deps: Pick<Services, 'db' | 'config'>, upload: Upload, spec: ImportSpec<F, C, A>): Promise<Buffer> {
  const { file, problems, table } = await spec.read(upload, { timeoutMs: deps.config.load.importReadTimeoutMs, allProblems: true });
  try {
    await spec.preview(deps.db, file, { dryRun: true, problems });
  } catch (error) {
    // The preview stops at the problems it found (throwIfAny): they are the file's content.
    if (!(error instanceof AppError && error.code === 'import_invalid' && problems.count > 0)) throw error;
  }
  // The file's unit column and problems as the current season names the unit (issue 36).
  const level = (await getCurrentContest(deps.db))?.unit_level;
  return errorsWorkbook(
    problems.everyProblem().map((problem) => ({ ...problem, text: relabelUnit(problem.text, level) })),
    table && { ...table, columns: table.columns.map((title) => relabelUnit(title, level)) },
  );
}

async function errorsWorkbook(problems: { row: number; text: string }[], table: TableRows | undefined): Promise<Buffer> {
  const columns = table?.columns ?? [];
  const cellsOf = new Map((table?.rows ?? []).map((r) => [r.row, r.cells]));
  const byRow = new Map<number, string[]>();
  for (const { row, text } of problems) byRow.set(row, [...(byRow.get(row) ?? []), text]);
  const xlsx = new XlsxBuilder();
  try {
    xlsx.sheet({
      name: 'Danh sách lỗi',
      headings: ['Dòng', ...columns, 'Lỗi'],
      kinds: ['number', ...columns.map(() => 'text' as const), 'text'],
      widths: [8, ...columns.map(() => 24), 70],
    });
    await xlsx.rows([...byRow].map(([row, texts]) => [row, ...columns.map((_, i) => cellsOf.get(row)?.[i] ?? ''), texts.join('\n')]));
    return await xlsx.finish();
  } catch (error) {
    await xlsx.abandon();
    throw error;
  }
}
