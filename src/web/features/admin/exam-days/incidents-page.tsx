// /quan-tri/ho-tro: a family calls (a phone died, the school's network fell over). The organiser
// finds the child by the parent's phone or the child's name (and school), sees each attempt, and,
// with a reason kept in the audit log, gives one extra attempt or extends an attempt in progress.
import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import type { z } from 'zod';
import { formatDateTime, formatNumber } from '../../../../shared/format';
import { examDaysMessages } from '../../../../shared/messages';
import {
  extensionFormSchema,
  extraAttemptFormSchema,
  incidentLimits,
  type IncidentAttempt,
  type IncidentContestant,
} from '../../../../shared/schemas/admin-exam-days';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { DataTable } from '../../../components/ui/data-table';
import { NamedOptions, useDistrictSchools } from '../kit/district-schools';
import { DialogFormActions, reportSaveError } from '../kit/form-parts';
import { ReasonField } from './reason-field';
import './exam-days.css';
import { useUnitWords } from '../../../lib/site';

const emptySearch = { phone: '', name: '', district_id: '', school_id: '' };

export function IncidentsPage() {
  const say = useUnitWords();
  usePageTitle('Hỗ trợ thí sinh');
  const [draft, setDraft] = useState(emptySearch);
  const [results, setResults] = useState<{ items: IncidentContestant[]; more: boolean } | null>(null);
  const [searchError, setSearchError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const { districts, schools } = useDistrictSchools(draft.district_id);
  const set = (key: keyof typeof emptySearch) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: event.target.value, ...(key === 'district_id' ? { school_id: '' } : {}) }));

  const search = async (event?: FormEvent) => {
    event?.preventDefault();
    const params = new URLSearchParams();
    if (draft.phone.trim()) params.set('phone', draft.phone.trim());
    if (draft.name.trim()) params.set('name', draft.name.trim());
    if (draft.school_id) params.set('school_id', draft.school_id);
    setBusy(true);
    try {
      const answer = await api.get<{ data: { items: IncidentContestant[]; more: boolean } }>(`/admin/exam-days/contestants?${params}`);
      setResults(answer.data);
      setSearchError(undefined);
    } catch (error) {
      setSearchError(errorMessage(error) ?? examDaysMessages.searchTooShort);
    } finally {
      setBusy(false);
    }
  };

  /** One contestant changed (an extra attempt, an extension): its card shows the server's new view. */
  const replace = (contestant: IncidentContestant) =>
    setResults((current) => current && { ...current, items: current.items.map((c) => (c.id === contestant.id ? contestant : c)) });

  return (
    <section className="admin-page exam-days">
      <h1>Hỗ trợ thí sinh</h1>
      <p>
        Tìm thí sinh theo số điện thoại của phụ huynh (đủ hoặc một phần) hoặc tên thí sinh (không cần dấu), có thể thêm trường. Mỗi thí sinh được thêm tối đa{' '}
        {incidentLimits.extraAttemptsPerContestant} lượt thi; mỗi lượt thi đang làm được gia hạn tổng cộng tối đa {incidentLimits.extensionMinutesMax} phút. Lý
        do được ghi vào nhật ký thao tác.
      </p>
      <form className="admin-toolbar" role="search" aria-label="Tìm thí sinh" onSubmit={search} noValidate>
        <TextField label="Số điện thoại phụ huynh" inputMode="tel" autoComplete="off" value={draft.phone} onChange={set('phone')} />
        <TextField label="Tên thí sinh" autoComplete="off" value={draft.name} onChange={set('name')} />
        <SelectField label={say('Quận/huyện')} value={draft.district_id} onChange={set('district_id')}>
          <option value="">Tất cả</option>
          <NamedOptions items={districts.data} />
        </SelectField>
        <SelectField label="Trường" value={draft.school_id} onChange={set('school_id')} disabled={!draft.district_id}>
          <option value="">Tất cả</option>
          <NamedOptions items={schools.data} />
        </SelectField>
        <Button type="submit" disabled={busy}>
          Tìm
        </Button>
      </form>
      {searchError && <p role="alert">{searchError}</p>}
      {results && (
        <div aria-live="polite">
          <p>
            {results.items.length === 0
              ? 'Không tìm thấy thí sinh nào.'
              : `Tìm thấy ${formatNumber(results.items.length)} thí sinh${results.more ? ' (còn nữa: hãy tìm cụ thể hơn)' : ''}.`}
          </p>
          {results.items.map((contestant) => (
            <ContestantCard key={contestant.id} contestant={contestant} onChange={replace} />
          ))}
        </div>
      )}
    </section>
  );
}

