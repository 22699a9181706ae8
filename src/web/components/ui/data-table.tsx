// The one data table of the back office and of the education offices' area (issue 41): a caption for screen readers, a row per item, the empty line, the
// load error, optional sorting by a column (the server sorts: the table only says which column),
// and the pager under a list paged on the server. A table wider than the screen scrolls in its
// frame (table-frame.tsx), which the keyboard reaches by the caption's name.
import { useId, type ReactNode } from 'react';
import type { Page } from '../../../shared/schemas/admin';
import type { DataState } from '../../lib/use-data';
import { Pager } from './pager';
import { TableFrame } from './table-frame';

export interface Column<T> {
  header: ReactNode;
  /** `index`: the row's place on this page (0 first). */
  cell: (row: T, index: number) => ReactNode;
  /** Right-aligned figures. */
  numeric?: boolean;
  className?: string;
  /** The cell names its row (a <th scope="row">). */
  rowHeader?: boolean;
  /** The server's name for sorting by this column; the header becomes a button. */
  sortKey?: string;
}

export interface Sort {
  key: string;
  direction: 'asc' | 'desc';
}

interface DataTableProps<T> {
  caption: ReactNode;
  /** The caption's class: 'visually-hidden' (the default: read by screen readers only), '' or 'muted' to show it. */
  captionClass?: string;
  columns: readonly (Column<T> | false)[];
  rows: readonly T[] | undefined;
  rowKey: (row: T, index: number) => string | number;
  /** The line shown when the list has no row, e.g. "Không có trường nào." */
  empty?: ReactNode;
  loading?: boolean;
  error?: string;
  className?: string;
  /** A last row under the items (<tfoot>), e.g. the totals. */
  footer?: ReactNode;
  sort?: Sort;
  onSort?: (sort: Sort) => void;
}

export function DataTable<T>({ caption, captionClass = 'visually-hidden', columns, rows, rowKey, empty, loading, error, className, footer, sort, onSort }: DataTableProps<T>) {
  const shown = columns.filter((column): column is Column<T> => column !== false);
  const captionId = useId();
  return (
    <>
      {error && <p role="alert">{error}</p>}
      <TableFrame labelledBy={captionId} busy={loading}>
        <table className={['admin-table', className].filter(Boolean).join(' ')}>
          <caption id={captionId} className={captionClass || undefined}>
            {caption}
          </caption>
          <thead>
            <tr>
              {shown.map((column, i) => (
                <th
                  key={i}
                  scope="col"
                  className={column.numeric ? 'num' : undefined}
                  aria-sort={column.sortKey && sort && sort.key === column.sortKey ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {column.sortKey && onSort ? <SortButton column={column} sort={sort} onSort={onSort} /> : column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows?.map((row, index) => (
              <tr key={rowKey(row, index)}>
                {shown.map((column, i) => {
                  const Cell = column.rowHeader ? 'th' : 'td';
                  return (
                    <Cell key={i} scope={column.rowHeader ? 'row' : undefined} className={[column.numeric && 'num', column.className].filter(Boolean).join(' ') || undefined}>
                      {column.cell(row, index)}
                    </Cell>
                  );
                })}
              </tr>
            ))}
            {rows?.length === 0 && empty && (
              <tr>
                <td colSpan={shown.length}>{empty}</td>
              </tr>
            )}
          </tbody>
          {footer && <tfoot>{footer}</tfoot>}
        </table>
      </TableFrame>
    </>
  );
}

function SortButton<T>({ column, sort, onSort }: { column: Column<T>; sort?: Sort; onSort: (sort: Sort) => void }) {
  const current = sort?.key === column.sortKey ? sort?.direction : undefined;
  return (
    <button
      type="button"
      className="admin-sort"
      onClick={() => onSort({ key: column.sortKey!, direction: current === 'asc' ? 'desc' : 'asc' })}
    >
      {column.header}
      <span aria-hidden="true">{current === 'asc' ? ' ▲' : current === 'desc' ? ' ▼' : ' ↕'}</span>
    </button>
  );
}

/** A list paged on the server: the table of `list`'s page and the pager under it. */
export function PagedTable<T>({
  list,
  onPage,
  ...table
}: Omit<DataTableProps<T>, 'rows' | 'loading' | 'error'> & { list: DataState<Page<T>>; onPage: (page: number) => void }) {
  const { data } = list;
  return (
    <>
      <DataTable {...table} rows={data?.items} loading={list.loading} error={list.message} />
      {data && <Pager page={data.page} perPage={data.per_page} total={data.total} onPage={onPage} />}
    </>
  );
}

/** The buttons of one row (Sửa, Gộp, Xoá…), wrapping on a narrow screen. */
export function RowActions({ children }: { children: ReactNode }) {
  return <div className="admin-row-actions">{children}</div>;
}
