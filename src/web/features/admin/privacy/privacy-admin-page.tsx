// /quan-tri/du-lieu-ca-nhan: the record of processing activities (printable), how long personal
// data is kept and what the daily job removed, and the anonymised statistics to keep first.
// Requests by phone (a copy, a deletion) are carried out from the account's page.
import { useState } from 'react';
import { Link } from 'wouter';
import { formatDate, formatDateTime, formatNumber } from '../../../../shared/format';
import type { PrivacyOverview } from '../../../../shared/schemas/admin-privacy';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../components/ui/notices';
import { fetchCertificateBlob, saveBlob } from '../../../lib/certificate-files';
import { usePageTitle } from '../../../lib/use-page-title';
import { useApiData } from '../../../lib/use-data';
import './privacy-admin.css';
import { DataTable } from '../../../components/ui/data-table';

export function PrivacyAdminPage() {
  usePageTitle('Dữ liệu cá nhân');
  const { data, message: error, loading } = useApiData<PrivacyOverview>('/admin/privacy');
  const [downloading, setDownloading] = useState(false);

  async function downloadStatistics() {
    setDownloading(true);
    try {
      saveBlob(await fetchCertificateBlob('/api/admin/privacy/statistics.xlsx'), 'thong-ke-an-danh.xlsx');
    } catch {
      notify('error', 'Không tải được thống kê. Vui lòng thử lại.');
    } finally {
      setDownloading(false);
    }
  }

  return (
    <section className="admin-page privacy-admin">
      <h1>Dữ liệu cá nhân</h1>
      {error && <p role="alert">{error}</p>}
      {loading && !data && <p aria-busy="true">Đang tải…</p>}
      {data && (
        <>
          <div className="admin-card">
            <h2>Thời hạn lưu trữ</h2>
            <p>
              Dữ liệu cá nhân được lưu <strong>{data.retention.months} tháng</strong> sau ngày công bố kết quả
              {data.retention.results_at && ` (${formatDate(data.retention.results_at)})`}
              {data.retention.ends_at && (
                <>
                  , tức đến <strong>{formatDate(data.retention.ends_at)}</strong> với các tài khoản tham gia cuộc thi hiện tại
                </>
              )}
              . Đổi thời hạn trong <Link href="~/quan-tri/cuoc-thi">Cài đặt cuộc thi</Link>.
            </p>
            <p>
              Mỗi ngày, hệ thống xoá các tài khoản đã quá hạn (tên thí sinh được ẩn danh, điểm được giữ cho thống kê) và nhật ký thao tác cũ hơn thời hạn.
              Hiện có <strong>{formatNumber(data.retention.due_accounts)}</strong> tài khoản đã quá hạn chờ xoá.
            </p>
            <p>Trước khi dữ liệu được xoá, hãy tải thống kê ẩn danh của từng trường (không có họ tên, số điện thoại) để lưu lại.</p>
            <div className="admin-actions">
              <Button onClick={() => void downloadStatistics()} disabled={downloading}>
                Tải thống kê ẩn danh (.xlsx)
              </Button>
            </div>
            <RetentionRuns runs={data.retention.runs} />
          </div>
          <div className="admin-card">
            <h2>Số liệu</h2>
            <dl className="privacy-counts">
              <dt>Tài khoản phụ huynh</dt>
              <dd>{formatNumber(data.counts.parents)}</dd>
              <dt>Đã đồng ý chính sách hiện hành</dt>
              <dd>{formatNumber(data.counts.parents_consented_current)}</dd>
              <dt>Thí sinh</dt>
              <dd>{formatNumber(data.counts.contestants)}</dd>
              <dt>Thí sinh đã ẩn danh</dt>
              <dd>{formatNumber(data.counts.contestants_anonymised)}</dd>
              <dt>Tài khoản đã xoá</dt>
              <dd>{formatNumber(data.counts.accounts_deleted)}</dd>
              <dt>Giải thưởng lưu hồ sơ</dt>
              <dd>{formatNumber(data.counts.prize_records)}</dd>
            </dl>
            <p>
              Yêu cầu sao chép hay xoá dữ liệu qua điện thoại: tìm tài khoản theo số điện thoại trong <Link href="~/quan-tri/tai-khoan">Tài khoản</Link>, rồi
              dùng mục “Yêu cầu về dữ liệu cá nhân” và ghi lý do.
            </p>
          </div>
          <article className="admin-card privacy-record" aria-labelledby="privacy-record-title">
            <h2 id="privacy-record-title">{data.record.title}</h2>
            <p className="privacy-record-date">Lập lúc {formatDateTime(data.record.generated_at)}</p>
            {data.record.sections.map((section) => (
              <section key={section.title}>
                <h3>{section.title}</h3>
                <ul>
                  {section.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              </section>
            ))}
            <div className="admin-actions no-print">
              <Button variant="outline" onClick={() => window.print()}>
                In hồ sơ
              </Button>
            </div>
          </article>
        </>
      )}
    </section>
  );
}

function RetentionRuns({ runs }: { runs: PrivacyOverview['retention']['runs'] }) {
  if (runs.length === 0) return <p>Chưa có lần xoá dữ liệu quá hạn nào.</p>;
  return (
    <DataTable
      caption="Các lần xoá dữ liệu quá hạn gần đây"
      captionClass=""
      rows={runs}
      rowKey={(run) => run.ran_at}
      columns={[
        { header: 'Lúc', cell: (run) => formatDateTime(run.ran_at) },
        { header: 'Tài khoản đã xoá', cell: (run) => formatNumber(run.accounts_erased) },
        { header: 'Thí sinh ẩn danh', cell: (run) => formatNumber(run.contestants_anonymised) },
        { header: 'Thí sinh đã xoá', cell: (run) => formatNumber(run.contestants_deleted) },
        { header: 'Mục nhật ký đã xoá', cell: (run) => formatNumber(run.audit_entries_deleted) },
      ]}
    />
  );
}
