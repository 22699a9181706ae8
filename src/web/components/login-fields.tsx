// The login form's state and its two fields, shared by the login page and the exam screen's
// login dialog (a session that ended during an exam).
import { useForm, type UseFormReturn } from 'react-hook-form';
import type { LoginRequest } from '../../shared/schemas/auth';
import { lazyZodResolver } from '../lib/lazy-resolver';
import { PhoneField, TextField } from './ui/field';

export type LoginForm = UseFormReturn<LoginRequest, unknown, { phone: string; password: string }>;

const login = lazyZodResolver(() => import('../../shared/schemas/auth').then((schemas) => schemas.loginRequestSchema));
/** For the form's onFocus: fetches the check before the first submit. */
export const warmLoginCheck = login.warm;

/** A login form checked by the shared schema, the phone filled in when known. */
export function useLoginForm(phone = ''): LoginForm {
  return useForm<LoginRequest, unknown, { phone: string; password: string }>({
    resolver: login.resolver,
    defaultValues: { phone, password: '' },
  });
}

/** Phone and password, with their field errors; the phone is read-only when it is the account's. */
export function LoginFields({ form, phoneReadOnly = false }: { form: LoginForm; phoneReadOnly?: boolean }) {
  const { register, formState } = form;
  return (
    <>
      <PhoneField readOnly={phoneReadOnly} {...register('phone')} error={formState.errors.phone?.message} />
      <TextField
        label="Mật khẩu"
        type="password"
        autoComplete="current-password"
        {...register('password')}
        error={formState.errors.password?.message}
      />
    </>
  );
}
