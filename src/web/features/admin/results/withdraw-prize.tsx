// "Rút giải": withdrawing a pupil's prize, with the reason (audited). Not revoking a certificate:
// the prize leaves the prize list, the money, the exports and the family page together, and its
// certificate is revoked with it (decision 020).
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import type { z } from 'zod';
import { formatDateTime, formatMoney } from '../../../../shared/format';
import { adminResultsMessages } from '../../../../shared/messages';
import { prizeWithdrawalRequestSchema, type PrizeRow, type PrizeWithdrawal } from '../../../../shared/schemas/admin-results';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { DialogFormActions, reportSaveError } from '../kit/form-parts';
import { DataTable } from '../../../components/ui/data-table';

const reasonSchema = prizeWithdrawalRequestSchema.pick({ reason: true });

export function WithdrawPrizeDialog({ row, kind, onClose, onDone }: { row: PrizeRow; kind: 'individual' | 'school_pupils'; onClose: () => void; onDone: () => void }) {
  const form = useForm<z.input<typeof reasonSchema>, unknown, z.output<typeof reasonSchema>>({ resolver: zodResolver(reasonSchema), defaultValues: { reason: '' } });
  const onSubmit = form.handleSubmit(async ({ reason }) => {
    try {
      await api.post('/admin/results/withdrawals', { contestant_id: row.contestant_id, kind, reason });
      notify('success', `Đã rút giải của ${row.name}`, adminResultsMessages.prizeWithdrawn);
      onDone();
    } catch (error) {
      reportSaveError(error, form.setError, ['reason'], 'Chưa rút được giải', 12_000);
    }
  });
  return (
    <Modal title={`Rút giải của ${row.name}?`} onClose={onClose}>
      <p>
        {row.prize} – {formatMoney(row.amount)} ({row.school}
        {row.class_name ? `, lớp ${row.class_name}` : ''}).
      </p>
      <p>
        Giải sẽ bị bỏ khỏi danh sách giải, kinh phí trao giải, các tệp xuất và trang của gia đình (gia đình thấy giải đã bị Ban tổ chức rút lại); giấy chứng nhận của
        giải bị thu hồi. Em vẫn giữ thứ hạng; giải không chuyển cho người xếp sau. Tính lại kết quả vẫn giữ việc rút giải.
      </p>
      <p className="muted">Chỉ cần cấp lại giấy (ví dụ in sai)? Dùng “Thu hồi” ở trang Giấy chứng nhận: giải được giữ nguyên.</p>
      <form onSubmit={onSubmit} noValidate>
        <TextField label="Lý do rút giải (ghi vào nhật ký)" {...form.register('reason')} error={form.formState.errors.reason?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} submitLabel="Rút giải" />
      </form>
    </Modal>
  );
}

/** The prizes withdrawn so far, with who, when and why. */
export function WithdrawalsCard({ withdrawals }: { withdrawals: PrizeWithdrawal[] }) {
  if (withdrawals.length === 0) return null;
  return (
    <div className="admin-card">
      <h2>Giải đã rút</h2>
      <DataTable
        caption="Không còn trong danh sách giải, kinh phí, tệp xuất và trang của gia đình."
        captionClass="muted"
        rows={withdrawals}
        rowKey={(w) => `${w.contestant_id}-${w.kind}`}
        columns={[
          { header: 'Học sinh', rowHeader: true, cell: (w) => `${w.fullname} – ${w.school}` },
          { header: 'Giải', cell: (w) => w.prize_name },
          { header: 'Tiền thưởng', numeric: true, cell: (w) => formatMoney(w.amount) },
          { header: 'Lý do', cell: (w) => w.reason },
          { header: 'Người rút, lúc', cell: (w) => `${w.withdrawn_by}, ${formatDateTime(w.withdrawn_at)}` },
        ]}
      />
    </div>
  );
}
