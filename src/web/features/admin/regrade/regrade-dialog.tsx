// "Chấm lại" a question after a wrong key: the organiser chooses the rule and gives a reason, runs
// a dry run (exams whose points change, prizes that move) and only then confirms.
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import { regradeMessages } from '../../../../shared/messages';
import { regradeModes } from '../../../../shared/regrade-rules';
import type { AdminQuestion } from '../../../../shared/schemas/admin-books';
import {
  REGRADE_PER_PAGE,
  regradeCommitSchema,
  type RegradeCommitInput,
  type RegradeFormValues,
  type RegradePreview,
} from '../../../../shared/schemas/admin-regrade';
import { formatNumber } from '../../../../shared/format';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { reportSaveError } from '../kit/form-parts';
import { DataTable } from '../../../components/ui/data-table';
import { Pager } from '../../../components/ui/pager';
import { PrizeChanges } from './prize-changes';
import './regrade.css';

const modeHints = {
  new_key: 'Chỉ đáp án chọn dưới đây được tính đúng; đáp án cũ không còn được tính. Ngân hàng câu hỏi đổi đáp án đúng theo.',
  accept_both: 'Đáp án đúng hiện tại và đáp án chọn dưới đây đều được tính đúng.',
  everyone: 'Mọi bài thi có câu hỏi này đều được cộng điểm câu này, kể cả bài chưa trả lời câu đó.',
} as const;

