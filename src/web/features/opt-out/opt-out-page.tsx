// /tu-choi/:token: the link at the end of each message to a family. Opening it changes nothing
// (a link previewer or a curious tap must not opt a family out); the button does.
import { useState } from 'react';
import { useParams } from 'wouter';
import { Button } from '../../components/ui/button';
import { api } from '../../lib/api-client';
import { errorMessage } from '../../lib/server-errors';
import { usePageTitle } from '../../lib/use-page-title';
import { useApiData } from '../../lib/use-data';

interface OptOutState {
  opted_out: boolean;
  masked_phone: string;
}

export function OptOutPage() {
  usePageTitle('Từ chối nhận tin nhắn');
  const { token = '' } = useParams<{ token: string }>();
  const state = useApiData<OptOutState>(/^[A-Za-z0-9_-]{12}$/.test(token) ? `/opt-out/${token}` : null);
  const [done, setDone] = useState<OptOutState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const shown = done ?? state.data;

  async function optOut() {
    setBusy(true);
    setFailure(null);
    try {
      setDone((await api.post<{ data: OptOutState }>(`/opt-out/${token}`)).data);
    } catch (error) {
      setFailure(errorMessage(error) ?? 'Không lưu được. Vui lòng thử lại.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="container page">
      <h1>Từ chối nhận tin nhắn</h1>
      {state.message && <p role="alert">{state.message}</p>}
      {!/^[A-Za-z0-9_-]{12}$/.test(token) && <p role="alert">Đường dẫn từ chối nhận tin không đúng hoặc đã hết hiệu lực.</p>}
      {shown && shown.opted_out && (
        <p role="status">
          Số điện thoại {shown.masked_phone} sẽ không nhận tin nhắn thông báo của Ban tổ chức nữa. Mã xác thực khi đăng nhập, đổi mật khẩu vẫn được gửi khi bạn yêu cầu.
        </p>
      )}
      {shown && !shown.opted_out && (
        <>
          <p>
            Bấm nút dưới đây nếu bạn không muốn số điện thoại {shown.masked_phone} nhận tin nhắn thông báo (SMS, Zalo) của Ban tổ chức cuộc thi nữa. Mã xác thực khi đăng nhập, đổi
            mật khẩu vẫn được gửi khi bạn yêu cầu.
          </p>
          {failure && <p role="alert">{failure}</p>}
          <Button variant="danger" disabled={busy} onClick={() => void optOut()}>
            Không nhận tin nhắn nữa
          </Button>
        </>
      )}
    </div>
  );
}
