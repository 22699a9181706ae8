// A book's name, author and class group: adding a book and editing one use the same form.
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import type { z } from 'zod';
import { bookInputSchema } from '../../../../shared/schemas/admin-books';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { useClassGroups } from '../kit/use-class-groups';
import { reportSaveError } from '../kit/form-parts';

type BookFormInput = z.input<typeof bookInputSchema>;
type BookFormOutput = z.output<typeof bookInputSchema>;

export function BookForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial?: { name: string; author: string; class_group_id: number };
  submitLabel: string;
  onSubmit: (values: BookFormOutput) => Promise<void>;
}) {
  const groups = useClassGroups();
  const { register, handleSubmit, setError, formState } = useForm<BookFormInput, unknown, BookFormOutput>({
    resolver: zodResolver(bookInputSchema),
    defaultValues: { name: initial?.name ?? '', author: initial?.author ?? '', class_group_id: initial ? String(initial.class_group_id) : '' },
  });
  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      reportSaveError(error, setError, ['name', 'author', 'class_group_id'], 'Không lưu được sách');
    }
  });
  return (
    <form className="admin-form" onSubmit={submit} noValidate>
      <TextField label="Tên sách" {...register('name')} error={formState.errors.name?.message} />
      <TextField label="Tác giả" {...register('author')} error={formState.errors.author?.message} />
      <SelectField label="Nhóm lớp" {...register('class_group_id')} error={formState.errors.class_group_id?.message}>
        <option value="">Chọn nhóm lớp</option>
        {groups.map((group) => (
          <option key={group.id} value={group.id}>
            {group.name} (lớp {group.grades})
          </option>
        ))}
      </SelectField>
      <div className="admin-actions field-wide">
        <Button type="submit" disabled={formState.isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
