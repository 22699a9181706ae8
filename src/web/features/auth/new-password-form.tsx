// The new-password form of both change-password screens. Success: popup 'Thành công', form
// cleared, /tai-khoan after 1.5 s; failure or network error: popup 'Thất bại' (spec section 8).
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { messages } from '../../../shared/messages';
import { NOTICE_MS } from '../../../shared/rules';
import { changePasswordRequestSchema, type ChangePasswordRequest, type MessageResponse } from '../../../shared/schemas/auth';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { notify } from '../../components/ui/notices';
import { api } from '../../lib/api-client';
import { useNavigate } from '../../lib/router';
import { showServerFieldErrors } from './server-errors';

export function NewPasswordForm({ label, submitLabel, disabled }: { label: string; submitLabel: string; disabled?: boolean }) {
  const navigate = useNavigate();
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);
  const form = useForm<ChangePasswordRequest, unknown, { password: string }>({
    resolver: zodResolver(changePasswordRequestSchema),
    defaultValues: { password: '' },
  });
  const { register, handleSubmit, formState } = form;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await api.post<MessageResponse>('/customer/change-password', values);
      notify('success', messages.successTitle, messages.changePasswordSuccess, NOTICE_MS);
      form.reset({ password: '' });
      redirect.current = setTimeout(() => navigate('/tai-khoan'), NOTICE_MS);
    } catch (error) {
      showServerFieldErrors(error, form.setError, ['password']);
      notify('error', messages.failedTitle, messages.changePasswordFailed, NOTICE_MS);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <TextField
        label={label}
        type="password"
        autoComplete="new-password"
        hint="Ít nhất 6 ký tự."
        {...register('password')}
        error={formState.errors.password?.message}
      />
      <Button type="submit" disabled={disabled || formState.isSubmitting}>
        {submitLabel}
      </Button>
    </form>
  );
}
