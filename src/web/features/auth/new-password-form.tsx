// The new-password form of both change-password screens. Success: popup 'Thành công', form
// cleared, /tai-khoan when it closes (1.5 s); failure or network error: popup 'Thất bại' (spec
// section 8).
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { messages } from '../../../shared/messages';
import { changePasswordRequestSchema, type ChangePasswordRequest, type MessageResponse } from '../../../shared/schemas/auth';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { usePopup } from '../../components/ui/popup';
import { api } from '../../lib/api-client';
import { useNavigate } from '../../lib/router';
import { showServerFieldErrors } from '../../lib/server-errors';

export function NewPasswordForm({ label, submitLabel, disabled }: { label: string; submitLabel: string; disabled?: boolean }) {
  const navigate = useNavigate();
  const succeeded = useRef(false);
  const popup = usePopup(() => {
    if (succeeded.current) navigate('/tai-khoan');
  });
  const form = useForm<ChangePasswordRequest, unknown, { password: string }>({
    resolver: zodResolver(changePasswordRequestSchema),
    defaultValues: { password: '' },
  });
  const { register, handleSubmit, formState } = form;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await api.post<MessageResponse>('/customer/change-password', values);
      succeeded.current = true;
      form.reset({ password: '' });
      popup.show({ kind: 'success', title: messages.successTitle, message: messages.changePasswordSuccess });
    } catch (error) {
      showServerFieldErrors(error, form.setError, ['password']);
      popup.show({ kind: 'error', title: messages.failedTitle, message: messages.changePasswordFailed });
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
      {popup.element}
    </form>
  );
}
