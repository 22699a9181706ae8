// The "Gửi OTP" button (spec sections 4 and 8): disabled while the request is in flight; after
// a failed field check it comes back after 1 s; a sent code shows the server's message under the
// phone field, a refusal shows the errors per field. After a code is sent the button counts down
// the server's cooldown (resend_after, seconds) and the "sent" message stays.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { accountMessages } from '../../../shared/messages';
import { OTP_BUTTON_REENABLE_MS } from '../../../shared/rules';
import type { SendOtpRequest, SendOtpResponse } from '../../../shared/schemas/auth';
import { api, ApiRequestError } from '../../lib/api-client';
import { showServerFieldErrors } from '../../lib/server-errors';

/** Seconds left until `until` (a Date.now() value), ticking every second; 0 once passed. */
function useSecondsLeft(until: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined) return;
    setNow(Date.now());
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until === undefined ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

const cooldownOf = (error: unknown) =>
  error instanceof ApiRequestError && typeof error.body.resend_after === 'number' ? error.body.resend_after : undefined;

export function useOtpButton<T extends FieldValues>(
  form: UseFormReturn<T>,
  options: { checkFields: Path<T>[]; errorFields: Path<T>[]; request: (values: T) => SendOtpRequest },
) {
  const [busy, setBusy] = useState(false);
  const [sentMessage, setSentMessage] = useState<string>();
  const [resendAt, setResendAt] = useState<number>();
  const secondsLeft = useSecondsLeft(resendAt);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const { checkFields, errorFields, request } = options;

  const send = useCallback(async () => {
    setBusy(true);
    form.clearErrors(errorFields);
    const valid = await form.trigger(checkFields, { shouldFocus: true });
    if (!valid) {
      setSentMessage(undefined);
      timer.current = setTimeout(() => setBusy(false), OTP_BUTTON_REENABLE_MS);
      return;
    }
    try {
      const response = await api.post<SendOtpResponse>('/send-otp', request(form.getValues()));
      setSentMessage(response.message);
      setResendAt(Date.now() + response.resend_after * 1000);
    } catch (error) {
      const wait = cooldownOf(error);
      if (wait !== undefined) {
        // A code was sent a moment ago (e.g. before a reload): it is still valid; count down
        // instead of showing a "wait N seconds" that would not move.
        setSentMessage(accountMessages.otpRecentlySent);
        setResendAt(Date.now() + wait * 1000);
      } else {
        setSentMessage(undefined);
        if (showServerFieldErrors(error, form.setError, errorFields) === 0) {
          form.setError(checkFields[0]!, { type: 'server', message: error instanceof Error ? error.message : undefined });
        }
      }
    } finally {
      setBusy(false);
    }
  }, [form, checkFields, errorFields, request]);

  return { send, busy, sentMessage, secondsLeft };
}
