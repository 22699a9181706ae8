// /quan-tri/theo-doi: the exam window live. Polls the dashboard every few seconds while the tab is
// visible; the server serves a snapshot computed at most every 5 s for the whole cluster, so many
// open dashboards cost the database no more than one.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { formatDate, formatDateTime, formatNumber, formatTime } from '../../../../shared/format';
import type { Dashboard, DashboardRow } from '../../../../shared/schemas/admin-exam-days';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { useApiData } from '../../../lib/use-data';
import { useReloadWhileVisible } from '../../../lib/use-reload-while-visible';
import { usePageTitle } from '../../../lib/use-page-title';
import { DataTable } from '../../../components/ui/data-table';
import { Figures } from '../../../components/ui/figures';
import { Pager } from '../../../components/ui/pager';
import { HourChart } from '../../../components/ui/hour-chart';
import './exam-days.css';
import { useUnitWords } from '../../../lib/site';

/** How often the page asks for new figures (ms). */
const POLL_MS = 5_000;

/** The dashboard, fetched now and POLL_MS after each answer while the page is visible. */
function useLiveDashboard(query: string) {
  const live = useApiData<Dashboard>(`/admin/exam-days/dashboard?${query}`, 0, 'Không tải được số liệu.');
  useReloadWhileVisible(live, POLL_MS);
  return { data: live.data, error: live.message };
}

export function DashboardPage() {
  const say = useUnitWords();
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
          {data.short_books.length > 0 && (
            <section className="alert alert-warning" aria-labelledby="exam-days-short-books">
              <h2 id="exam-days-short-books">Sách chưa đủ câu hỏi để ra đề</h2>
              <p>
                Mỗi bài thi cần {data.questions_per_exam} câu hỏi. Gia đình không thấy các sách dưới đây khi chọn sách thi cho đến khi ngân hàng câu hỏi đủ:
              </p>
              <ul>
                {data.short_books.map((book) => (
                  <li key={book.id}>
                    <Link href={`~/quan-tri/sach/${book.id}`}>{book.name}</Link> ({book.class_group}): {book.questions}/{data.questions_per_exam} câu
                  </li>
                ))}
              </ul>
            </section>
          )}
          <Totals data={data} />
          <HourChart className="admin-card" hours={data.started_per_hour} />
          <AutosaveHealthCard data={data} />
          <Breakdown title={say('Theo quận/huyện')} rows={data.districts} />
          {data.former_provinces.length > 0 && <Breakdown title="Theo tỉnh cũ" rows={data.former_provinces} />}
          <Breakdown title="Theo khối lớp" rows={data.class_groups} />
          <section className="admin-card" aria-labelledby="exam-days-schools">
            <h2 id="exam-days-schools">Theo trường</h2>
            <form className="admin-toolbar" role="search" aria-label="Tìm trường" onSubmit={search}>
              <TextField label={say('Tên trường hoặc quận/huyện')} type="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
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
    ['Đang thi', t.in_progress, 'figure-tile-live'],
    ['Bắt đầu thi hôm nay', t.started_today],
    ['Nộp bài hôm nay', t.finished_today],
    ['Lượt thi từ đầu kỳ', t.started_total],
    ['Bài đã nộp từ đầu kỳ', t.finished_total],
    ['Phụ huynh đã đăng ký', t.parents],
    ['Thí sinh đã đăng ký', t.contestants],
  ];
  return (
    <Figures
      className="figure-tiles"
      itemClassName="figure-tile"
      testId="exam-days-totals"
      figures={tiles.map(([label, value, className]) => [label, formatNumber(value), className] as const)}
    />
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
        <Figures
          className="figure-tiles"
          itemClassName="figure-tile"
          figures={[
            ['Lượt lưu mỗi phút', formatNumber(a.saves_per_minute)],
            ['Được xác nhận trong 2 giây', share],
            ['Lượt lưu bị từ chối (503) mỗi phút', formatNumber(a.rejected_per_minute)],
            ['Yêu cầu bị giảm tải (503) mỗi phút', formatNumber(a.shed_per_minute)],
          ]}
        />
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
  const say = useUnitWords();
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(row) => row.id}
      empty="Không có dữ liệu."
      columns={[
        { header: 'Tên', rowHeader: true, cell: (row) => row.name },
        withDistrict && { header: say('Quận/huyện'), cell: (row) => row.district },
        { header: 'Thí sinh', numeric: true, cell: (row) => formatNumber(row.contestants) },
        { header: 'Đang thi', numeric: true, cell: (row) => formatNumber(row.in_progress) },
        { header: 'Bắt đầu hôm nay', numeric: true, cell: (row) => formatNumber(row.started_today) },
        { header: 'Nộp bài hôm nay', numeric: true, cell: (row) => formatNumber(row.finished_today) },
      ]}
    />
  );
}
