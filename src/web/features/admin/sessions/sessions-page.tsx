// /quan-tri/phien-dang-nhap: the live sessions of the organiser's account, which browser and from
// where. The account is often shared by an office; a new login past MAX_LIVE_SESSIONS_PER_USER
// ends the oldest, so the list says so and lets a session be ended on purpose instead.
import { useState } from 'react';
import { formatDateTime } from '../../../../shared/format';
import { MAX_LIVE_SESSIONS_PER_USER } from '../../../../shared/rules';
import type { LiveSession } from '../../../../shared/schemas/auth';
import { Button } from '../../../components/ui/button';
import { api } from '../../../lib/api-client';
import { useApiData } from '../../../lib/use-data';
import { usePageTitle } from '../../../lib/use-page-title';
import { describeUserAgent } from '../../../lib/user-agent';
import { ConfirmDialog } from '../kit/confirm-dialog';
import { DataTable } from '../../../components/ui/data-table';

export function SessionsPage() {
  usePageTitle('Phiên đăng nhập');
  const [version, setVersion] = useState(0);
  const [ending, setEnding] = useState<LiveSession | null>(null);
  const list = useApiData<LiveSession[]>('/sessions', version);

  return (
    <section className="admin-page">
      <h1>Phiên đăng nhập</h1>
      <p>
        Các trình duyệt đang đăng nhập bằng tài khoản này. Mỗi tài khoản giữ tối đa {MAX_LIVE_SESSIONS_PER_USER} phiên: lần đăng nhập tiếp theo sẽ kết
        thúc phiên cũ nhất. Kết thúc những phiên không còn dùng để người đang làm việc không bị đăng xuất bất ngờ.
      </p>
      <DataTable
        caption="Các phiên đăng nhập, mới nhất trước"
        rows={list.data}
        loading={list.loading}
        error={list.message}
        rowKey={(session) => session.id}
        empty="Không có phiên đăng nhập nào."
        columns={[
          {
            header: 'Trình duyệt',
            rowHeader: true,
            cell: (session) => (
              <>
                {describeUserAgent(session.user_agent)}
                {session.current && <strong> (phiên này)</strong>}
              </>
            ),
          },
          { header: 'Địa chỉ IP', cell: (session) => session.ip ?? 'Không rõ' },
          { header: 'Đăng nhập lúc', cell: (session) => formatDateTime(session.created_at) },
          { header: 'Hết hạn lúc', cell: (session) => formatDateTime(session.expires_at) },
          {
            header: 'Thao tác',
            cell: (session) =>
              session.current ? null : (
                <Button variant="outline" onClick={() => setEnding(session)} aria-label={`Kết thúc phiên ${describeUserAgent(session.user_agent)}, đăng nhập lúc ${formatDateTime(session.created_at)}`}>
                  Kết thúc
                </Button>
              ),
          },
        ]}
      />
      {ending && (
        <ConfirmDialog
          title="Kết thúc phiên đăng nhập này?"
          confirmLabel="Kết thúc phiên"
          done={['Đã kết thúc phiên đăng nhập']}
          failed="Không kết thúc được phiên"
          onConfirm={async () => {
            await api.post(`/sessions/${ending.id}/end`);
            setVersion((n) => n + 1);
          }}
          onClose={() => setEnding(null)}
        >
          <p>
            {describeUserAgent(ending.user_agent)}, địa chỉ {ending.ip ?? 'không rõ'}, đăng nhập lúc {formatDateTime(ending.created_at)}. Người đang dùng
            phiên này sẽ phải đăng nhập lại.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
