// /quan-tri/nhat-ky: every organiser action, newest first, paged on the server; filtered by the
// person (phone), the kind, a date range (days in Vietnam) and words of the summary. Each entry
// opens to show what it changed (before / after) or what it imported.
import { useState } from 'react';
import { formatDate, formatTime } from '../../../../shared/format';
import type { AuditEntry, Page } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { usePageTitle } from '../../../lib/use-page-title';
import { DataTable, PagedTable } from '../../../components/ui/data-table';
import { pageQuery, useApiData } from '../../../lib/use-data';
import { actorLabel } from '../kit/actor-label';
import { fieldLabel, kindFilters, kindLabel } from './audit-labels';
import './audit.css';

const PER_PAGE = 50;
const noFilters = { actor: '', kind: '', from: '', to: '', q: '' };

export function AuditPage() {
  usePageTitle('Nhật ký thao tác');
  const [draft, setDraft] = useState(noFilters);
  const [filters, setFilters] = useState(noFilters);
  const [page, setPage] = useState(1);
  const { q, ...rest } = filters;
  const list = useApiData<Page<AuditEntry>>(`/admin/audit?${pageQuery(page, q, rest, PER_PAGE)}`);
  const set = (key: keyof typeof noFilters) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: event.target.value }));

  return (
    <section className="admin-page">
      <h1>Nhật ký thao tác</h1>
      <form
        className="admin-toolbar audit-filters"
        role="search"
        aria-label="Lọc nhật ký"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(draft);
          setPage(1);
        }}
      >
        <TextField label="Người thực hiện (tên hoặc số điện thoại)" value={draft.actor} onChange={set('actor')} />
        <SelectField label="Loại thao tác" value={draft.kind} onChange={set('kind')}>
          <option value="">Tất cả</option>
          {kindFilters.map((kind) => (
            <option key={kind.value} value={kind.value}>
              {kind.label}
            </option>
          ))}
        </SelectField>
        <TextField label="Từ ngày" type="date" value={draft.from} onChange={set('from')} />
        <TextField label="Đến ngày" type="date" value={draft.to} onChange={set('to')} />
        <TextField label="Nội dung có chữ" type="search" value={draft.q} onChange={set('q')} />
        <Button type="submit">Lọc</Button>
        <Button
          variant="outline"
          onClick={() => {
            setDraft(noFilters);
            setFilters(noFilters);
            setPage(1);
          }}
        >
          Bỏ lọc
        </Button>
      </form>
      <PagedTable
        caption="Các thao tác, mới nhất trước"
        className="audit-table"
        list={list}
        onPage={setPage}
        rowKey={(entry) => entry.id}
        empty="Không có thao tác nào khớp bộ lọc."
        columns={[
          { header: 'Thời gian', className: 'audit-time', cell: (entry) => `${formatDate(entry.at)} ${formatTime(entry.at)}` },
          { header: 'Người thực hiện', cell: (entry) => actorLabel(entry) },
          { header: 'Loại', cell: (entry) => kindLabel(entry.kind) },
          {
            header: 'Nội dung',
            cell: (entry) => (
              <>
                <p className="audit-summary">{entry.summary}</p>
                <AuditDetails details={entry.details} />
              </>
            ),
          },
        ]}
      />
    </section>
  );
}

type Details = { before?: Record<string, unknown>; after?: Record<string, unknown>; [key: string]: unknown };

function AuditDetails({ details }: { details: unknown }) {
  if (!details || typeof details !== 'object' || Object.keys(details).length === 0) return null;
  const { before, after, ...other } = details as Details;
  const changed = before || after;
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return (
    <details className="audit-details">
      <summary>Chi tiết</summary>
      {changed && (
        <DataTable
          caption="Trước và sau"
          className="audit-changes"
          rows={fields}
          rowKey={(field) => field}
          columns={[
            { header: 'Trường dữ liệu', rowHeader: true, cell: (field) => fieldLabel(field) },
            !!before && { header: 'Trước', cell: (field) => show(before[field]) },
            !!after && { header: 'Sau', cell: (field) => show(after[field]) },
          ]}
        />
      )}
      {Object.keys(other).length > 0 && (
        <dl className="audit-other">
          {Object.entries(other).map(([key, value]) => (
            <div key={key}>
              <dt>{fieldLabel(key)}</dt>
              <dd>{show(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </details>
  );
}

/** A value as text: yes/no for booleans, JSON for objects, a dash for nothing. */
function show(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Có' : 'Không';
  if (typeof value === 'object') return JSON.stringify(value, null, 1);
  return String(value);
}
