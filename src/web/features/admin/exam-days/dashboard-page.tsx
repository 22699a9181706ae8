// /quan-tri/theo-doi: the exam window live. Polls the dashboard every few seconds while the tab is
// visible; the server serves a snapshot computed at most every 5 s for the whole cluster, so many
// open dashboards cost the database no more than one.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { formatDate, formatDateTime, formatNumber, formatTime } from '../../../../shared/format';
import type { Dashboard, DashboardRow } from '../../../../shared/schemas/admin-exam-days';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { Pager } from '../ui/pager';
import './exam-days.css';

/** How often the page asks for new figures (ms). */
const POLL_MS = 5_000;

/** The dashboard, fetched now and every POLL_MS while the page is visible. */
function useLiveDashboard(query: string) {
  const [data, setData] = useState<Dashboard | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | undefined;
    const load = () => {
      clearTimeout(timer);
      controller?.abort();
      controller = new AbortController();
      api
        .get<{ data: Dashboard }>(`/admin/exam-days/dashboard?${query}`, { signal: controller.signal })
        .then((answer) => {
          if (!active) return;
          setData(answer.data);
          setError(undefined);
        })
        .catch((caught: unknown) => {
          if (active && !controller?.signal.aborted) setError(errorMessage(caught) ?? 'Không tải được số liệu.');
        })
        .finally(() => {
          // Paused while the tab is hidden; resumed (at once) when it shows again.
          if (active && document.visibilityState === 'visible') timer = setTimeout(load, POLL_MS);
        });
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') load();
      else clearTimeout(timer);
    };
    load();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      active = false;
      clearTimeout(timer);
      controller?.abort();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [query]);
  return { data, error };
}

export function DashboardPage() {
  usePageTitle('Theo dõi kỳ thi');
  const [draft, setDraft] = useState('');
  const [schoolQ, setSchoolQ] = useState('');
  const [page, setPage] = useState(1);
  const params = new URLSearchParams({ school_page: String(page) });
  if (schoolQ) params.set('school_q', schoolQ);
  const { data, error } = useLiveDashboard(params.toString());

  const search = (event: FormEvent) => {
    event.preventDefault();
    setSchoolQ(draft.trim());
    setPage(1);
  };

  return (
    <section className="admin-page exam-days">
      <h1>Theo dõi kỳ thi</h1>
      <p className="muted" aria-live="polite">
        {data
          ? `Số liệu lúc ${formatTime(data.computed_at)} ngày ${formatDate(data.computed_at)}, tự cập nhật mỗi 5 giây. “Hôm nay” là ngày ${data.today}.`
          : 'Đang tải số liệu…'}
      </p>
      {error && <p role="alert">{error}</p>}
      {data && (
        <>
          {data.window && (
            <p className={data.window.open ? 'exam-days-window open' : 'exam-days-window'}>
              Thời gian thi: {formatDateTime(data.window.starts_at)} – {formatDateTime(data.window.ends_at)}
              {data.window.open ? ' (đang mở)' : ' (không trong thời gian thi)'}
            </p>
          )}
          <Totals data={data} />
          <HourChart hours={data.started_per_hour} />
          <AutosaveHealthCard data={data} />
          <Breakdown title="Theo quận/huyện" rows={data.districts} />
          <Breakdown title="Theo khối lớp" rows={data.class_groups} />
          <section className="admin-card" aria-labelledby="exam-days-schools">
            <h2 id="exam-days-schools">Theo trường</h2>
            <form className="admin-toolbar" role="search" aria-label="Tìm trường" onSubmit={search}>
              <TextField label="Tên trường hoặc quận/huyện" type="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
              <Button type="submit">Tìm</Button>
            </form>
            <BreakdownTable caption="Các trường, đang thi nhiều nhất trước" rows={data.schools.items} withDistrict />
            <Pager page={data.schools.page} perPage={data.schools.per_page} total={data.schools.total} onPage={setPage} />
          </section>
        </>
      )}
    </section>
  );
}

