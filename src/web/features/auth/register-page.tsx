// /dang-ky (PageRegister): phone, password and the code sent by SMS; success logs the parent in.
import { useForm } from 'react-hook-form';
import { privacyMessages } from '../../../shared/messages';
import { NOTICE_MS } from '../../../shared/rules';
import type { AuthResponse, RegisterRequest } from '../../../shared/schemas/auth';
import { Button } from '../../components/ui/button';
import { CheckboxField } from '../../components/ui/checkbox-field';
import { TextField } from '../../components/ui/field';
import { notify } from '../../components/ui/notices';
import { api } from '../../lib/api-client';
import { Link, useNavigate } from '../../lib/router';
import { setSession } from '../../lib/session';
import { lazyZodResolver } from '../../lib/lazy-resolver';
import { usePageTitle } from '../../lib/use-page-title';
import { errorMessage, showServerFieldErrors } from '../../lib/server-errors';
import { OtpCodeField, PhoneWithOtpButton } from './otp-fields';
import { useOtpButton } from './use-otp-button';
import { useRedirectIfLoggedIn } from './use-redirect-if-logged-in';
import './auth.css';

type Values = { phone: string; password: string; otp: string; consent: boolean };
const FIELDS = ['phone', 'password', 'otp', 'consent'] as const;
const OTP_CHECK: ('phone' | 'password')[] = ['phone', 'password'];
const check = lazyZodResolver(() => import('../../../shared/schemas/auth').then((schemas) => schemas.registerRequestSchema));
const otpRequest = (values: RegisterRequest) => ({ phone: values.phone, password: values.password, is_register: 1 as const });

export function RegisterPage() {
  usePageTitle('Đăng ký');
  const loggedIn = useRedirectIfLoggedIn();
  const navigate = useNavigate();
  const form = useForm<RegisterRequest, unknown, Values>({
    resolver: check.resolver,
    // The consent box starts unticked: the parent ticks it knowingly.
    defaultValues: { phone: '', password: '', otp: '', consent: false },
  });
  const { register, handleSubmit, formState } = form;
  const otp = useOtpButton(form, { checkFields: OTP_CHECK, errorFields: [...FIELDS], request: otpRequest });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const response = await api.post<AuthResponse>('/register', values);
      setSession(response.access_token, response.user);
      notify('success', response.message, undefined, NOTICE_MS);
      navigate('/tai-khoan');
    } catch (error) {
      if (showServerFieldErrors(error, form.setError, FIELDS) === 0) notify('error', errorMessage(error), undefined, NOTICE_MS);
    }
  });

  return (
    <div className="container page auth-page">
      <section className="card auth-card" aria-labelledby="register-title">
        <h1 id="register-title">Đăng ký tài khoản</h1>
        <p className="auth-lead muted">Phụ huynh đăng ký bằng số điện thoại để đăng ký thí sinh dự thi.</p>
        {/* post: sent before the app has started (decision 034), the form never puts what was typed in the address */}
        <form method="post" onSubmit={onSubmit} onFocus={check.warm} noValidate>
          <PhoneWithOtpButton registration={register('phone')} error={formState.errors.phone?.message} otp={otp} disabled={loggedIn} />
          <TextField
            label="Mật khẩu"
            type="password"
            autoComplete="new-password"
            hint="Ít nhất 6 ký tự."
            {...register('password')}
            error={formState.errors.password?.message}
          />
          <OtpCodeField registration={register('otp')} error={formState.errors.otp?.message} />
          <CheckboxField
            label={
              <>
                {privacyMessages.consentLabel}{' '}
                {/* A new tab: the form keeps what was typed. */}
                <a href="/chinh-sach-bao-mat" target="_blank" rel="noopener">
                  Đọc Chính sách bảo mật
                </a>
              </>
            }
            {...register('consent')}
            error={formState.errors.consent?.message}
          />
          <div className="auth-actions">
            <Button type="submit" block disabled={formState.isSubmitting || loggedIn}>
              Tạo tài khoản
            </Button>
          </div>
          <div className="auth-links">
            <span>
              Đã có tài khoản? <Link href="/dang-nhap">Đăng nhập</Link>
            </span>
          </div>
        </form>
      </section>
    </div>
  );
}
