// Merging one catalogue entry into another (a district, a school, a class room): choose where it
// goes, see what would move (counted by the server for that choice), then merge. Everything that
// used it moves, then it is deleted; a merge the server refuses says why before it is tried.
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { mergeInputSchema } from '../../../../shared/schemas/admin-catalog';
import { reportSaveError } from '../kit/form-parts';

export function MergeDialog({
  title,
  path,
  intro,
  before,
  targetLabel,
  targetPlaceholder,
  targets,
  summary,
  counting,
  submitLabel,
  done,
  className,
  onTargetChange,
  refusal,
  onClose,
  onMerged,
}: {
  title: string;
  /** POST {path}/merge with {into_id}. */
  path: string;
  intro: ReactNode;
  /** Fields above the target's select (e.g. the district the target is in). */
  before?: ReactNode;
  targetLabel: string;
  targetPlaceholder: string;
  /** Where it may go (itself already left out). */
  targets: readonly { id: number; name: string }[];
  /** What would move; undefined while the server counts (the merge waits for it). */
  summary: ReactNode | undefined;
  counting: string;
  submitLabel: string;
  done: [string, string];
  className?: string;
  /** The chosen target's id ('' for none), for a summary counted for that target. */
  onTargetChange?: (id: string) => void;
  /** Why the server would refuse this merge: shown, and the merge button is disabled. */
  refusal?: string | null;
  onClose: () => void;
  onMerged: () => void;
}) {
  const form = useForm<z.input<typeof mergeInputSchema>, unknown, z.output<typeof mergeInputSchema>>({
    resolver: zodResolver(mergeInputSchema),
    defaultValues: { into_id: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await api.post(`${path}/merge`, values);
      notify('success', ...done);
      onMerged();
    } catch (error) {
      reportSaveError(error, form.setError, ['into_id'], 'Không gộp được', 12_000);
    }
  });
  return (
    <Modal title={title} onClose={onClose} className={className}>
      <form onSubmit={onSubmit} noValidate>
        <p>{intro}</p>
        {before}
        <SelectField
          label={targetLabel}
          {...form.register('into_id', { onChange: (event: { target: { value: string } }) => onTargetChange?.(event.target.value) })}
          error={form.formState.errors.into_id?.message}
        >
          <option value="">{targetPlaceholder}</option>
          {targets.map((target) => (
            <option key={target.id} value={target.id}>
              {target.name}
            </option>
          ))}
        </SelectField>
        <div className="admin-merge-summary" aria-live="polite" aria-busy={summary === undefined}>
          {summary ?? <p>{counting}</p>}
        </div>
        {refusal && (
          <p className="alert alert-warning" role="alert">
            {refusal}
          </p>
        )}
        <div className="modal-actions">
          <Button variant="outline" onClick={onClose}>
            Huỷ
          </Button>
          <Button type="submit" variant="danger" disabled={form.formState.isSubmitting || summary === undefined || Boolean(refusal)}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
