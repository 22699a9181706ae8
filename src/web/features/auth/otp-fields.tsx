// The phone field with its 'Gửi OTP' button, and the code field: shared by register and forgot password.
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Button } from '../../components/ui/button';
import { PhoneField, TextField } from '../../components/ui/field';
import type { useOtpButton } from './use-otp-button';

type OtpButton = Pick<ReturnType<typeof useOtpButton>, 'send' | 'busy' | 'sentMessage' | 'secondsLeft'>;

export function PhoneWithOtpButton({
  registration,
  error,
  otp,
  disabled,
}: {
  registration: UseFormRegisterReturn<'phone'>;
  error?: string;
  otp: OtpButton;
  disabled?: boolean;
}) {
  const waiting = otp.secondsLeft > 0;
  return (
    <PhoneField
      {...registration}
      error={error}
      message={otp.sentMessage}
      action={
        <Button variant="outline" onClick={() => void otp.send()} disabled={otp.busy || waiting || disabled}>
          {waiting ? `Gửi lại (${otp.secondsLeft} giây)` : 'Gửi OTP'}
        </Button>
      }
    />
  );
}

export function OtpCodeField({ registration, error }: { registration: UseFormRegisterReturn<'otp'>; error?: string }) {
  return (
    <TextField
      label="Mã OTP (có hiệu lực trong 10 phút)"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      {...registration}
      error={error}
    />
  );
}
