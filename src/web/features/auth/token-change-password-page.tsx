// /doi-mat-khau/{token}: a one-time link from the organisers. The link is exchanged once for a
// session (GET /api/customer/change-password), which then sets the new password.
import { useEffect, useState } from 'react';
import type { ResetTokenResponse } from '../../../shared/schemas/auth';
import { api } from '../../lib/api-client';
import { Link, useParams } from '../../lib/router';
import { setSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { NewPasswordForm } from './new-password-form';
import './auth.css';

// The exchange uses the link up: one request per link per page load, even when React's
// development mode mounts the screen twice.
const exchanges = new Map<string, Promise<ResetTokenResponse>>();
function exchange(token: string) {
  let pending = exchanges.get(token);
  if (!pending) {
    pending = api.get<ResetTokenResponse>(`/customer/change-password?token=${encodeURIComponent(token)}`);
    exchanges.set(token, pending);
  }
  return pending;
}

export function TokenChangePasswordPage() {
  usePageTitle('Đổi mật khẩu');
  const { token = '' } = useParams<{ token: string }>();
  const [state, setState] = useState<{ token: string; status: 'ready' | 'failed'; message?: string }>();

  useEffect(() => {
    let current = true;
    exchange(token).then(
      (response) => {
        setSession(response.token, response.user);
        if (current) setState({ token, status: 'ready' });
      },
      (error: unknown) => {
        console.warn('Không dùng được liên kết đổi mật khẩu', error);
        if (current) setState({ token, status: 'failed', message: error instanceof Error ? error.message : undefined });
      },
    );
    return () => {
      current = false;
    };
  }, [token]);
  const status = state?.token === token ? state : undefined;

  return (
    <div className="container page with-side">
      <nav className="side-menu" aria-label="Tài khoản">
        <Link href="/tai-khoan">Tài khoản</Link>
        <Link href="/doi-mat-khau" aria-current="page">
          Đổi mật khẩu
        </Link>
      </nav>
      <section className="card auth-card" aria-labelledby="token-password-title" aria-busy={!status}>
        <h1 id="token-password-title">Đổi mật khẩu</h1>
        {status?.status === 'failed' ? (
          // A dead link: no form to fill in vain, only the ways to a new password.
          <>
            <p className="alert alert-error" role="alert">
              {status.message}
            </p>
            <p>Bạn có thể tự đặt lại mật khẩu bằng mã OTP gửi qua SMS tới số điện thoại của tài khoản, hoặc liên hệ Ban tổ chức để nhận liên kết mới.</p>
            <Link className="btn btn-block" href="/quen-mat-khau">
              Đặt lại mật khẩu bằng mã OTP
            </Link>
          </>
        ) : (
          <NewPasswordForm label="Mật khẩu mới" submitLabel="Cập nhật" disabled={status?.status !== 'ready'} />
        )}
      </section>
    </div>
  );
}
