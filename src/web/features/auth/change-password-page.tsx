// /doi-mat-khau: a logged-in customer sets a new password (other sessions end on the server),
// giving the current one, unless the session was just opened by an SMS code (forgot password).
import { useState } from 'react';
import { messages } from '../../../shared/messages';
import { usePageTitle } from '../../lib/use-page-title';
import { AccountSideMenu } from '../../components/account-side-menu';
import { NewPasswordForm } from './new-password-form';
import { useRequireAuth } from '../../lib/use-require-auth';
import { isPasswordReset } from './password-reset-hint';
import './auth.css';

export function ChangePasswordPage() {
  usePageTitle('Đổi mật khẩu');
  const session = useRequireAuth(messages.pleaseLogin);
  const [afterForgotPassword] = useState(isPasswordReset);
  if (!session) return <div className="container page" />;
  return (
    <div className="container page with-side">
      <AccountSideMenu />
      <section className="card auth-card" aria-labelledby="change-password-title">
        <h1 id="change-password-title">Đổi mật khẩu</h1>
        <NewPasswordForm label="Mật khẩu mới" submitLabel="Cập nhật" askCurrent={!afterForgotPassword} />
      </section>
    </div>
  );
}
