// /so-giao-duc, "Tham gia": the live participation of the viewer's scope. The totals, the exams
// started per hour today (the organiser's dashboard chart), each unit, and each school against its
// pupils (the catalogue's "Số học sinh"), the schools that lag first as the server sorts them; a
// school-name filter, a unit filter for a viewer of several units, pages of schools. Loaded again
// every 30 s while the tab is visible; "Tải Excel" downloads the same figures with the same filters.
import { useState, type FormEvent } from 'react';
import { formatDate, formatDateTime, formatNumber, formatTime } from '../../../shared/format';
import { viewerExportPaths, type ParticipationRow, type ViewerParticipation, type ViewerScope } from '../../../shared/schemas/viewers';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { SelectField, TextField } from '../../components/ui/field';
import { Figures } from '../../components/ui/figures';
import { HourChart } from '../../components/ui/hour-chart';
import { Loading } from '../../components/ui/loading';
import { Pager } from '../../components/ui/pager';
import { useApiData } from '../../lib/use-data';
import { useReloadWhileVisible } from '../../lib/use-reload-while-visible';
import { ExportButton } from './export-button';

/** How often the figures are asked for again (ms): the server computes them at most this often anyway. */
const POLL_MS = 30_000;

/** A participation share (0..1) as a Vietnamese percentage, one decimal: 0.845 -> "84,5%"; none -> "—". */
const formatShare = (share: number | null) => (share === null ? '—' : `${formatNumber(share * 100, 1)}%`);

export function ParticipationTab({ scope }: { scope: ViewerScope }) {
  const [unitId, setUnitId] = useState('');
  const [draft, setDraft] = useState('');
  const [schoolQ, setSchoolQ] = useState('');
  const [page, setPage] = useState(1);
  const filters = new URLSearchParams();
  if (unitId) filters.set('district_id', unitId);
  if (schoolQ) filters.set('school_q', schoolQ);
  const exportQuery = filters.toString();
  const query = new URLSearchParams(filters);
  query.set('page', String(page));
  const live = useApiData<ViewerParticipation>(`/viewer/participation?${query}`, 0, 'Không tải được số liệu.');
  useReloadWhileVisible(live, POLL_MS);
  const data = live.data;

  const search = (event: FormEvent) => {
    event.preventDefault();
    setSchoolQ(draft.trim());
    setPage(1);
  };

  if (!data) return live.message ? <p role="alert">{live.message}</p> : <Loading />;
  return (
    <section className="viewer-tab" aria-labelledby="viewer-participation-title">
      <h2 id="viewer-participation-title" className="visually-hidden">
        Tham gia
      </h2>
      <p className="muted" aria-live="polite">
        Số liệu lúc {formatTime(data.computed_at)} ngày {formatDate(data.computed_at)}, tự cập nhật mỗi 30 giây. “Hôm nay” là ngày {data.today}.
      </p>
      {live.message && <p role="alert">{live.message}</p>}
      <p className={data.window?.open ? 'viewer-window open' : 'viewer-window'}>
        {data.window
          ? `Thời gian thi: ${formatDateTime(data.window.starts_at)} – ${formatDateTime(data.window.ends_at)}${data.window.open ? ' (đang mở)' : ' (không trong thời gian thi)'}`
          : 'Chưa có thời gian thi.'}
      </p>
      <div className="viewer-actions">
        <ExportButton path={viewerExportPaths.participation} query={exportQuery} />
      </div>
      <Totals totals={data.totals} />
      <HourChart className="viewer-card" hours={data.started_per_hour} />
      <section className="viewer-card" aria-labelledby="viewer-units-title">
        <h2 id="viewer-units-title">Theo {scope.unit_label.toLocaleLowerCase('vi')}</h2>
        <ParticipationTable caption={`Số liệu theo ${scope.unit_label.toLocaleLowerCase('vi')}`} rows={data.units} />
      </section>
      <section className="viewer-card" aria-labelledby="viewer-schools-title">
        <h2 id="viewer-schools-title">Theo trường</h2>
        <p className="muted">Các trường có tỉ lệ tham gia thấp nhất đứng trước; trường chưa có số học sinh trong danh mục đứng cuối.</p>
        <form className="viewer-toolbar" role="search" aria-label="Tìm trường" onSubmit={search}>
          {scope.units.length > 1 && (
            <SelectField
              label={scope.unit_label}
              value={unitId}
              onChange={(event) => {
                setUnitId(event.target.value);
                setPage(1);
              }}
            >
              <option value="">Tất cả</option>
              {scope.units.map((unit) => (
                <option key={unit.id} value={unit.id}>
                  {unit.name}
                </option>
              ))}
            </SelectField>
          )}
          <TextField label="Tên trường" type="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
          <Button type="submit">Tìm</Button>
        </form>
        <ParticipationTable caption="Các trường, tỉ lệ tham gia thấp nhất trước" rows={data.schools.items} unitLabel={scope.unit_label} loading={live.loading} />
        <Pager page={data.schools.page} perPage={data.schools.per_page} total={data.schools.total} onPage={setPage} />
      </section>
    </section>
  );
}

function Totals({ totals }: { totals: ViewerParticipation['totals'] }) {
  return (
    <Figures
      className="figure-tiles"
      itemClassName="figure-tile"
      testId="viewer-totals"
      figures={[
        ['Thí sinh đã đăng ký', formatNumber(totals.contestants)],
        ['Học sinh (theo danh mục)', formatNumber(totals.pupils)],
        ['Tỉ lệ tham gia', formatShare(totals.participation)],
        ['Đang thi', formatNumber(totals.in_progress), 'figure-tile-live'],
        ['Bắt đầu thi hôm nay', formatNumber(totals.started_today)],
        ['Nộp bài hôm nay', formatNumber(totals.finished_today)],
        ['Lượt thi từ đầu kỳ', formatNumber(totals.started_total)],
        ['Bài đã nộp từ đầu kỳ', formatNumber(totals.finished_total)],
      ]}
    />
  );
}

/** A unit's or a school's lines; `unitLabel`: the schools' table, with their unit. */
function ParticipationTable({ caption, rows, unitLabel, loading }: { caption: string; rows: ParticipationRow[]; unitLabel?: string; loading?: boolean }) {
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(row) => row.id}
      loading={loading}
      empty="Không có dữ liệu."
      columns={[
        { header: unitLabel ? 'Trường' : 'Tên', rowHeader: true, cell: (row) => row.name },
        unitLabel !== undefined && { header: unitLabel, cell: (row) => row.unit },
        { header: 'Học sinh', numeric: true, cell: (row) => formatNumber(row.pupils) },
        { header: 'Thí sinh', numeric: true, cell: (row) => formatNumber(row.contestants) },
        { header: 'Tỉ lệ tham gia', numeric: true, cell: (row) => formatShare(row.participation) },
        { header: 'Đang thi', numeric: true, cell: (row) => formatNumber(row.in_progress) },
        { header: 'Bắt đầu hôm nay', numeric: true, cell: (row) => formatNumber(row.started_today) },
        { header: 'Nộp bài hôm nay', numeric: true, cell: (row) => formatNumber(row.finished_today) },
        { header: 'Lượt thi từ đầu kỳ', numeric: true, cell: (row) => formatNumber(row.started_total) },
        { header: 'Bài đã nộp', numeric: true, cell: (row) => formatNumber(row.finished_total) },
      ]}
    />
  );
}
