// The "Gửi OTP" button (spec sections 4 and 8): disabled while the request is in flight; after
// a failed field check it comes back after 1 s; a sent code shows the server's message under the
// phone field, a refusal shows the errors per field.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { OTP_BUTTON_REENABLE_MS } from '../../../shared/rules';
import type { MessageResponse, SendOtpRequest } from '../../../shared/schemas/auth';
import { api } from '../../lib/api-client';
import { showServerFieldErrors } from './server-errors';

export function useOtpButton<T extends FieldValues>(
  form: UseFormReturn<T>,
  options: { checkFields: Path<T>[]; errorFields: Path<T>[]; request: (values: T) => SendOtpRequest },
) {
  const [busy, setBusy] = useState(false);
  const [sentMessage, setSentMessage] = useState<string>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const { checkFields, errorFields, request } = options;

  const send = useCallback(async () => {
    setBusy(true);
    setSentMessage(undefined);
    form.clearErrors(errorFields);
    const valid = await form.trigger(checkFields, { shouldFocus: true });
    if (!valid) {
      timer.current = setTimeout(() => setBusy(false), OTP_BUTTON_REENABLE_MS);
      return;
    }
    try {
      const response = await api.post<MessageResponse>('/send-otp', request(form.getValues()));
      setSentMessage(response.message);
    } catch (error) {
      if (showServerFieldErrors(error, form.setError, errorFields) === 0) {
        form.setError(checkFields[0]!, { type: 'server', message: error instanceof Error ? error.message : undefined });
      }
    } finally {
      setBusy(false);
    }
  }, [form, checkFields, errorFields, request]);

  return { send, busy, sentMessage };
}
