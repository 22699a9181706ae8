// The new-password form of both change-password screens. From an ordinary session it also asks
// for the current password (a stolen session must not keep the account); the one-time link and a
// session just opened by an SMS code do not. Success: popup 'Thành công', form cleared,
// /tai-khoan when it closes (1.5 s); failure or network error: popup 'Thất bại' (spec section 8).
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../lib/zod-resolver';
import { messages } from '../../../shared/messages';
import { changePasswordRequestSchema, currentPasswordSchema, type ChangePasswordRequest, type MessageResponse } from '../../../shared/schemas/auth';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { usePopup } from '../../components/ui/popup';
import { api, ApiRequestError } from '../../lib/api-client';
import { useNavigate } from '../../lib/router';
import { showServerFieldErrors } from '../../lib/server-errors';
import { clearPasswordReset } from './password-reset-hint';
import { accountPathOf, getSession, roleOf } from '../../lib/session';

type Values = { password: string; current_password?: string | undefined };
// The field is empty, not absent, when it is not shown: leave it out of the check.
const withoutCurrent = changePasswordRequestSchema.omit({ current_password: true });
const withCurrent = changePasswordRequestSchema.extend({ current_password: currentPasswordSchema });

export function NewPasswordForm({ label, submitLabel, disabled, askCurrent = false }: { label: string; submitLabel: string; disabled?: boolean; askCurrent?: boolean }) {
  const navigate = useNavigate();
  const succeeded = useRef(false);
  const popup = usePopup(() => {
    if (succeeded.current) navigate(accountPathOf(roleOf(getSession())));
  });
  // The server may ask for the current password even where the screen thought it would not.
  const [asking, setAsking] = useState(askCurrent);
  const askingNow = useRef(asking);
  askingNow.current = asking;
  const form = useForm<ChangePasswordRequest, unknown, Values>({
    resolver: (values, context, options) => zodResolver<ChangePasswordRequest, unknown, Values>(askingNow.current ? withCurrent : withoutCurrent)(values, context, options),
    defaultValues: { password: '', current_password: '' },
  });
  const { register, handleSubmit, formState } = form;

  const onSubmit = handleSubmit(async (values) => {
    try {
      // The spec's reset sends `password` alone.
      const body = askingNow.current ? { password: values.password, current_password: values.current_password } : { password: values.password };
      await api.post<MessageResponse>('/customer/change-password', body);
      succeeded.current = true;
      clearPasswordReset();
      form.reset({ password: '', current_password: '' });
      popup.show({ kind: 'success', title: messages.successTitle, message: messages.changePasswordSuccess });
    } catch (error) {
      if (error instanceof ApiRequestError && error.errors.current_password && !askingNow.current) setAsking(true);
      showServerFieldErrors(error, form.setError, ['current_password', 'password']);
      popup.show({ kind: 'error', title: messages.failedTitle, message: messages.changePasswordFailed });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      {asking && (
        <TextField
          label="Mật khẩu hiện tại"
          type="password"
          autoComplete="current-password"
          {...register('current_password')}
          error={formState.errors.current_password?.message}
        />
      )}
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
