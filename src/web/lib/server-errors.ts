// Field errors of an API answer ({errors: {phone: '...'}}) shown under the form's own fields.
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiRequestError } from './api-client';

/** Sets the errors whose key is one of `fields`; returns how many it set. */
export function showServerFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields: readonly Path<T>[]): number {
  if (!(error instanceof ApiRequestError)) return 0;
  let shown = 0;
  for (const [key, message] of Object.entries(error.errors)) {
    if ((fields as readonly string[]).includes(key)) {
      setError(key as Path<T>, { type: 'server', message }, { shouldFocus: shown === 0 });
      shown += 1;
    }
  }
  return shown;
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : undefined);
