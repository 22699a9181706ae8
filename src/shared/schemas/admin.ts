// The back office's common shapes (/api/admin/*): server-side pagination, imports and the audit
// log. Each area's own schemas live beside this file (admin-<area>.ts).
import { z } from 'zod';
import { importMessages } from '../messages/admin';

// Pagination ---------------------------------------------------------------------------------
export const MAX_PER_PAGE = 200;

/** ?page=&per_page=&q= on every admin list (query strings are text). */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(50),
  q: z.string().trim().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/**
 * ?sort=<key>&dir=asc|desc on a list the server sorts (the web kit's DataTable reports them):
 * `keys` are the list's sortable columns; without `sort`, the list keeps its own order (which
 * also breaks ties, so pages stay stable). An unknown key is a 400.
 */
export const sortQuery = <K extends string>(keys: readonly [K, ...K[]]) => ({
  sort: z.enum(keys).optional(),
  dir: z.enum(['asc', 'desc']).default('asc'),
});
export type SortDirection = 'asc' | 'desc';

/** {success, data:{items, total, page, per_page}} */
export const pageResponseSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    success: z.literal(true),
    data: z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), per_page: z.number().int() }),
  });
export type Page<T> = { items: T[]; total: number; page: number; per_page: number };

export const okResponseSchema = z.object({ success: z.literal(true) });

// Imports --------------------------------------------------------------------------------------
/** Largest file an import accepts; refused before parsing. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 20_000;
/**
 * A refused import lists at most this many problems (the first by row); the answer's
 * `errors_total` has them all, and its message says how many more there are.
 */
export const MAX_LISTED_PROBLEMS = 200;

/** One problem of an import: the spreadsheet's own row number (header = 1), the column's title. */
export const rowProblemSchema = z.object({ row: z.number().int(), column: z.string(), message: z.string() });
export type RowProblem = z.infer<typeof rowProblemSchema>;

/** A good file's counts: what was (or, in a dry run, would be) created, updated or left as it is. */
export const importCountsSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
});
export type ImportCounts = z.infer<typeof importCountsSchema>;

/** An import lists at most this many of its updates and of the names it creates (with the totals). */
export const MAX_LISTED_CHANGES = 200;

/** One row an import updates: its row in the file, what it names ("Quận 1 / Trường A"), each field before and after. */
export const importUpdateSchema = z.object({
  row: z.number().int(),
  key: z.string(),
  changes: z.array(z.object({ field: z.string(), before: z.string(), after: z.string() })),
});
export type ImportUpdate = z.infer<typeof importUpdateSchema>;

/** A district, school or class an import creates (a name the catalogue did not have, under nameKey or classRoomName). */
export const importCreationSchema = z.object({ kind: z.enum(['district', 'school', 'class']), name: z.string() });
export type ImportCreation = z.infer<typeof importCreationSchema>;

/** What a preview (and a commit) shows of its writes: the first MAX_LISTED_CHANGES, with the totals. */
export const importChangesSchema = z.object({
  updates: z.array(importUpdateSchema),
  updates_total: z.number().int(),
  creations: z.array(importCreationSchema),
  creations_total: z.number().int(),
});
export type ImportChanges = z.infer<typeof importChangesSchema>;

export const importResponseSchema = <T extends z.ZodRawShape = Record<never, never>>(extra?: T) =>
  z.object({
    success: z.literal(true),
    data: importCountsSchema.merge(importChangesSchema).extend({
      dry_run: z.boolean(),
      /** Rows read from the file (without the header). */
      rows: z.number().int(),
      file_name: z.string(),
      /** One line each of what the preview says besides its counts (a total row skipped). */
      notes: z.array(z.string()),
      ...(extra ?? ({} as T)),
    }),
  });

export const templateKinds = ['questions', 'schools', 'class-teachers', 'school-admins', 'class-rooms', 'catalog-move', 'viewers'] as const;
export type TemplateKind = (typeof templateKinds)[number];

