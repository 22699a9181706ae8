// The pieces every back-office form repeats: a dialog's Huỷ / Lưu row, and a refused save shown
// under the form's own fields or, failing that, as an error notice.
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../components/ui/notices';
import { errorMessage, showServerFieldErrors } from '../../../lib/server-errors';

export function DialogFormActions({ onCancel, busy, submitLabel = 'Lưu' }: { onCancel: () => void; busy: boolean; submitLabel?: string }) {
  return (
    <div className="modal-actions">
      <Button variant="outline" onClick={onCancel}>
        Huỷ
      </Button>
      <Button type="submit" disabled={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}

/** The server's field errors under `fields`; any other refusal as a notice titled `title`. */
export function reportSaveError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  title: string,
  durationMs?: number,
): void {
  if (showServerFieldErrors(error, setError, fields) === 0) notify('error', title, errorMessage(error), durationMs);
}
