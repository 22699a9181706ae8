// Results out of date (issue 42.1): changes that can move a prize were made after the computation
// (a school's size, a merge, a regrade, an extra attempt...). The results page lists them and asks
// to compute again; publishing such results needs a confirmation with a reason (audited), for the
// very changes listed: one made meanwhile is refused by the server, and the page is reloaded.
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatDateTime, formatNumber } from '../../../../shared/format';
import { adminResultsMessages } from '../../../../shared/messages';
import { publishRequestSchema, type ResultsOverview } from '../../../../shared/schemas/admin-results';
import { TextAreaField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { zodResolver } from '../../../lib/zod-resolver';
import { DialogFormActions, reportSaveError } from '../kit/form-parts';

type Run = NonNullable<ResultsOverview['run']>;
type OutOfDate = NonNullable<Run['out_of_date']>;

/** What changed since the computation, newest first. */
export function OutOfDateNote({ run, outOfDate }: { run: Run; outOfDate: OutOfDate }) {
  const more = outOfDate.count - outOfDate.changes.length;
  return (
    <div className="results-out-of-date" role="note" aria-label="Kết quả đã cũ">
      <p>
        <strong>{adminResultsMessages.outOfDate(outOfDate.count, formatDateTime(run.computed_at))}</strong>
      </p>
      <ul aria-label="Thay đổi sau lần tính">
        {outOfDate.changes.map((change, index) => (
          <li key={`${change.at}-${index}`}>
            <span className="muted">{formatDateTime(change.at)}</span> {change.summary}
          </li>
        ))}
      </ul>
      {more > 0 && <p className="muted">và {formatNumber(more)} thay đổi khác (xem Nhật ký thao tác).</p>}
    </div>
  );
}

const reasonSchema = publishRequestSchema.shape.out_of_date.unwrap().pick({ reason: true });

/** Publishing out-of-date results: the changes, then the reason to publish them anyway. */
export function PublishOutOfDateDialog({
  data,
  summary,
  onClose,
  onChange,
}: {
  data: ResultsOverview;
  /** What becomes public, as the dialog of current results says it. */
  summary: ReactNode;
  onClose: () => void;
  onChange: () => void;
}) {
  const run = data.run!;
  const outOfDate = run.out_of_date!;
  const form = useForm<z.input<typeof reasonSchema>, unknown, z.output<typeof reasonSchema>>({ resolver: zodResolver(reasonSchema), defaultValues: { reason: '' } });
  const onSubmit = form.handleSubmit(async ({ reason }) => {
    try {
      await api.post('/admin/results/publish', { out_of_date: { changes: outOfDate.through, reason } });
      notify('success', 'Đã công bố kết quả', adminResultsMessages.published);
      onClose();
    } catch (error) {
      reportSaveError(error, form.setError, ['reason'], 'Chưa công bố được kết quả', 12_000);
    }
    // Published, or refused for a change made meanwhile: the page (and this dialog) show it now.
    onChange();
  });
  return (
    <Modal title="Công bố kết quả đã cũ? Không thể huỷ công bố." onClose={onClose} role="alertdialog">
      <OutOfDateNote run={run} outOfDate={outOfDate} />
      <p>
        Nên <strong>tính lại kết quả</strong> trước. Chỉ công bố kết quả này nếu các thay đổi trên không làm đổi giải nào, và ghi lý do: lý do được ghi vào nhật ký thao
        tác cùng việc công bố.
      </p>
      {summary}
      <form onSubmit={onSubmit} noValidate>
        <TextAreaField label="Lý do vẫn công bố kết quả này" rows={3} {...form.register('reason')} error={form.formState.errors.reason?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} submitLabel="Vẫn công bố" />
      </form>
    </Modal>
  );
}