/** Column titles of each template, in the template's order (the issue's contract); a file may order them as it likes. */
export const templateColumns: Record<TemplateKind, readonly string[]> = {
  questions: ['Câu hỏi', 'Đáp án A', 'Đáp án B', 'Đáp án C', 'Đáp án D', 'Đáp án đúng'],
  schools: ['Quận/Huyện', 'Trường', 'Địa chỉ', 'Số học sinh'],
  'class-teachers': ['Quận/Huyện', 'Trường', 'Lớp', 'Giáo viên'],
  'school-admins': ['Số điện thoại', 'Họ và tên', 'Quận/Huyện', 'Trường'],
  'class-rooms': ['Nhóm lớp', 'Lớp'],
  // The catalogue's move to a new map (decision 038): each row a school of the new list, and the
  // school of the catalogue it continues (by its code, or by its old name and unit).
  'catalog-move': ['Mã trường', 'Tên trường cũ', 'Quận/Huyện cũ', 'Quận/Huyện', 'Trường', 'Tỉnh cũ'],
  // The education offices' viewers (issue 41): "Đơn vị" the units seen, separated by ";"; empty: the whole province.
  viewers: ['Số điện thoại', 'Họ tên', 'Đơn vị'],
};

/** Columns a file may leave out (its cells are then empty): a question has 2 to 4 answers. */
export const optionalColumns: Partial<Record<TemplateKind, readonly string[]>> = {
  questions: ['Đáp án C', 'Đáp án D'],
  'catalog-move': ['Mã trường', 'Tên trường cũ', 'Quận/Huyện cũ', 'Tỉnh cũ'],
  viewers: ['Đơn vị'],
};

// The other titles an office worker's own spreadsheet gives a template's column (issue 23): one
// list per title, and each import kind takes the lists of its columns. Compared under headerKey.
// The unit under the province: a district's titles and, on the map since 1 July 2025 (issue 36),
// a commune's, whichever level the season names (an organiser's file says what the office gave).
const DISTRICT = [
  'Quận', 'Huyện', 'Quận huyện', 'Quận, huyện', 'Quận - Huyện', 'Quận/Huyện/Thị xã', 'Quận/Huyện/Thành phố', 'Huyện/Thị xã/Thành phố',
  'Xã/Phường', 'Phường/Xã', 'Xã', 'Phường', 'Xã, phường', 'Xã - Phường', 'Phường, xã', 'Xã/Phường/Đặc khu', 'Xã/Phường/Thị trấn',
  'Đơn vị hành chính cấp xã', 'Đơn vị cấp xã', 'ĐVHC cấp xã',
];
const SCHOOL = ['Tên trường', 'Trường học', 'Trường tiểu học', 'Đơn vị', 'Tên đơn vị'];
const synonymsOf: Record<string, readonly string[]> = {
  'Quận/Huyện': DISTRICT,
  Trường: SCHOOL,
  'Địa chỉ': ['Địa chỉ trường', 'Địa chỉ liên hệ'],
  'Số học sinh': ['Số HS', 'Sĩ số', 'Tổng số học sinh', 'Tổng số HS', 'Số lượng học sinh'],
  Lớp: ['Tên lớp', 'Lớp học', 'Lớp chủ nhiệm'],
  'Giáo viên': ['Giáo viên chủ nhiệm', 'GVCN', 'GV chủ nhiệm', 'Tên giáo viên', 'Họ tên giáo viên', 'Họ và tên giáo viên'],
  'Số điện thoại': ['SĐT', 'Số ĐT', 'Điện thoại', 'Số di động', 'Điện thoại di động'],
  'Họ và tên': ['Họ tên', 'Họ và tên người quản trị', 'Người quản trị', 'Tên người quản trị'],
  'Câu hỏi': ['Nội dung câu hỏi', 'Nội dung'],
  'Đáp án A': ['Phương án A', 'Lựa chọn A', 'A'],
  'Đáp án B': ['Phương án B', 'Lựa chọn B', 'B'],
  'Đáp án C': ['Phương án C', 'Lựa chọn C', 'C'],
  'Đáp án D': ['Phương án D', 'Lựa chọn D', 'D'],
  'Đáp án đúng': ['Đáp án', 'Đáp án chính xác', 'Phương án đúng', 'Câu trả lời đúng', 'Đúng'],
  'Nhóm lớp': ['Nhóm', 'Khối', 'Khối lớp'],
  'Mã trường': ['Mã', 'Mã số trường', 'ID trường'],
  'Tên trường cũ': ['Trường cũ', 'Tên cũ'],
  'Quận/Huyện cũ': ['Huyện cũ', 'Quận cũ', 'Đơn vị cũ', 'Xã/Phường cũ', 'Phường/Xã cũ', 'Xã cũ', 'Phường cũ'],
  'Tỉnh cũ': ['Tỉnh/Thành phố cũ', 'Tỉnh trước sáp nhập'],
  'Họ tên': ['Họ và tên', 'Tên', 'Tên người xem'],
  'Đơn vị': ['Phạm vi', 'Phạm vi xem', 'Đơn vị xem', 'Các đơn vị', 'Quận/Huyện', 'Xã/Phường'],
};