const letter = (index: number) => String.fromCharCode(65 + index);
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function RegradeDialog({
  question,
  number,
  suggestedAnswerId,
  onClose,
  onDone,
}: {
  question: AdminQuestion;
  number: number;
  /** A suspected key (the question quality page): 'new_key' with this answer chosen. */
  suggestedAnswerId?: number;
  onClose: () => void;
  onDone: () => void;
}) {
  const { register, handleSubmit, watch, setError, formState } = useForm<RegradeFormValues, unknown, RegradeCommitInput>({
    resolver: zodResolver(regradeCommitSchema),
    // A radio's value is a string: the suggested answer as one, so that it shows checked.
    defaultValues: {
      question_id: question.id,
      mode: suggestedAnswerId === undefined ? undefined : 'new_key',
      answer_id: (suggestedAnswerId === undefined ? '' : String(suggestedAnswerId)) as unknown as number,
      reason: '',
    },
  });
  const errors = formState.errors;
  const [preview, setPreview] = useState<{ values: RegradeCommitInput; data: RegradePreview } | null>(null);
  const [busy, setBusy] = useState(false);
  const mode = watch('mode');
  const reasonId = useId();
  const modeName = useId();
  const answerName = useId();

  // Any change to the rule after a dry run asks for a new one before confirming.
  useEffect(() => {
    const subscription = watch((_values, { name }) => {
      if (name && name !== 'reason') setPreview(null);
    });
    return () => subscription.unsubscribe();
  }, [watch]);

  const runPreview = async (values: RegradeCommitInput, page = 1) => {
    setBusy(true);
    try {
      const { reason: _reason, ...rule } = values;
      const answer = await api.post<{ data: RegradePreview }>('/admin/regrades/preview', { ...rule, page, per_page: REGRADE_PER_PAGE });
      setPreview({ values, data: answer.data });
    } catch (error) {
      reportSaveError(error, setError, ['mode', 'answer_id', 'reason'], 'Không chạy thử được');
    } finally {
      setBusy(false);
    }
  };

  const confirm = handleSubmit(async (values) => {
    setBusy(true);
    try {
      const answer = await api.post<{ data: { summary: RegradePreview['summary']; results_recomputed: boolean; results_note: string | null } }>('/admin/regrades', values);
      const { summary, results_recomputed: recomputed, results_note: note } = answer.data;
      notify(
        'success',
        'Đã chấm lại câu hỏi',
        `${formatNumber(summary.exams_gained)} bài tăng điểm, ${formatNumber(summary.exams_lost)} bài giảm điểm.${recomputed ? ' Kết quả và giải thưởng đã được tính lại.' : ''}`,
      );
      if (note) notify('info', 'Kết quả chưa được tính lại', note);
      onDone();
    } catch (error) {
      reportSaveError(error, setError, ['mode', 'answer_id', 'reason'], 'Không chấm lại được');
    } finally {
      setBusy(false);
    }
  });

  return (
    <Modal title={`Chấm lại câu ${number}`} onClose={onClose} className="regrade-dialog">
      <form onSubmit={handleSubmit((values) => runPreview(values))} noValidate>
        <p className="regrade-question">{question.value}</p>
        <fieldset className="regrade-choices" aria-describedby={errors.mode ? `${modeName}-error` : undefined}>
          <legend>Cách chấm lại</legend>
          {regradeModes.map((value) => (
            <label key={value} className="regrade-choice">
              <input type="radio" value={value} {...register('mode')} />
              <span>
                <strong>{regradeMessages.modeLabels[value]}</strong>
                <span className="field-hint">{modeHints[value]}</span>
              </span>
            </label>
          ))}
          {errors.mode && (
            <span id={`${modeName}-error`} className="field-error" role="alert">
              {errors.mode.message}
            </span>
          )}
        </fieldset>

        {mode && mode !== 'everyone' && (
          <fieldset className="regrade-choices" aria-describedby={errors.answer_id ? `${answerName}-error` : undefined}>
            <legend>{mode === 'new_key' ? 'Đáp án đúng mới' : 'Đáp án được tính đúng thêm'}</legend>
            {question.answers.map((answer, index) => (
              <label key={answer.id} className="regrade-choice">
                <input type="radio" value={String(answer.id)} {...register('answer_id')} />
                <span>
                  {letter(index)}. {answer.value}
                  {answer.is_correct && <em> (đáp án đúng hiện tại)</em>}
                </span>
              </label>
            ))}
            {errors.answer_id && (
              <span id={`${answerName}-error`} className="field-error" role="alert">
                {errors.answer_id.message}
              </span>
            )}
          </fieldset>
        )}

        <TextAreaField id={reasonId} label="Lý do (ghi vào nhật ký thao tác)" rows={3} {...register('reason')} error={errors.reason?.message} />

        <div className="modal-actions">
          <Button variant="outline" onClick={onClose}>
            Huỷ
          </Button>
          <Button type="submit" variant={preview ? 'outline' : 'primary'} disabled={busy}>
            Chạy thử
          </Button>
        </div>
      </form>

      {preview && (
        <section className="regrade-preview" aria-labelledby={`${reasonId}-preview`} aria-live="polite">
          <h3 id={`${reasonId}-preview`}>Kết quả chạy thử (chưa lưu gì)</h3>
          <PreviewSummary data={preview.data} />
          {preview.data.exams.total > 0 && (
            <>
              <DataTable
                caption="Bài thi thay đổi điểm"
                rows={preview.data.exams.items}
                rowKey={(exam) => exam.exam_id}
                columns={[
                  { header: 'Thí sinh', cell: (exam) => exam.fullname },
                  { header: 'Trường', cell: (exam) => exam.school_name },
                  { header: 'Lần thi', numeric: true, cell: (exam) => exam.attempt },
                  { header: 'Điểm cũ', numeric: true, cell: (exam) => exam.points_before },
                  { header: 'Điểm mới', numeric: true, cell: (exam) => exam.points_after },
                  { header: 'Thay đổi', numeric: true, cell: (exam) => signed(exam.points_after - exam.points_before) },
                ]}
              />
              <Pager
                page={preview.data.exams.page}
                perPage={REGRADE_PER_PAGE}
                total={preview.data.exams.total}
                onPage={(page) => void runPreview(preview.values, page)}
              />
            </>
          )}
          {preview.data.ranking ? (
            <PrizeChanges changes={preview.data.ranking.prize_changes} />
          ) : (
            <p>Chưa tính kết quả nên chưa có giải thưởng để so sánh.</p>
          )}
          <div className="modal-actions">
            <Button variant="accent" disabled={busy} onClick={() => void confirm()}>
              Xác nhận chấm lại
            </Button>
          </div>
        </section>
      )}
    </Modal>
  );
}

function PreviewSummary({ data }: { data: RegradePreview }) {
  const { summary } = data;
  return (
    <ul className="regrade-summary">
      <li>
        <strong>{formatNumber(summary.exams_affected)}</strong> bài thi đã nộp có câu hỏi này
      </li>
      <li>
        <strong>{formatNumber(summary.exams_gained)}</strong> bài tăng điểm
      </li>
      <li>
        <strong>{formatNumber(summary.exams_lost)}</strong> bài giảm điểm
      </li>
      <li>
        <strong>{formatNumber(summary.exams_unchanged)}</strong> bài không đổi
      </li>
      {summary.exams_in_progress > 0 && (
        <li>
          <strong>{formatNumber(summary.exams_in_progress)}</strong> bài đang làm: được chấm theo cách mới khi nộp
        </li>
      )}
    </ul>
  );
}
