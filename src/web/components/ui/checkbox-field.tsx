// A labelled checkbox with its error tied to it (consent boxes: never pre-ticked by the caller).
import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';
import './checkbox-field.css';

export const CheckboxField = forwardRef<HTMLInputElement, { label: ReactNode; error?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>>(
  function CheckboxField({ label, error, id, ...input }, ref) {
    const generated = useId();
    const fieldId = id ?? generated;
    return (
      <div className="checkbox-field" data-invalid={error ? 'true' : undefined}>
        <div className="checkbox-field-row">
          <input
            ref={ref}
            id={fieldId}
            type="checkbox"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${fieldId}-error` : undefined}
            {...input}
          />
          <label htmlFor={fieldId}>{label}</label>
        </div>
        {error && (
          <span id={`${fieldId}-error`} className="field-error" role="alert">
            {error}
          </span>
        )}
      </div>
    );
  },
);