function Totals({ data }: { data: Dashboard }) {
  const t = data.totals;
  const tiles: [string, number, string?][] = [
    ['Đang thi', t.in_progress, 'exam-days-tile-live'],
    ['Bắt đầu thi hôm nay', t.started_today],
    ['Nộp bài hôm nay', t.finished_today],
    ['Lượt thi từ đầu kỳ', t.started_total],
    ['Bài đã nộp từ đầu kỳ', t.finished_total],
    ['Phụ huynh đã đăng ký', t.parents],
    ['Thí sinh đã đăng ký', t.contestants],
  ];
  return (
    <dl className="exam-days-tiles" data-testid="exam-days-totals">
      {tiles.map(([label, value, className]) => (
        <div key={label} className={className ? `exam-days-tile ${className}` : 'exam-days-tile'}>
          <dt>{label}</dt>
          <dd>{formatNumber(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Exams started per hour today: bars in plain SVG, and the same numbers as a table. */
function HourChart({ hours }: { hours: number[] }) {
  const titleId = useId();
  const max = Math.max(1, ...hours);
  const width = 24 * 20;
  const height = 120;
  const total = hours.reduce((sum, n) => sum + n, 0);
  const busiest = hours.indexOf(Math.max(...hours));
  return (
    <section className="admin-card" aria-labelledby={titleId}>
      <h2 id={titleId}>Lượt bắt đầu thi theo giờ (hôm nay)</h2>
      <svg
        className="exam-days-chart"
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
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Lượt bắt đầu thi theo giờ</caption>
            <thead>
              <tr>
                <th scope="col">Giờ</th>
                <th scope="col" className="num">
                  Lượt bắt đầu
                </th>
              </tr>
            </thead>
            <tbody>
              {hours.map((count, hour) => (
                <tr key={hour}>
                  <td>
                    {hour}:00 – {hour}:59
                  </td>
                  <td className="num">{formatNumber(count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

function AutosaveHealthCard({ data }: { data: Dashboard }) {
  const a = data.autosave;
  const share = a.acknowledged_within_2s === null ? '—' : `${formatNumber(a.acknowledged_within_2s * 100, 1)}%`;
  return (
    <section className="admin-card" aria-labelledby="exam-days-autosave">
      <h2 id="exam-days-autosave">Tình trạng lưu bài tự động</h2>
      {a.processes === 0 ? (
        <p>Chưa có số liệu từ máy chủ nào trong một phút qua.</p>
      ) : (
        <dl className="exam-days-tiles">
          <div className="exam-days-tile">
            <dt>Lượt lưu mỗi phút</dt>
            <dd>{formatNumber(a.saves_per_minute)}</dd>
          </div>
          <div className="exam-days-tile">
            <dt>Được xác nhận trong 2 giây</dt>
            <dd>{share}</dd>
          </div>
          <div className="exam-days-tile">
            <dt>Lượt lưu bị từ chối (503) mỗi phút</dt>
            <dd>{formatNumber(a.rejected_per_minute)}</dd>
          </div>
          <div className="exam-days-tile">
            <dt>Yêu cầu bị giảm tải (503) mỗi phút</dt>
            <dd>{formatNumber(a.shed_per_minute)}</dd>
          </div>
        </dl>
      )}
      <p className="muted">
        {formatNumber(a.processes)} tiến trình máy chủ, tính trên khoảng {formatNumber(a.window_seconds)} giây gần nhất.
      </p>
    </section>
  );
}

function Breakdown({ title, rows }: { title: string; rows: DashboardRow[] }) {
  const titleId = useId();
  return (
    <section className="admin-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <BreakdownTable caption={title} rows={rows} />
    </section>
  );
}

function BreakdownTable({ caption, rows, withDistrict = false }: { caption: string; rows: DashboardRow[]; withDistrict?: boolean }) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Tên</th>
            {withDistrict && <th scope="col">Quận/huyện</th>}
            <th scope="col" className="num">
              Thí sinh
            </th>
            <th scope="col" className="num">
              Đang thi
            </th>
            <th scope="col" className="num">
              Bắt đầu hôm nay
            </th>
            <th scope="col" className="num">
              Nộp bài hôm nay
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">{row.name}</th>
              {withDistrict && <td>{row.district}</td>}
              <td className="num">{formatNumber(row.contestants)}</td>
              <td className="num">{formatNumber(row.in_progress)}</td>
              <td className="num">{formatNumber(row.started_today)}</td>
              <td className="num">{formatNumber(row.finished_today)}</td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={withDistrict ? 6 : 5}>Không có dữ liệu.</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
