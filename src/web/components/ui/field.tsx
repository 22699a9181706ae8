// Labelled form fields with their error tied to the control (aria-describedby).
import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

interface FieldProps {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  /** A success message under the field (e.g. "OTP sent"). */
  message?: ReactNode;
  /** A button beside the control (e.g. 'Gửi OTP'); the hint and messages go under both. */
  action?: ReactNode;
}

function FieldFrame({ id, label, error, hint, message, action, children }: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div className="field" data-invalid={error ? 'true' : undefined}>
      <label htmlFor={id}>{label}</label>
      {action ? (
        <div className="field-row">
          {children}
          {action}
        </div>
      ) : (
        children
      )}
      {hint && <span id={`${id}-hint`} className="field-hint">{hint}</span>}
      {message && !error && <span className="field-message" role="status">{message}</span>}
      {error && <span id={`${id}-error`} className="field-error" role="alert">{error}</span>}
    </div>
  );
}

const describedBy = (id: string, error?: string, hint?: ReactNode) =>
  [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;

export const TextField = forwardRef<HTMLInputElement, FieldProps & InputHTMLAttributes<HTMLInputElement>>(function TextField(
  { label, error, hint, message, action, id, ...input },
  ref,
) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <FieldFrame id={fieldId} label={label} error={error} hint={hint} message={message} action={action}>
      <input ref={ref} id={fieldId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(fieldId, error, hint)} {...input} />
    </FieldFrame>
  );
});

/** The account's phone number (log-in, register, forgotten password): a tel field the browser can fill in. */
export const PhoneField = forwardRef<HTMLInputElement, Omit<FieldProps, 'label'> & InputHTMLAttributes<HTMLInputElement>>(function PhoneField(props, ref) {
  return <TextField ref={ref} label="Số điện thoại" type="tel" inputMode="tel" autoComplete="tel" {...props} />;
});

/** Text of several lines (a question about a poem keeps its line breaks). */
export const TextAreaField = forwardRef<HTMLTextAreaElement, FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>>(function TextAreaField(
  { label, error, hint, message, id, ...textarea },
  ref,
) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <FieldFrame id={fieldId} label={label} error={error} hint={hint} message={message}>
      <textarea ref={ref} id={fieldId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(fieldId, error, hint)} {...textarea} />
    </FieldFrame>
  );
});

export const SelectField = forwardRef<HTMLSelectElement, FieldProps & SelectHTMLAttributes<HTMLSelectElement>>(function SelectField(
  { label, error, hint, message, id, children, ...select },
  ref,
) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <FieldFrame id={fieldId} label={label} error={error} hint={hint} message={message}>
      <select ref={ref} id={fieldId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(fieldId, error, hint)} {...select}>
        {children}
      </select>
    </FieldFrame>
  );
});
