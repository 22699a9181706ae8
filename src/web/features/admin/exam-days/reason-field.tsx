// The required reason of an incident action (kept in the audit log): a labelled text area.
import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { incidentLimits } from '../../../../shared/schemas/admin-exam-days';

export function ReasonField({ registration, error }: { registration: UseFormRegisterReturn; error?: string }) {
  const id = useId();
  return (
    <div className="field" data-invalid={error ? 'true' : undefined}>
      <label htmlFor={id}>Lý do (bắt buộc, ghi vào nhật ký)</label>
      <textarea
        id={id}
        rows={3}
        maxLength={incidentLimits.reasonMax}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...registration}
      />
      {error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
