// Exams started in each hour of today (Vietnamese time): bars in plain SVG, and the same numbers as
// a table for screen readers and for reading exact values. One chart for the organiser's dashboard
// and the education offices' participation page (issue 41).
import { useId } from 'react';
import { formatNumber } from '../../../shared/format';
import { DataTable } from './data-table';
import './hour-chart.css';

/** `hours`: 24 counts, index 0 = 00:00-00:59. `className`: the card's look, the caller's. */
export function HourChart({ hours, className }: { hours: readonly number[]; className: string }) {
  const titleId = useId();
  const max = Math.max(1, ...hours);
  const width = 24 * 20;
  const height = 120;
  const total = hours.reduce((sum, n) => sum + n, 0);
  const busiest = hours.indexOf(Math.max(...hours));
  return (
    <section className={className} aria-labelledby={titleId}>
      <h2 id={titleId}>Lượt bắt đầu thi theo giờ (hôm nay)</h2>
      <svg
        className="hour-chart"
        viewBox={`0 0 ${width} ${height + 18}`}
        role="img"
        aria-label={
          total === 0
            ? 'Hôm nay chưa có lượt thi nào.'
            : `Hôm nay ${formatNumber(total)} lượt bắt đầu thi; nhiều nhất lúc ${busiest} giờ với ${formatNumber(hours[busiest] ?? 0)} lượt.`
        }
      >
        {hours.map((count, hour) => {
          const barHeight = Math.round((count / max) * height);
          return (
            <g key={hour}>
              <rect x={hour * 20 + 3} y={height - barHeight} width={14} height={barHeight} rx={2} />
              {hour % 3 === 0 && (
                <text x={hour * 20 + 10} y={height + 14} textAnchor="middle">
                  {hour}h
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <details>
        <summary>Xem bảng số liệu</summary>
        <DataTable
          caption="Lượt bắt đầu thi theo giờ"
          rows={hours}
          rowKey={(_count, hour) => hour}
          columns={[
            { header: 'Giờ', cell: (_count, hour) => `${hour}:00 – ${hour}:59` },
            { header: 'Lượt bắt đầu', numeric: true, cell: (count) => formatNumber(count) },
          ]}
        />
      </details>
    </section>
  );
}
