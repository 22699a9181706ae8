// On a parent's account page: a request made by phone call (a copy of the data, the deletion of
// the account), carried out by the organiser with a reason that goes into the audit log.
import { useState } from 'react';
import { privacyAdminMessages, privacyRequestSchema } from '../../../../shared/schemas/admin-privacy';
import type { MyData } from '../../../../shared/schemas/privacy';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { saveBlob } from '../../../lib/certificate-files';
import { api, ApiRequestError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import '../../../lib/zod-messages'; // Vietnamese messages for the issues of safeParse below

export function PrivacyRequests({ account, onErased }: { account: { id: number; phone: string }; onErased: () => void }) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [confirmErase, setConfirmErase] = useState(false);
  const [busy, setBusy] = useState(false);

  /** The reason, checked by the same rule as the server's; undefined when it is not acceptable. */
  function checkedReason(): string | undefined {
    const parsed = privacyRequestSchema.safeParse({ reason });
    setProblem(parsed.success ? undefined : parsed.error.issues[0]?.message);
    return parsed.success ? parsed.data.reason : undefined;
  }

  async function run(action: 'copy' | 'erase') {
    const checked = checkedReason();
    if (!checked) return;
    setBusy(true);
    try {
      if (action === 'copy') {
        const answer = await api.post<{ data: MyData }>(`/admin/privacy/accounts/${account.id}/copy`, { reason: checked });
        saveBlob(new Blob([JSON.stringify(answer.data, null, 2)], { type: 'application/json' }), `du-lieu-tai-khoan-${account.id}.json`);
        notify('success', privacyAdminMessages.copied);
      } else {
        const answer = await api.post<{ message: string; data: { contestants_deleted: number; contestants_anonymised: number } }>(
          `/admin/privacy/accounts/${account.id}/erase`,
          { reason: checked },
        );
        notify('success', answer.message, `Đã xoá ${answer.data.contestants_deleted} thí sinh chưa thi, ẩn danh ${answer.data.contestants_anonymised} thí sinh đã thi.`);
        onErased();
      }
      setReason('');
    } catch (caught) {
      if (caught instanceof ApiRequestError) setProblem(caught.errors.reason);
      notify('error', 'Không thực hiện được', errorMessage(caught));
    } finally {
      setBusy(false);
      setConfirmErase(false);
    }
  }

  return (
    <div className="admin-card">
      <h2>Yêu cầu về dữ liệu cá nhân</h2>
      <p>Khi phụ huynh gọi điện yêu cầu bản sao dữ liệu hoặc xoá tài khoản, hãy xác minh người gọi là chủ số điện thoại, ghi lý do rồi thực hiện.</p>
      <TextField
        label="Lý do (ghi vào nhật ký thao tác)"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        placeholder="Phụ huynh gọi điện ngày 25/11 yêu cầu…"
        maxLength={500}
        error={problem}
      />
      <div className="admin-actions">
        <Button variant="outline" disabled={busy} onClick={() => void run('copy')}>
          Tải bản sao dữ liệu (JSON)
        </Button>
        <Button variant="danger" disabled={busy} onClick={() => checkedReason() && setConfirmErase(true)}>
          Xoá tài khoản theo yêu cầu
        </Button>
      </div>
      {confirmErase && (
        <Modal
          title="Xoá tài khoản theo yêu cầu?"
          role="alertdialog"
          describe
          onClose={() => setConfirmErase(false)}
          actions={
            <>
              <Button variant="outline" onClick={() => setConfirmErase(false)}>
                Huỷ
              </Button>
              <Button variant="danger" disabled={busy} onClick={() => void run('erase')}>
                Xoá tài khoản
              </Button>
            </>
          }
        >
          <p>
            Tài khoản {account.phone} sẽ bị xoá và đăng xuất ngay. Thí sinh chưa thi bị xoá; thí sinh đã thi được ẩn danh (điểm giữ lại cho thống kê và xếp hạng).
            Không thể hoàn tác.
          </p>
        </Modal>
      )}
    </div>
  );
}
