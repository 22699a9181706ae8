// One account: who it is, whether it is locked, a parent's contestants and their exams; issue a
// set-password link, lock or unlock (with a confirmation).
import { useState } from 'react';
import { Link } from 'wouter';
import { formatDate, formatDateTime, formatNumber } from '../../../../shared/format';
import type { AccountContestant, AccountDetail, PasswordLink } from '../../../../shared/schemas/admin-accounts';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { useParams } from '../../../lib/router';
import { usePageTitle } from '../../../lib/use-page-title';
import { useApiData } from '../../../lib/use-data';
import { ConfirmDialog } from '../kit/confirm-dialog';
import { DataTable } from '../../../components/ui/data-table';
import { roleLabel } from './account-list';
import { PasswordLinks } from './password-links';
import { PrivacyRequests } from '../privacy';

type Confirm = 'lock' | 'unlock' | 'link' | null;

export function AccountDetailPage() {
  const { id } = useParams<{ id: string }>();
  const { data: account, message: error, loading, reload } = useApiData<AccountDetail>(`/admin/accounts/${encodeURIComponent(id)}`);
  usePageTitle(account ? `Tài khoản ${account.phone}` : 'Tài khoản');
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [link, setLink] = useState<{ link: PasswordLink; smsSent: boolean } | null>(null);

  async function act(action: Exclude<Confirm, null>, phone: string, accountId: number) {
    if (action === 'link') {
      const answer = await api.post<{ data: PasswordLink & { sms_sent: boolean } }>(`/admin/accounts/${accountId}/reset-link`);
      setLink({ link: { phone: answer.data.phone, url: answer.data.url }, smsSent: answer.data.sms_sent });
      notify('success', 'Đã tạo liên kết đặt mật khẩu', answer.data.sms_sent ? `Đã gửi SMS tới ${answer.data.phone}.` : 'Không gửi được SMS: hãy gửi liên kết bằng cách khác.');
    } else {
      const answer = await api.post<{ data: { sessions_ended: number } }>(`/admin/accounts/${accountId}/${action}`);
      notify(
        'success',
        action === 'lock' ? 'Đã khoá tài khoản' : 'Đã mở khoá tài khoản',
        action === 'lock' ? `${phone}: kết thúc ${answer.data.sessions_ended} phiên đăng nhập.` : phone,
      );
      setLink(null);
      reload();
    }
  }

  return (
    <section className="admin-page">
      <p>
        <Link href="/">← Danh sách tài khoản</Link>
      </p>
      <h1>{account ? `Tài khoản ${account.phone}` : 'Tài khoản'}</h1>
      {error && <p role="alert">{error}</p>}
      {loading && !account && <p aria-busy="true">Đang tải…</p>}
      {account && (
        <>
          <div className="admin-card">
            <dl className="account-facts">
              <dt>Số điện thoại</dt>
              <dd>{account.phone}</dd>
              <dt>Họ tên</dt>
              <dd>{account.name || '—'}</dd>
              <dt>Loại tài khoản</dt>
              <dd>{roleLabel(account.role)}</dd>
              {account.school_name && (
                <>
                  <dt>Trường</dt>
                  <dd>
                    {account.school_name} ({account.district_name})
                  </dd>
                </>
              )}
              {account.scope !== null && (
                <>
                  <dt>Phạm vi xem</dt>
                  <dd>{account.scope}</dd>
                </>
              )}
              <dt>Ngày tạo</dt>
              <dd>{formatDate(account.created_at)}</dd>
              <dt>Trạng thái</dt>
              <dd>
                {account.locked_at ? (
                  <span className="account-state-locked">Đã khoá từ {formatDateTime(account.locked_at)}</span>
                ) : (
                  `Hoạt động (${account.live_sessions} phiên đăng nhập)`
                )}
              </dd>
            </dl>
            <div className="admin-actions">
              {!account.locked_at && (
                <Button onClick={() => setConfirm('link')}>
                  Tạo liên kết đặt mật khẩu
                </Button>
              )}
              {account.locked_at ? (
                <Button variant="outline" onClick={() => setConfirm('unlock')}>
                  Mở khoá tài khoản
                </Button>
              ) : (
                <Button variant="danger" onClick={() => setConfirm('lock')}>
                  Khoá tài khoản
                </Button>
              )}
            </div>
            {link && (
              <div role="status">
                <PasswordLinks links={[link.link]} smsFailed={link.smsSent ? [] : [link.link.phone]} />
              </div>
            )}
          </div>
          {account.role === 'parent' && <Contestants contestants={account.contestants} />}
          {account.role === 'parent' && <PrivacyRequests account={account} onErased={reload} />}
        </>
      )}
      {confirm && account && (
        <ConfirmDialog
          title={confirmTexts[confirm].title}
          confirmLabel={confirmTexts[confirm].button}
          confirmVariant={confirm === 'lock' ? 'danger' : 'primary'}
          done={null}
          failed="Không thực hiện được"
          onConfirm={() => act(confirm, account.phone, account.id)}
          onClose={() => setConfirm(null)}
        >
          <p>{confirmTexts[confirm].text(account.phone)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

const confirmTexts = {
  lock: {
    title: 'Khoá tài khoản?',
    button: 'Khoá',
    text: (phone: string) => `Tài khoản ${phone} sẽ bị đăng xuất ngay trên mọi thiết bị và không thể đăng nhập, lấy mã OTP hay dùng liên kết đặt mật khẩu cho tới khi được mở khoá.`,
  },
  unlock: { title: 'Mở khoá tài khoản?', button: 'Mở khoá', text: (phone: string) => `Tài khoản ${phone} sẽ đăng nhập lại được bằng mật khẩu của mình.` },
  link: {
    title: 'Tạo liên kết đặt mật khẩu?',
    button: 'Tạo và gửi SMS',
    text: (phone: string) => `Một liên kết dùng một lần (hết hạn sau 72 giờ) sẽ được gửi qua SMS tới ${phone} và hiện ở đây để bạn sao chép. Liên kết cũ (nếu có) sẽ hết hiệu lực.`,
  },
} as const;

function Contestants({ contestants }: { contestants: AccountContestant[] }) {
  return (
    <div className="admin-card">
      <h2>Thí sinh ({contestants.length})</h2>
      {contestants.length === 0 && <p>Tài khoản chưa đăng ký thí sinh nào.</p>}
      {contestants.map((contestant) => (
        <div className="account-contestant" key={contestant.id}>
          <h3>
            {contestant.position}. {contestant.fullname} — lớp {contestant.class_name}, {contestant.school}
          </h3>
          {contestant.exams.length === 0 ? (
            <p>Chưa dự thi.</p>
          ) : (
            <DataTable
              caption={`Bài thi của ${contestant.fullname}`}
              rows={contestant.exams}
              rowKey={(exam) => exam.id}
              columns={[
                { header: 'Lượt', cell: (exam) => exam.attempt },
                { header: 'Sách', cell: (exam) => exam.book },
                { header: 'Trạng thái', cell: (exam) => (exam.status === 1 ? 'Đã nộp' : 'Đang làm') },
                { header: 'Điểm', numeric: true, cell: (exam) => (exam.points === null ? '—' : formatNumber(exam.points)) },
                { header: 'Bắt đầu', cell: (exam) => formatDateTime(exam.start_time) },
                { header: 'Nộp bài', cell: (exam) => (exam.submitted_at ? formatDateTime(exam.submitted_at) : '—') },
              ]}
            />
          )}
        </div>
      ))}
    </div>
  );
}