function ContestantCard({ contestant, onChange }: { contestant: IncidentContestant; onChange: (c: IncidentContestant) => void }) {
  // The extra attempt's dialog open: to give it, or to withdraw it.
  const [extraDialog, setExtraDialog] = useState<'give' | 'withdraw' | null>(null);
  const [extending, setExtending] = useState<IncidentAttempt | null>(null);
  const headingId = `incident-contestant-${contestant.id}`;
  return (
    <article className="admin-card incident-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{contestant.fullname}</h2>
      <p className="incident-meta">
        <span>
          Phụ huynh: {contestant.parent_name || '—'} · {contestant.parent_phone}
        </span>
        <span>
          {contestant.school} ({contestant.district}) · Lớp {contestant.class || '—'} · {contestant.class_group}
        </span>
      </p>
      <p data-testid="incident-attempts">
        Được thi {contestant.attempts_allowed} lượt, còn {contestant.attempts_left} lượt.
        {contestant.extra_attempt &&
          ` Đã thêm một lượt thi lúc ${formatDateTime(contestant.extra_attempt.granted_at)} (${contestant.extra_attempt.granted_by}): ${contestant.extra_attempt.reason}`}
      </p>
      <AttemptTable contestant={contestant} onExtend={setExtending} />
      <div className="admin-actions">
        {contestant.extra_attempt === null && (
          <Button variant="outline" onClick={() => setExtraDialog('give')}>
            Thêm một lượt thi
          </Button>
        )}
        {contestant.extra_attempt && !contestant.extra_attempt.used && (
          <Button variant="outline" onClick={() => setExtraDialog('withdraw')}>
            Rút lượt thi thêm
          </Button>
        )}
      </div>
      {extraDialog && (
        <ExtraAttemptDialog
          contestant={contestant}
          withdraw={extraDialog === 'withdraw'}
          onClose={() => setExtraDialog(null)}
          onDone={(updated) => {
            setExtraDialog(null);
            onChange(updated);
          }}
        />
      )}
      {extending && (
        <ExtensionDialog
          attempt={extending}
          fullname={contestant.fullname}
          onClose={() => setExtending(null)}
          onDone={(updated) => {
            setExtending(null);
            onChange(updated);
          }}
        />
      )}
    </article>
  );
}

const dateTime = (value: string | null) => (value ? formatDateTime(value) : '—');

function AttemptTable({ contestant, onExtend }: { contestant: IncidentContestant; onExtend: (attempt: IncidentAttempt) => void }) {
  if (contestant.attempts.length === 0) return <p className="muted">Chưa có lượt thi nào.</p>;
  return (
    <DataTable
      caption={`Các lượt thi của ${contestant.fullname}`}
      className="incident-attempts"
      rows={contestant.attempts}
      rowKey={(attempt) => attempt.id}
      columns={[
        { header: 'Lượt', rowHeader: true, cell: (attempt) => attempt.attempt },
        { header: 'Sách', cell: (attempt) => attempt.book },
        { header: 'Bắt đầu', cell: (attempt) => dateTime(attempt.start_time) },
        { header: 'Hạn nộp', cell: (attempt) => dateTime(attempt.end_time) },
        { header: 'Lưu gần nhất', cell: (attempt) => dateTime(attempt.saved_at) },
        { header: 'Câu đã lưu', numeric: true, cell: (attempt) => `${attempt.answers_saved}/${attempt.questions}` },
        {
          header: 'Nộp bài',
          cell: (attempt) => (attempt.status === 1 ? dateTime(attempt.submitted_at) : <span className="status-doing">Đang thi</span>),
        },
        { header: 'Điểm', numeric: true, cell: (attempt) => attempt.points ?? '—' },
        {
          header: 'Ghi chú',
          cell: (attempt) =>
            [attempt.extra ? 'Lượt thi thêm' : '', attempt.extension_minutes > 0 ? `Gia hạn ${attempt.extension_minutes} phút` : '']
              .filter(Boolean)
              .join(', ') || '—',
        },
        {
          header: <span className="visually-hidden">Thao tác</span>,
          cell: (attempt) =>
            attempt.extendable && (
              <Button variant="outline" onClick={() => onExtend(attempt)} aria-label={`Gia hạn lượt thi ${attempt.attempt}`}>
                Gia hạn
              </Button>
            ),
        },
      ]}
    />
  );
}

