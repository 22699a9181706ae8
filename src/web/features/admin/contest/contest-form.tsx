// The contest's name, timeline and exam limits. Dates are typed in Vietnam's time whatever the
// computer's time zone; only the fields the organiser changed are sent.
import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import {
  contestDateFields,
  contestFieldLabels,
  contestFormSchema,
  contestMessages,
  fromVietnamLocalInput,
  reviewCorrectAnswersLabels,
  reviewCorrectAnswersOptions,
  toVietnamLocalInput,
  type ContestDateField,
  type ContestFormValues,
  type ContestSettings,
} from '../../../../shared/schemas/admin-contest';
import { formatDate, formatDuration, formatNumber, formatTime } from '../../../../shared/format';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { ApiRequestError, api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { ConfirmDialog } from '../kit/confirm-dialog';
import { ContestWarnings } from './contest-warnings';
import { unitLevelLabels, unitLevels } from '../../../../shared/unit-level';
import { forgetSite } from '../../../lib/site';

function toForm(settings: ContestSettings): ContestFormValues {
  const dates = Object.fromEntries(contestDateFields.map((field) => [field, toVietnamLocalInput(settings[field])]));
  return {
    name: settings.name,
    ...(dates as Record<ContestDateField, string>),
    exam_duration_seconds: settings.exam_duration_seconds,
    questions_per_exam: settings.questions_per_exam,
    attempts_per_contestant: settings.attempts_per_contestant,
    retention_months: settings.retention_months,
    review_correct_answers: settings.review_correct_answers,
    unit_level: settings.unit_level,
  };
}

/** 02/04/2026 08:00, or nothing while the input is incomplete. */
function shownDateTime(local: string): string {
  const iso = fromVietnamLocalInput(local);
  return local && !Number.isNaN(new Date(iso).getTime()) ? `${formatDate(iso)} ${formatTime(iso)}` : '';
}

function windowState(settings: ContestSettings, now = Date.now()): string {
  if (now < new Date(settings.exam_starts_at).getTime()) return 'Chưa mở thi';
  if (now <= new Date(settings.exam_ends_at).getTime()) return 'Đang mở thi';
  return 'Đã đóng thi';
}

export function ContestForm({ settings: initial }: { settings: ContestSettings }) {
  const [settings, setSettings] = useState(initial);
  const [warnings, setWarnings] = useState<string[]>([]);
  /** A save that closes the open window early, waiting for the organiser's answer. */
  const [closing, setClosing] = useState<{ changed: Record<string, string | number>; inProgress: number | null }>();
  const form = useForm<ContestFormValues>({ resolver: zodResolver(contestFormSchema), defaultValues: toForm(initial) });
  const { register, handleSubmit, formState, watch } = form;
  const errors = formState.errors;

  /** Sends the changed fields; the server's field errors go under the fields. */
  const save = async (changed: Record<string, string | number>) => {
    try {
      const answer = await api.put<{ data: ContestSettings; warnings?: string[] }>('/admin/contest', changed);
      setSettings(answer.data);
      setWarnings(answer.warnings ?? []);
      form.reset(toForm(answer.data));
      // The unit's labels everywhere else on this page load follow the level just saved.
      if ('unit_level' in changed) forgetSite();
      notify('success', contestMessages.saved);
    } catch (error) {
      if (error instanceof ApiRequestError) {
        let first = true;
        for (const [key, message] of Object.entries(error.errors)) {
          if (!(key in changed)) continue;
          form.setError(key as Path<ContestFormValues>, { type: 'server', message }, { shouldFocus: first });
          first = false;
        }
      }
      notify('error', 'Chưa lưu được cài đặt', errorMessage(error));
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    const before = toForm(settings);
    const changed: Record<string, string | number> = {};
    for (const key of Object.keys(values) as (keyof ContestFormValues)[]) {
      if (values[key] === before[key]) continue;
      changed[key] = (contestDateFields as readonly string[]).includes(key) ? fromVietnamLocalInput(values[key] as string) : values[key];
    }
    if (Object.keys(changed).length === 0) {
      notify('info', 'Không có thay đổi nào để lưu.');
      return;
    }
    // Closing an open window now (or in the past) while children are taking exams: ask first.
    const closesAt = typeof changed.exam_ends_at === 'string' ? new Date(changed.exam_ends_at).getTime() : NaN;
    if (windowState(settings) === 'Đang mở thi' && closesAt <= Date.now()) {
      const dashboard = await api.get<{ data: { totals: { in_progress: number } } }>('/admin/exam-days/dashboard').catch(() => null);
      setClosing({ changed, inProgress: dashboard?.data.totals.in_progress ?? null });
      return;
    }
    await save(changed);
  });

  const duration = watch('exam_duration_seconds');
  return (
    <form className="admin-card" onSubmit={onSubmit} noValidate aria-labelledby="contest-form-title">
      <h2 id="contest-form-title">Cuộc thi và thời gian</h2>
      <p>
        Trạng thái: <strong className="contest-window-state">{windowState(settings)}</strong>. Ngày giờ theo giờ Việt Nam (GMT+7).
      </p>
      <div className="admin-form">
        <div className="field-wide">
          <TextField label="Tên cuộc thi" {...register('name')} error={errors.name?.message} />
        </div>
        {contestDateFields.map((field) => (
          <TextField
            key={field}
            label={contestFieldLabels[field]}
            type="datetime-local"
            {...register(field)}
            hint={shownDateTime(watch(field)) || 'dd/mm/yyyy hh:mm'}
            error={errors[field]?.message}
          />
        ))}
        <TextField
          label="Thời gian làm bài (giây)"
          type="number"
          inputMode="numeric"
          min={60}
          max={7200}
          {...register('exam_duration_seconds', { valueAsNumber: true })}
          hint={Number.isFinite(duration) ? formatDuration(duration) : undefined}
          error={errors.exam_duration_seconds?.message}
        />
        <TextField
          label="Số câu hỏi mỗi bài thi"
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          {...register('questions_per_exam', { valueAsNumber: true })}
          hint="Mỗi sách cần có ít nhất chừng này câu hỏi trước khi mở thi."
          error={errors.questions_per_exam?.message}
        />
        <TextField
          label="Số lượt thi mỗi thí sinh"
          type="number"
          inputMode="numeric"
          min={1}
          max={3}
          {...register('attempts_per_contestant', { valueAsNumber: true })}
          error={errors.attempts_per_contestant?.message}
        />
        <TextField
          label="Thời gian lưu dữ liệu cá nhân (tháng)"
          type="number"
          inputMode="numeric"
          min={1}
          max={120}
          {...register('retention_months', { valueAsNumber: true })}
          hint="Tính từ ngày công bố kết quả; sau đó tài khoản không còn hoạt động được xoá, tên thí sinh được ẩn danh."
          error={errors.retention_months?.message}
        />
        <fieldset className="field-wide contest-review-choices">
          <legend>{contestFieldLabels.review_correct_answers} cho gia đình</legend>
          {reviewCorrectAnswersOptions.map((value) => (
            <label key={value} className="contest-review-choice">
              <input type="radio" value={value} {...register('review_correct_answers')} />
              <span>
                <strong>{reviewCorrectAnswersLabels[value].label}</strong>
                <span className="field-hint">{reviewCorrectAnswersLabels[value].hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset className="field-wide contest-review-choices">
          <legend>{contestFieldLabels.unit_level}</legend>
          <p className="field-hint">
            Đơn vị ngay dưới tỉnh mà phụ huynh chọn cho trường của con, và tên của nó trên mọi màn hình, báo cáo, tệp xuất và mẫu nhập của mùa thi này.
          </p>
          {unitLevels.map((value) => (
            <label key={value} className="contest-review-choice">
              <input type="radio" value={value} {...register('unit_level')} />
              <span>
                <strong>{unitLevelLabels(value).option}</strong>
                <span className="field-hint">{unitLevelLabels(value).hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </div>
      <ContestWarnings warnings={warnings} lead="Lưu ý:" />
      <div className="admin-actions">
        <Button type="submit" disabled={formState.isSubmitting}>
          Lưu cài đặt cuộc thi
        </Button>
      </div>
      {closing && (
        <ConfirmDialog
          title="Đóng thi sớm?"
          confirmLabel="Đóng thi ngay"
          cancelLabel="Chưa đóng"
          done={null}
          onConfirm={() => save(closing.changed)}
          onClose={() => setClosing(undefined)}
        >
          <p>
            {closing.inProgress === null
              ? 'Không đọc được số bài thi đang làm.'
              : closing.inProgress > 0
                ? `Đang có ${formatNumber(closing.inProgress)} bài thi đang làm.`
                : 'Hiện không có bài thi nào đang làm.'}
          </p>
          <p>
            Thời điểm đóng thi mới là {shownDateTime(toVietnamLocalInput(String(closing.changed.exam_ends_at)))}, trước thời điểm đã đặt (
            {shownDateTime(toVietnamLocalInput(settings.exam_ends_at))}). Sau khi đóng, không thí sinh nào bắt đầu được bài thi mới; các em đang làm bài vẫn làm tiếp và
            nộp bài đến hết giờ làm bài của mình. Chỉ tính được kết quả chính thức khi mọi bài thi đã xong.
          </p>
        </ConfirmDialog>
      )}
    </form>
  );
}
