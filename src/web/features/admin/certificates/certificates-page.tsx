// /quan-tri/giay-chung-nhan: how far the background drawing of the certificates is (refreshed by
// itself), the drawings that failed, and finding a certificate by code or holder to revoke it
// with a reason.
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import type { z } from 'zod';
import { formatNumber } from '../../../../shared/format';
import { revokeCertificateSchema, type AdminCertificate, type CertificateProgress } from '../../../../shared/schemas/admin-certificates';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { DialogFormActions, reportSaveError } from '../kit/form-parts';
import { useApiData } from '../../../lib/use-data';
import { DataTable } from '../../../components/ui/data-table';
import { Figures } from '../../../components/ui/figures';
import './certificates.css';

const REFRESH_MS = 5_000;

/** "khoảng 12 phút", "dưới 1 phút", "khoảng 1 giờ 5 phút". */
export function timeLeft(seconds: number): string {
  if (seconds < 60) return 'dưới 1 phút';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `khoảng ${minutes} phút`;
  return `khoảng ${Math.floor(minutes / 60)} giờ ${minutes % 60} phút`;
}

export function CertificatesAdminPage() {
  usePageTitle('Giấy chứng nhận');
  const [version, setVersion] = useState(0);
  return (
    <section className="admin-page">
      <h1>Giấy chứng nhận</h1>
      <RenderingProgress version={version} />
      <RevokeSection onRevoked={() => setVersion((v) => v + 1)} />
    </section>
  );
}