type ExtraInput = z.input<typeof extraAttemptFormSchema>;

/** Gives the one extra attempt, or (`withdraw`) takes back one given by mistake while unused. */
function ExtraAttemptDialog({
  contestant,
  withdraw = false,
  onClose,
  onDone,
}: {
  contestant: IncidentContestant;
  withdraw?: boolean;
  onClose: () => void;
  onDone: (updated: IncidentContestant) => void;
}) {
  const form = useForm<ExtraInput>({ resolver: zodResolver(extraAttemptFormSchema), defaultValues: { reason: '' } });
  const submit = form.handleSubmit(async (values) => {
    try {
      const path = `/admin/exam-days/contestants/${contestant.id}/extra-attempt${withdraw ? '/withdraw' : ''}`;
      const answer = await api.post<{ data: IncidentContestant }>(path, values);
      notify('success', withdraw ? examDaysMessages.extraAttemptWithdrawn : examDaysMessages.extraAttemptDone);
      onDone(answer.data);
    } catch (error) {
      reportSaveError(error, form.setError, ['reason'], withdraw ? 'Không rút được lượt thi thêm' : 'Không thêm được lượt thi', 12_000);
    }
  });
  return (
    <Modal title={withdraw ? `Rút lượt thi thêm của ${contestant.fullname}` : `Thêm một lượt thi cho ${contestant.fullname}`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        {withdraw ? (
          <p>
            Lượt thi thêm chưa được dùng nên rút lại được (ví dụ đã thêm nhầm thí sinh). Sau khi rút, thí sinh được thi {contestant.attempts_allowed - 1} lượt theo thể lệ. Việc rút được
            ghi vào nhật ký cùng lý do.
          </p>
        ) : (
          <p>Thí sinh được thi thêm đúng một lượt (tổng cộng {contestant.attempts_allowed + 1} lượt). Không thể thêm lần thứ hai.</p>
        )}
        <ReasonField registration={form.register('reason')} error={form.formState.errors.reason?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} submitLabel={withdraw ? 'Rút lượt thi' : 'Thêm lượt thi'} />
      </form>
    </Modal>
  );
}

function ExtensionDialog({
  attempt,
  fullname,
  onClose,
  onDone,
}: {
  attempt: IncidentAttempt;
  fullname: string;
  onClose: () => void;
  onDone: (updated: IncidentContestant) => void;
}) {
  const schema = extensionFormSchema(attempt.extension_minutes);
  const left = incidentLimits.extensionMinutesMax - attempt.extension_minutes;
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { minutes: String(Math.min(5, left)), reason: '' },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      const answer = await api.post<{ data: IncidentContestant }>(`/admin/exam-days/exams/${attempt.id}/extend`, values);
      notify('success', examDaysMessages.extensionDone(values.minutes));
      onDone(answer.data);
    } catch (error) {
      reportSaveError(error, form.setError, ['minutes', 'reason'], 'Không gia hạn được');
    }
  });
  return (
    <Modal title={`Gia hạn lượt thi ${attempt.attempt} của ${fullname}`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p>
          Hạn nộp hiện tại: {formatDateTime(attempt.end_time)}. Đã gia hạn {attempt.extension_minutes} phút; còn gia hạn được tối đa {left} phút.
        </p>
        <TextField
          label="Số phút gia hạn"
          type="number"
          inputMode="numeric"
          min={1}
          max={left}
          {...form.register('minutes')}
          error={form.formState.errors.minutes?.message}
        />
        <ReasonField registration={form.register('reason')} error={form.formState.errors.reason?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} submitLabel="Gia hạn" />
      </form>
    </Modal>
  );
}
