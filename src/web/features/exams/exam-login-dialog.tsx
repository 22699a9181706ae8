// The parent's login over a running exam, when the session ended elsewhere (a password changed or
// a logout on another phone: the API answers 401). The exam stays on screen and its clock runs;
// the answers wait on the device and are saved once the parent is back. Nothing closes it but a
// successful login: Escape and the backdrop do nothing, so nothing is lost by a stray tap.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { messages } from '../../../shared/messages';
import type { AuthResponse } from '../../../shared/schemas/auth';
import { LoginFields, useLoginForm } from '../../components/login-fields';
import { Button } from '../../components/ui/button';
import { api } from '../../lib/api-client';
import { keepTabInside } from '../../lib/focus';
import { setSession } from '../../lib/session';
import { errorMessage, showServerFieldErrors } from '../../lib/server-errors';

export const examLoginTexts = {
  title: 'Phụ huynh vui lòng đăng nhập lại',
  text: 'Phiên đăng nhập đã kết thúc (có thể do đổi mật khẩu hoặc đăng xuất trên thiết bị khác). Bài làm của em vẫn được giữ trên máy này và sẽ được lưu ngay sau khi phụ huynh đăng nhập.',
  timeLeft: 'Thời gian làm bài vẫn đang tính, còn lại',
  submit: 'Đăng nhập và làm tiếp',
} as const;

export function ExamLoginDialog({ phone, timeLeft, onLoggedIn }: { phone?: string; timeLeft?: string; onLoggedIn: () => void }) {
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

  // Tab and Shift+Tab stay inside the dialog; Escape does nothing (the exam cannot go on without a login).
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
      onLoggedIn();
    } catch (error) {
      showServerFieldErrors(error, form.setError, ['phone', 'password']);
      setFailure(errorMessage(error) ?? messages.serverError);
    }
  });

  return (
    <div className="modal-backdrop exam-login-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={textId} ref={dialogRef} onKeyDown={onKeyDown}>
        <h2 id={titleId}>{examLoginTexts.title}</h2>
        <p id={textId}>{examLoginTexts.text}</p>
        {timeLeft && (
          <p className="exam-login-time">
            {examLoginTexts.timeLeft} <time>{timeLeft}</time>
          </p>
        )}
        {failure && (
          <p className="alert alert-error" role="alert">
            {messages.loginFailedTitle}. {failure}
          </p>
        )}
        <form onSubmit={onSubmit} noValidate>
          <LoginFields form={form} phoneReadOnly={Boolean(phone)} />
          <Button type="submit" block disabled={formState.isSubmitting}>
            {examLoginTexts.submit}
          </Button>
        </form>
      </div>
    </div>
  );
}