/**
 * The line under a template's link: the columns a file of `kind` really has (the optional ones
 * said so) and, as examples of the other titles the import accepts, the first other title of
 * each of its first two columns that have one.
 */
export function importColumnsHint(kind: TemplateKind): string {
  const columns = templateColumns[kind];
  const optional = optionalColumns[kind] ?? [];
  const examples = columns
    .filter((column) => synonymsOf[column]?.length)
    .slice(0, 2)
    .map((column) => `“${synonymsOf[column]![0]}” cho “${column}”`);
  return (
    `các cột: ${columns.join(', ')}${optional.length ? ` (${optional.join(', ')} có thể để trống)` : ''}; ` +
    `có thể theo thứ tự bất kỳ, với tên cột của mẫu hoặc tên quen dùng${examples.length ? ` (như ${examples.join(', ')})` : ''}.`
  );
}

/** A header cell as compared: any case, accents or tone placement, spaces around "/" and a trailing ":" or "*" aside. */
export const headerKey = (title: string) =>
  title
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/[\s\u00a0]+/g, ' ')
    .replace(/\s*([/,-])\s*/g, '$1')
    .replace(/[\s:*]+$/, '')
    .trim();

/** Each title a header cell of `kind` may have, by headerKey, to the template's column it is. */
export function columnTitlesOf(kind: TemplateKind): Map<string, string> {
  const titles = new Map<string, string>();
  for (const column of templateColumns[kind]) {
    for (const title of [column, ...(synonymsOf[column] ?? [])]) {
      const other = titles.get(headerKey(title));
      // A title of two columns would read one of them silently: a mistake in the lists above.
      if (other && other !== column) throw new Error(`import title "${title}" is both "${other}" and "${column}"`);
      titles.set(headerKey(title), column);
    }
  }
  return titles;
}


// Audit log ------------------------------------------------------------------------------------
export const auditQuerySchema = pageQuerySchema.extend({
  kind: z.string().trim().max(60).optional(),
  /** Part of the organiser's phone or name. */
  actor: z.string().trim().max(100).optional(),
  /** ISO dates or date-times; `to` is inclusive of its whole day when a date. */
  from: z.string().trim().max(40).optional(),
  to: z.string().trim().max(40).optional(),
});

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor_phone: z.string(),
  /** The organiser's name as the account has it (empty when none, or the account is gone). */
  actor_name: z.string(),
  kind: z.string(),
  summary: z.string(),
  details: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

// Its messages live with every other in shared/messages/ (admin.ts); exported here too for the screens that import them with the schemas.
export { importMessages };
