// "Dữ liệu của tôi" on /tai-khoan (issue 15): the parent's copy (JSON and a readable page) and
// the deletion of the account, confirmed by a code sent by SMS to the account's phone.
import { useState } from 'react';
import { privacyMessages } from '../../../shared/messages';
import { NOTICE_MS } from '../../../shared/rules';
import type { MessageResponse, SendOtpResponse } from '../../../shared/schemas/auth';
import type { MyDataResponse } from '../../../shared/schemas/privacy';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { notify } from '../../components/ui/notices';
import { api, ApiRequestError } from '../../lib/api-client';
import { fetchCertificateBlob, saveBlob } from '../../lib/certificate-files';
import { useNavigate } from '../../lib/router';
import { clearSession } from '../../lib/session';
import { errorMessage } from '../../lib/server-errors';

export function MyDataSection() {
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const download = async (format: 'json' | 'html') => {
    setBusy(true);
    try {
      if (format === 'json') {
        const response = await api.get<MyDataResponse>('/customer/my-data');
        saveBlob(new Blob([JSON.stringify(response.data, null, 2)], { type: 'application/json' }), 'du-lieu-cua-toi.json');
      } else {
        saveBlob(await fetchCertificateBlob('/api/customer/my-data.html'), 'du-lieu-cua-toi.html');
      }
    } catch {
      notify('error', privacyMessages.downloadFailed, undefined, NOTICE_MS);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card my-data" aria-labelledby="my-data-title">
      <h2 id="my-data-title">Dữ liệu của tôi</h2>
      <p className="muted">
        Bản sao mọi thông tin cuộc thi lưu về tài khoản và các thí sinh của bạn. Xem thêm{' '}
        <a href="/chinh-sach-bao-mat">Chính sách bảo mật</a>.
      </p>
      <div className="my-data-actions">
        <Button variant="outline" onClick={() => download('json')} disabled={busy}>
          Tải dữ liệu của tôi
        </Button>
        <Button variant="outline" onClick={() => download('html')} disabled={busy}>
          Tải bản dễ đọc (HTML)
        </Button>
        <Button variant="danger" onClick={() => setDeleting(true)}>
          Xoá tài khoản
        </Button>
      </div>
      {deleting && <DeleteAccountDialog onClose={() => setDeleting(false)} />}
    </section>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [sent, setSent] = useState<string>();
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const sendCode = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setSent((await api.post<SendOtpResponse>('/customer/delete-account/send-otp')).message);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const response = await api.post<MessageResponse>('/customer/delete-account', { otp: otp.trim() });
      clearSession();
      notify('success', response.message, undefined, NOTICE_MS);
      navigate('/');
    } catch (failure) {
      setError(failure instanceof ApiRequestError ? (failure.errors.otp ?? failure.message) : errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <Modal
      title="Xoá tài khoản?"
      onClose={onClose}
      role="alertdialog"
      actions={
        <>
          <Button variant="outline" onClick={onClose}>
            Không xoá
          </Button>
          {sent ? (
            <Button variant="danger" onClick={confirm} disabled={busy}>
              Xoá vĩnh viễn
            </Button>
          ) : (
            <Button variant="danger" onClick={sendCode} disabled={busy}>
              Gửi mã xác nhận
            </Button>
          )}
        </>
      }
    >
      <p>
        Thí sinh chưa thi sẽ bị xoá hẳn. Thí sinh đã thi được xoá tên, điểm số được giữ ẩn danh để bảng xếp hạng và thống kê của trường
        không thay đổi. Giấy chứng nhận của con vẫn tra cứu được bằng mã, nhưng không còn tên của con: trang tra cứu ghi rằng thông tin đã
        được xoá theo yêu cầu của gia đình. Bạn sẽ bị đăng xuất trên mọi thiết bị và không thể khôi phục tài khoản.
      </p>
      {sent && <p role="status">{sent}</p>}
      {sent ? (
        <TextField
          label="Mã xác nhận (6 chữ số)"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={otp}
          onChange={(event) => setOtp(event.target.value)}
          error={error}
        />
      ) : (
        error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )
      )}
    </Modal>
  );
}
