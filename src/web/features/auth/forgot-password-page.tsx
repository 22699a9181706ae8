// /quen-mat-khau (PageForgotPassword): the code sent by SMS logs the user in; they then set a new
// password on /doi-mat-khau (after 1 s).
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { NOTICE_MS, REDIRECT_AFTER_FORGOT_PASSWORD_MS } from '../../../shared/rules';
import type { AuthResponse, ForgotPasswordRequest } from '../../../shared/schemas/auth';
import { Button } from '../../components/ui/button';
import { notify } from '../../components/ui/notices';
import { api } from '../../lib/api-client';
import { Link, useNavigate } from '../../lib/router';
import { setSession } from '../../lib/session';
import { lazyZodResolver } from '../../lib/lazy-resolver';
import { usePageTitle } from '../../lib/use-page-title';
import { errorMessage, showServerFieldErrors } from '../../lib/server-errors';
import { OtpCodeField, PhoneWithOtpButton } from './otp-fields';
import { useOtpButton } from './use-otp-button';
import { markPasswordReset } from './password-reset-hint';
import './auth.css';

type Values = { phone: string; otp: string };
const FIELDS = ['phone', 'otp'] as const;
const OTP_CHECK: 'phone'[] = ['phone'];
const check = lazyZodResolver(() => import('../../../shared/schemas/auth').then((schemas) => schemas.forgotPasswordRequestSchema));
const otpRequest = (values: ForgotPasswordRequest) => ({ phone: values.phone });

export function ForgotPasswordPage() {
  usePageTitle('Quên mật khẩu');
  const navigate = useNavigate();
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);
  const form = useForm<ForgotPasswordRequest, unknown, Values>({
    resolver: check.resolver,
    defaultValues: { phone: '', otp: '' },
  });
  const { register, handleSubmit, formState } = form;
  const otp = useOtpButton(form, { checkFields: OTP_CHECK, errorFields: [...FIELDS], request: otpRequest });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const response = await api.post<AuthResponse>('/forgot-password', values);
      setSession(response.access_token, response.user);
      // /doi-mat-khau then sets the new password without the forgotten one.
      markPasswordReset();
      notify('success', response.message, undefined, NOTICE_MS);
      redirect.current = setTimeout(() => navigate('/doi-mat-khau'), REDIRECT_AFTER_FORGOT_PASSWORD_MS);
    } catch (error) {
      // A field's error shows under that field only; other failures in the error toast.
      if (showServerFieldErrors(error, form.setError, FIELDS) === 0) notify('error', errorMessage(error), undefined, NOTICE_MS);
    }
  });

  return (
    <div className="container page auth-page">
      <section className="card auth-card" aria-labelledby="forgot-title">
        <h1 id="forgot-title">Quên mật khẩu</h1>
        <p className="auth-lead muted">Nhập số điện thoại đã đăng ký để nhận mã OTP, sau đó đặt mật khẩu mới.</p>
        {/* post: sent before the app has started (decision 034), the form never puts what was typed in the address */}
        <form method="post" onSubmit={onSubmit} onFocus={check.warm} noValidate>
          <PhoneWithOtpButton registration={register('phone')} error={formState.errors.phone?.message} otp={otp} />
          <OtpCodeField registration={register('otp')} error={formState.errors.otp?.message} />
          <div className="auth-actions">
            <Button type="submit" block disabled={formState.isSubmitting || formState.isSubmitSuccessful}>
              Gửi
            </Button>
          </div>
          <div className="auth-links">
            <Link href="/dang-nhap">Đăng nhập</Link>
            <Link href="/dang-ky">Đăng ký</Link>
          </div>
        </form>
      </section>
    </div>
  );
}
