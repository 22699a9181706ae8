// The login again, in place, over a screen whose session ended elsewhere (a password changed, a
// logout on another phone, the oldest of too many sessions ended: the API answers 401). The screen
// stays as it was underneath, with what was typed; nothing closes the dialog but a successful login
// (Escape and the backdrop do nothing), so nothing is lost by a stray tap. Used by the exam screen
// and the back office.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { messages } from '../../shared/messages';
import type { AuthResponse } from '../../shared/schemas/auth';
import { api } from '../lib/api-client';
import { keepTabInside } from '../lib/focus';
import { setSession } from '../lib/session';
import { errorMessage, showServerFieldErrors } from '../lib/server-errors';
import { LoginFields, useLoginForm } from './login-fields';
import { Button } from './ui/button';

export function ReloginDialog({
  title,
  text,
  submitLabel,
  phone,
  className,
  children,
  onLoggedIn,
}: {
  title: string;
  text: string;
  submitLabel: string;
  /** The account's phone, shown read-only (a login as someone else is not what is asked). */
  phone?: string;
  className?: string;
  /** More to say under the text (the exam's time left). */
  children?: ReactNode;
  onLoggedIn: (answer: AuthResponse) => void;
}) {
  const titleId = useId();
  const textId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useLoginForm(phone);
  const { handleSubmit, formState, setFocus } = form;

  // Focus into the dialog on open, back where it was on close.
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    setFocus(phone ? 'password' : 'phone');
    return () => previous?.focus?.({ preventScroll: true });
  }, [phone, setFocus]);

  // Tab and Shift+Tab stay inside the dialog; Escape does nothing (the screen cannot go on without a login).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      return;
    }
    if (dialogRef.current) keepTabInside(event, dialogRef.current);
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const response = await api.post<AuthResponse>('/login', values, { keepSession: true });
      setSession(response.access_token, response.user);
      onLoggedIn(response);
    } catch (error) {
      showServerFieldErrors(error, form.setError, ['phone', 'password']);
      setFailure(errorMessage(error) ?? messages.serverError);
    }
  });

  return (
    <div className={['modal-backdrop', className].filter(Boolean).join(' ')}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={textId} ref={dialogRef} onKeyDown={onKeyDown}>
        <h2 id={titleId}>{title}</h2>
        <p id={textId}>{text}</p>
        {children}
        {failure && (
          <p className="alert alert-error" role="alert">
            {messages.loginFailedTitle}. {failure}
          </p>
        )}
        <form onSubmit={onSubmit} noValidate>
          <LoginFields form={form} phoneReadOnly={Boolean(phone)} />
          <Button type="submit" block disabled={formState.isSubmitting}>
            {submitLabel}
          </Button>
        </form>
      </div>
    </div>
  );
}
