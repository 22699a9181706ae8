// /so-giao-duc/ket-qua, "Kết quả": before the organiser publishes, the server's message; after, the
// published prizes of the viewer's scope tier by tier (no withheld prize, no phone, no contestant
// id: the server leaves them out), the per-school and per-unit summaries, and "Tải Excel".
import { useId } from 'react';
import { formatAverage, formatDuration, formatNumber } from '../../../shared/format';
import { viewerExportPaths, type ResultSummaryRow, type ViewerPrizeRow, type ViewerResults, type ViewerScope } from '../../../shared/schemas/viewers';
import { DataTable } from '../../components/ui/data-table';
import { Loading } from '../../components/ui/loading';
import { useApiData } from '../../lib/use-data';
import { ExportButton } from './export-button';

/** The prizes in tiers, in the order the server lists them (the contest's order of tiers). */
function byTier(prizes: readonly ViewerPrizeRow[]): [string, ViewerPrizeRow[]][] {
  const tiers = new Map<string, ViewerPrizeRow[]>();
  for (const prize of prizes) {
    const rows = tiers.get(prize.tier) ?? [];
    rows.push(prize);
    tiers.set(prize.tier, rows);
  }
  return [...tiers];
}

export function ResultsTab({ scope }: { scope: ViewerScope }) {
  const results = useApiData<ViewerResults>('/viewer/results', 0, 'Không tải được kết quả.');
  const data = results.data;
  if (!data) return results.message ? <p role="alert">{results.message}</p> : <Loading />;
  if (!data.published) {
    return (
      <section className="viewer-tab" aria-labelledby="viewer-results-title">
        <h2 id="viewer-results-title" className="visually-hidden">
          Kết quả
        </h2>
        <p className="alert">{data.message}</p>
      </section>
    );
  }
  const tiers = byTier(data.prizes);
  return (
    <section className="viewer-tab" aria-labelledby="viewer-results-title">
      <h2 id="viewer-results-title" className="visually-hidden">
        Kết quả
      </h2>
      <p>Kết quả được công bố ngày {data.published_on}.</p>
      <div className="viewer-actions">
        <ExportButton path={viewerExportPaths.results} />
      </div>
      <section className="viewer-card" aria-labelledby="viewer-prizes-title">
        <h2 id="viewer-prizes-title">Danh sách đoạt giải ({formatNumber(data.prizes.length)})</h2>
        {tiers.length === 0 && <p>Không có giải nào trong phạm vi của bạn.</p>}
        {tiers.map(([tier, rows]) => (
          <div key={tier} className="viewer-tier">
            <h3>
              {tier} ({formatNumber(rows.length)})
            </h3>
            <DataTable
              caption={tier}
              rows={rows}
              rowKey={(_row, index) => index}
              columns={[
                { header: 'Họ tên', rowHeader: true, cell: (row) => row.name },
                { header: 'Lớp', cell: (row) => row.class_name ?? '—' },
                { header: 'Trường', cell: (row) => row.school },
                { header: scope.unit_label, cell: (row) => row.unit },
                { header: 'Điểm', numeric: true, cell: (row) => (row.points === null ? '—' : formatNumber(row.points)) },
                { header: 'Thời gian', numeric: true, cell: (row) => (row.duration_seconds === null ? '—' : formatDuration(row.duration_seconds)) },
                { header: 'Giải', className: 'viewer-nowrap', cell: (row) => row.prize },
              ]}
            />
          </div>
        ))}
      </section>
      <Summary title="Tổng hợp theo trường" rows={data.schools} unitLabel={scope.unit_label} />
      <Summary title={`Tổng hợp theo ${scope.unit_label.toLocaleLowerCase('vi')}`} rows={data.units} />
    </section>
  );
}

/** The per-school (with their unit) or per-unit summary. */
function Summary({ title, rows, unitLabel }: { title: string; rows: ResultSummaryRow[]; unitLabel?: string }) {
  const titleId = useId();
  return (
    <section className="viewer-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <DataTable
        caption={title}
        rows={rows}
        rowKey={(row, index) => `${row.unit}/${row.name}/${index}`}
        empty="Không có dữ liệu."
        columns={[
          { header: unitLabel ? 'Trường' : 'Tên', rowHeader: true, cell: (row) => row.name },
          unitLabel !== undefined && { header: unitLabel, cell: (row) => row.unit },
          { header: 'Học sinh', numeric: true, cell: (row) => formatNumber(row.pupils) },
          { header: 'Thí sinh', numeric: true, cell: (row) => formatNumber(row.contestants) },
          { header: 'Đã nộp bài', numeric: true, cell: (row) => formatNumber(row.finished) },
          { header: 'Điểm trung bình', numeric: true, cell: (row) => formatAverage(row.mean_points) },
          { header: 'Số giải', numeric: true, cell: (row) => formatNumber(row.prizes) },
        ]}
      />
    </section>
  );
}
