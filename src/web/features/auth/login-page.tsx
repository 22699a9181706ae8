// /dang-nhap (PageLogin): phone and password; success stores the session and goes to /tai-khoan
// (the organiser to /quan-tri, the education offices' viewers to /so-giao-duc).
import { messages } from '../../../shared/messages';
import type { AuthResponse } from '../../../shared/schemas/auth';
import { LoginFields, useLoginForm, warmLoginCheck } from '../../components/login-fields';
import { Button } from '../../components/ui/button';
import { usePopup } from '../../components/ui/popup';
import { api } from '../../lib/api-client';
import { Link, useNavigate } from '../../lib/router';
import { setSession, startPathOf } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { errorMessage, showServerFieldErrors } from '../../lib/server-errors';
import { useRedirectIfLoggedIn } from './use-redirect-if-logged-in';
import './auth.css';

export function LoginPage() {
  usePageTitle('Đăng nhập');
  const loggedIn = useRedirectIfLoggedIn();
  const navigate = useNavigate();
  const form = useLoginForm();
  const { handleSubmit, formState } = form;
  // After the failure popup, the password is the field to type again.
  const failure = usePopup(() => form.setFocus('password'));

  const onSubmit = handleSubmit(async (values) => {
    try {
      const response = await api.post<AuthResponse>('/login', values);
      setSession(response.access_token, response.user);
      // The organiser's work is in the back office, the education offices' in their area; everyone else starts at their account.
      navigate(startPathOf(response.user.role));
    } catch (error) {
      // Field errors under the fields; anything else (wrong password, too many tries) in the
      // 'Đăng nhập thất bại' popup (spec section 8), never both.
      if (showServerFieldErrors(error, form.setError, ['phone', 'password']) === 0) {
        failure.show({ kind: 'error', title: messages.loginFailedTitle, message: errorMessage(error) });
      }
    }
  });

  return (
    <div className="container page auth-page">
      <section className="card auth-card" aria-labelledby="login-title">
        <h1 id="login-title">Đăng nhập</h1>
        {/* post: sent before the app has started (decision 034), the form never puts what was typed in the address */}
        <form method="post" onSubmit={onSubmit} onFocus={warmLoginCheck} noValidate>
          <LoginFields form={form} />
          <div className="auth-actions">
            <Button type="submit" block disabled={formState.isSubmitting || loggedIn}>
              Đăng nhập
            </Button>
            <p className="auth-divider">Bạn chưa có tài khoản? Hãy đăng ký để tham gia cuộc thi.</p>
            <Link href="/dang-ky" className="btn btn-outline btn-block">
              Đăng ký
            </Link>
          </div>
          <div className="auth-links">
            <Link href="/quen-mat-khau">Quên mật khẩu?</Link>
          </div>
        </form>
      </section>
      {failure.element}
    </div>
  );
}
