// The ties that survived the four ranking rules and cross a prize boundary: who is in each, what
// sharing the higher prize costs, and the organiser's decision with a reason (share, or an order
// after a draw). A decision takes effect at the next computation.
import { useState, type FormEvent } from 'react';
import { formatDateTime, formatDuration, formatMoney, formatNumber } from '../../../../shared/format';
import { adminResultsMessages } from '../../../../shared/messages';
import { TIE_CRITERIA } from '../../../../shared/ranking-rules';
import { tieDecisionRequestSchema, tieScopeLabels, type ResultsOverview, type TieView } from '../../../../shared/schemas/admin-results';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { ApiRequestError, api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { DataTable } from '../../../components/ui/data-table';
import { DialogFormActions } from '../kit/form-parts';
import '../../../lib/zod-messages'; // Vietnamese messages for the issues of safeParse below

const stateLabels: Record<TieView['decision_state'], string> = {
  none: 'Chưa quyết định',
  pending: 'Đã quyết định — hãy tính lại kết quả để áp dụng',
  applied: 'Đã áp dụng',
};

export function TieList({ data, onChange }: { data: ResultsOverview; onChange: () => void }) {
  const [deciding, setDeciding] = useState<TieView | null>(null);
  if (!data.run) return null;
  const stale = data.decisions.filter((decision) => !decision.applicable);
  return (
    <div className="admin-card">
      <h2>Đồng hạng vượt số giải</h2>
      {data.ties.length === 0 ? (
        <p>Không có nhóm đồng hạng nào vượt số giải.</p>
      ) : (
        <p>
          Mỗi nhóm dưới đây bằng nhau theo mọi tiêu chí xếp hạng của loại giải (ghi trong từng nhóm) và số bên vượt số giải của hạng. Ban tổ chức quyết định: cùng
          nhận giải cao hơn, hoặc xếp thứ tự (ví dụ sau khi bốc thăm) để giữ đúng số giải.
        </p>
      )}
      {data.other_ties > 0 && <p className="muted">Còn {formatNumber(data.other_ties)} nhóm đồng hạng khác không làm thay đổi giải.</p>}
      {data.ties.map((tie) => (
        <section key={tie.key} className="results-tie" aria-label={`${tieScopeLabels[tie.scope]}, hạng ${tie.rank}`}>
          <h3>
            {tieScopeLabels[tie.scope]}
            {tie.school_name ? ` — ${tie.school_name}` : ''}: hạng {tie.rank}, {tie.size} bên
          </h3>
          <p>{TIE_CRITERIA[tie.scope]}</p>
          <p>
            Nếu cùng nhận {tie.shared_prize ?? 'giải'}: thêm <strong>{formatMoney(tie.extra_amount)}</strong> tiền thưởng.{' '}
            <span className={`results-state results-state-${tie.decision_state}`}>
              {stateLabels[tie.decision_state]}
              {tie.decision ? ` (${tie.decision === 'share' ? 'cùng nhận giải' : 'xếp thứ tự'})` : ''}
            </span>
          </p>
          <Members tie={tie} />
          <Button variant={tie.decision_state === 'none' ? 'primary' : 'outline'} onClick={() => setDeciding(tie)}>
            {tie.decision ? 'Sửa quyết định' : 'Quyết định'}
          </Button>
        </section>
      ))}
      {stale.length > 0 && (
        <>
          <h3>Quyết định không còn áp dụng</h3>
          <ul>
            {stale.map((decision) => (
              <li key={decision.id}>
                {tieScopeLabels[decision.scope]}, {decision.member_ids.length} bên ({decision.decision === 'share' ? 'cùng nhận giải' : 'xếp thứ tự'}, {formatDateTime(decision.decided_at)}): nhóm
                đồng hạng này không còn trong kết quả mới nhất. Lý do đã ghi: {decision.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {deciding && (
        <DecisionDialog
          tie={deciding}
          onClose={() => setDeciding(null)}
          onSaved={() => {
            setDeciding(null);
            onChange();
          }}
        />
      )}
    </div>
  );
}

function Members({ tie }: { tie: TieView }) {
  const pupils = tie.scope === 'individual' || tie.scope === 'school_pupils';
  const scored = tie.scope !== 'schools';
  return (
    <DataTable
      caption="Các thí sinh, lớp hoặc trường đồng hạng"
      rows={tie.members}
      rowKey={(member) => String(member.id)}
      columns={[
        { header: pupils ? 'Họ và tên' : tie.scope === 'schools' ? 'Trường' : 'Lớp', cell: (member) => member.name },
        scored && { header: 'Trường, lớp', cell: (member) => `${member.school}${member.class_name ? `, lớp ${member.class_name}` : ''}` },
        scored && {
          header: pupils ? 'Điểm' : 'Điểm TB',
          numeric: true,
          cell: (member) => (member.points === null ? '' : formatNumber(member.points, pupils ? 0 : 2)),
        },
        scored && {
          header: pupils ? 'Thời gian' : 'Thời gian TB',
          numeric: true,
          cell: (member) => (member.duration_seconds === null ? '' : formatDuration(member.duration_seconds)),
        },
        pupils && { header: 'Nộp bài lúc', cell: (member) => (member.submitted_at ? formatDateTime(member.submitted_at) : '') },
        pupils && { header: 'Dự đoán', numeric: true, cell: (member) => (member.prediction === null ? 'Không dự đoán' : formatNumber(member.prediction)) },
        !pupils && { header: 'Tham gia', cell: (member) => member.detail },
      ]}
    />
  );
}

function DecisionDialog({ tie, onClose, onSaved }: { tie: TieView; onClose: () => void; onSaved: () => void }) {
  const [decision, setDecision] = useState<'share' | 'order'>(tie.decision ?? 'share');
  const [order, setOrder] = useState(tie.members);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const move = (index: number, step: -1 | 1) => {
    const next = [...order];
    [next[index], next[index + step]] = [next[index + step]!, next[index]!];
    setOrder(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { scope: tie.scope, school_id: tie.school_id, ids: tie.members.map((m) => m.id), decision, order: decision === 'order' ? order.map((m) => m.id) : undefined, reason };
    const parsed = tieDecisionRequestSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setBusy(true);
    try {
      await api.post('/admin/results/ties', parsed.data);
      notify('success', 'Đã ghi quyết định', adminResultsMessages.decisionSaved);
      onSaved();
    } catch (error) {
      if (error instanceof ApiRequestError && Object.keys(error.errors).length) setErrors(error.errors);
      else notify('error', 'Chưa ghi được quyết định', errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={`Quyết định đồng hạng: ${tieScopeLabels[tie.scope]}, hạng ${tie.rank}`} onClose={onClose}>
      <form onSubmit={submit} noValidate className="results-decision">
        <fieldset>
          <legend>Cách giải quyết</legend>
          <label className="results-choice">
            <input type="radio" name="decision" value="share" checked={decision === 'share'} onChange={() => setDecision('share')} />
            Tất cả cùng nhận {tie.shared_prize ?? 'giải'} (thêm {formatMoney(tie.extra_amount)})
          </label>
          <label className="results-choice">
            <input type="radio" name="decision" value="order" checked={decision === 'order'} onChange={() => setDecision('order')} />
            Xếp thứ tự (ví dụ sau khi bốc thăm): giữ đúng số giải của hạng
          </label>
        </fieldset>
        {decision === 'order' && (
          <fieldset>
            <legend>Thứ tự, người xếp trên trước</legend>
            <ol className="results-order">
              {order.map((member, index) => (
                <li key={String(member.id)}>
                  <span>{member.name}</span>
                  <Button variant="outline" aria-label={`Đưa ${member.name} lên`} disabled={index === 0} onClick={() => move(index, -1)}>
                    ↑
                  </Button>
                  <Button variant="outline" aria-label={`Đưa ${member.name} xuống`} disabled={index === order.length - 1} onClick={() => move(index, 1)}>
                    ↓
                  </Button>
                </li>
              ))}
            </ol>
            {errors.order && <p className="field-error" role="alert">{errors.order}</p>}
          </fieldset>
        )}
        <TextAreaField
          id="tie-reason"
          label="Lý do (ghi vào nhật ký thao tác)"
          rows={3}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          error={errors.reason}
        />
        <DialogFormActions onCancel={onClose} busy={busy} submitLabel="Ghi quyết định" />
      </form>
    </Modal>
  );
}