function RenderingProgress({ version }: { version: number }) {
  const { data, message: error, reload } = useApiData<CertificateProgress>('/admin/certificates/progress', version);
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  if (error && !data) return <p className="alert alert-error" role="alert">{error}</p>;
  if (!data) return <p className="muted">Đang tải…</p>;
  const share = data.total > 0 ? Math.floor((data.ready / data.total) * 100) : 0;
  return (
    <section className="certificate-progress" aria-labelledby="certificate-progress-title">
      <h2 id="certificate-progress-title">Tiến độ vẽ giấy chứng nhận</h2>
      <p role="status" className="certificate-status">
        {!data.published
          ? 'Kết quả chưa được công bố: giấy chứng nhận giải thưởng sẽ được cấp và vẽ sau khi công bố.'
          : !data.issued
            ? 'Đang cấp giấy chứng nhận cho thí sinh và trường…'
            : data.pending > 0
              ? 'Đang vẽ giấy chứng nhận…'
              : 'Mọi giấy chứng nhận đã sẵn sàng để tải.'}
      </p>
      <progress className="certificate-bar" max={Math.max(data.total, 1)} value={data.ready} aria-label={`Đã sẵn sàng ${share}%`} />
      <Figures
        className="certificate-stats"
        figures={[
          ['Tổng số', formatNumber(data.total)],
          ['Đã sẵn sàng', formatNumber(data.ready)],
          ['Đang chờ vẽ', formatNumber(data.pending)],
          ['Lỗi', formatNumber(data.failed)],
          ['Đã thu hồi', formatNumber(data.revoked)],
          ['Tốc độ', `${formatNumber(data.per_minute, data.per_minute > 0 && data.per_minute < 10 ? 1 : 0)} giấy/phút`],
          ['Thời gian còn lại', data.seconds_left === null ? '—' : timeLeft(data.seconds_left)],
        ]}
      />
      {data.failures.length > 0 && (
        <DataTable
          caption="Giấy chứng nhận vẽ lỗi"
          captionClass=""
          rows={data.failures}
          rowKey={(failure) => failure.code}
          columns={[
            { header: 'Mã', cell: (failure) => failure.code },
            { header: 'Người nhận', cell: (failure) => failure.holder },
            { header: 'Số lần thử', numeric: true, cell: (failure) => failure.attempts },
            {
              header: 'Lỗi',
              cell: (failure) => (
                <>
                  {failure.error}
                  <span className="muted"> — {failure.retrying ? 'sẽ thử lại' : 'đã dừng thử lại (gia đình vẫn tải được: giấy được vẽ khi mở)'}</span>
                </>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}

function RevokeSection({ onRevoked }: { onRevoked: () => void }) {
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [searches, setSearches] = useState(0);
  const [revoking, setRevoking] = useState<AdminCertificate | undefined>();
  const found = useApiData<AdminCertificate[]>(query ? `/admin/certificates?q=${encodeURIComponent(query)}` : null, searches);
  return (
    <section aria-labelledby="certificate-search-title">
      <h2 id="certificate-search-title">Tìm và thu hồi giấy chứng nhận</h2>
      <form
        className="admin-toolbar"
        role="search"
        aria-label="Tìm giấy chứng nhận"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(draft.trim());
          setSearches((n) => n + 1);
        }}
      >
        <TextField label="Mã chứng nhận hoặc tên người nhận" type="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
        <Button type="submit">Tìm</Button>
      </form>
      {found.message && <p className="alert alert-error" role="alert">{found.message}</p>}
      {query && found.data && found.data.length === 0 && <p className="muted">Không tìm thấy giấy chứng nhận nào.</p>}
      {query && found.data && found.data.length > 0 && (
        <DataTable
          caption="Giấy chứng nhận tìm thấy"
          rows={found.data}
          rowKey={(certificate) => certificate.code}
          columns={[
            { header: 'Mã', cell: (certificate) => certificate.code },
            { header: 'Giấy chứng nhận', cell: (certificate) => certificate.title },
            {
              header: 'Người nhận',
              cell: (certificate) => (
                <>
                  {certificate.holder}
                  {certificate.school && <span className="muted"> — {certificate.school}</span>}
                </>
              ),
            },
            { header: 'Ngày cấp', cell: (certificate) => certificate.issued_at },
            {
              header: 'Trạng thái',
              cell: (certificate) =>
                certificate.revoked_at ? (
                  <>
                    Đã thu hồi ngày {certificate.revoked_at}
                    <span className="muted"> — {certificate.revoked_reason}</span>
                    {certificate.replaced_by && <span> Giấy mới: {certificate.replaced_by}</span>}
                  </>
                ) : certificate.ready ? (
                  'Sẵn sàng'
                ) : (
                  'Đang chờ vẽ'
                ),
            },
            {
              header: <span className="visually-hidden">Thao tác</span>,
              cell: (certificate) =>
                !certificate.revoked_at && (
                  <Button variant="outline" onClick={() => setRevoking(certificate)} aria-label={`Thu hồi ${certificate.code}`}>
                    Thu hồi
                  </Button>
                ),
            },
          ]}
        />
      )}
      {revoking && (
        <RevokeDialog
          certificate={revoking}
          onClose={() => setRevoking(undefined)}
          onRevoked={() => {
            setRevoking(undefined);
            setSearches((n) => n + 1);
            onRevoked();
          }}
        />
      )}
    </section>
  );
}

function RevokeDialog({ certificate, onClose, onRevoked }: { certificate: AdminCertificate; onClose: () => void; onRevoked: () => void }) {
  const form = useForm<z.input<typeof revokeCertificateSchema>, unknown, z.output<typeof revokeCertificateSchema>>({
    resolver: zodResolver(revokeCertificateSchema),
    defaultValues: { reason: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { data: revoked } = await api.post<{ data: AdminCertificate }>(`/admin/certificates/${encodeURIComponent(certificate.code)}/revoke`, values);
      notify(
        'success',
        'Đã thu hồi giấy chứng nhận',
        revoked.replaced_by
          ? `${certificate.code}: người nhận vẫn giữ giải và được cấp giấy mới mã ${revoked.replaced_by} (đang vẽ, sẵn sàng trong giây lát).`
          : `${certificate.code}: người nhận không còn được cấp giấy này.`,
      );
      onRevoked();
    } catch (error) {
      reportSaveError(error, form.setError, ['reason'], 'Không thu hồi được');
    }
  });
  return (
    <Modal title={`Thu hồi giấy chứng nhận ${certificate.code}`} onClose={onClose}>
      <p>
        {certificate.title} — {certificate.holder}. Sau khi thu hồi, mã {certificate.code} hết giá trị: gia đình không tải được giấy này nữa và trang xác minh sẽ báo giấy
        đã bị thu hồi (không hiện lý do).
      </p>
      <p>
        Thu hồi giấy <strong>không rút giải</strong>: người nhận vẫn giữ giải và tiền thưởng, và được cấp giấy mới với mã mới (ví dụ khi giấy in sai). Muốn rút giải, dùng
        “Rút giải” ở trang Kết quả và giải thưởng.
      </p>
      <form onSubmit={onSubmit} noValidate>
        <TextField label="Lý do thu hồi (chỉ Ban tổ chức xem được)" {...form.register('reason')} error={form.formState.errors.reason?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} submitLabel="Thu hồi" />
      </form>
    </Modal>
  );
}
