// /quan-tri/kiem-tra-ket-qua: the integrity screening before publishing (decision 027). Run it at
// a family-wise false-positive rate, then review the flags, undecided and strongest first, each
// with the two exams side by side (the answer sheets, the times, the device); dismiss a flag or
// withhold a prize, each with a reason. Nothing is decided automatically.
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import type { z } from 'zod';
import { formatClock, formatDateTime, formatDuration, formatNumber, formatProbability } from '../../../../shared/format';
import {
  dismissFlagRequestSchema,
  integrityFlagLabels,
  integrityRunRequestSchema,
  integrityStatusLabels,
  type IntegrityFlag,
  type IntegrityFlagDetail,
} from '../../../../shared/schemas/admin-integrity';
import { reviewCorrectAnswersLabels, reviewCorrectAnswersOptions, type ReviewCorrectAnswers } from '../../../../shared/schemas/admin-contest';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { useApiData } from '../../../lib/use-data';
import { usePageTitle } from '../../../lib/use-page-title';
import { DataTable } from '../../../components/ui/data-table';
import { DialogFormActions, reportSaveError } from '../kit/form-parts';
import { TableFrame } from '../../../components/ui/table-frame';
import './integrity.css';

interface Status {
  running: boolean;
  run: { family_rate_percent: number; exams: number; pairs: number; tests: number; threshold: number; seconds: number; ran_at: string } | null;
  review_correct_answers: ReviewCorrectAnswers;
}

export function IntegrityPage() {
  usePageTitle('Kiểm tra kết quả');
  const [version, setVersion] = useState(0);
  const status = useApiData<Status>('/admin/integrity', version);
  const flags = useApiData<IntegrityFlag[]>('/admin/integrity/flags', version);
  const running = status.data?.running ?? false;
  // While a screening runs, look again every 2 s.
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => setVersion((v) => v + 1), 2000);
    return () => clearTimeout(timer);
  }, [running, status.data]);
  const reload = () => setVersion((v) => v + 1);
  const open = flags.data?.filter((flag) => flag.status === 'open').length ?? 0;

  return (
    <section className="admin-page integrity-page" aria-busy={!flags.data && !flags.message ? 'true' : undefined}>
      <h1>Kiểm tra kết quả</h1>
      <p>
        Trước khi công bố giải, hệ thống so sánh bài làm của những học sinh có thể đã trao đổi với nhau (cùng lớp, cùng tài khoản phụ huynh, cùng thiết bị) trên
        các câu cả hai bài cùng có: câu trả lời giống nhau nhiều hơn mức ngẫu nhiên, và, khi hai bài làm cùng lúc, câu trả lời giống hệt được lưu ngay sau bài kia
        (trả lời theo sát). Hệ thống cũng tìm bài làm xong nhanh hơn mức một người đọc được, và hai bài làm xen kẽ trên một thiết bị. Mỗi cảnh báo chỉ là dấu hiệu
        cần xem xét: Ban tổ chức xem bằng chứng rồi quyết định, luôn ghi lý do.
      </p>
      <ScreeningLimits keys={status.data?.review_correct_answers} />
      <RunForm status={status.data} onStarted={reload} />
      {flags.message && <p role="alert">{flags.message}</p>}
      {flags.data && (
        <>
          <h2>
            Cảnh báo ({formatNumber(flags.data.length)}, {formatNumber(open)} chưa xử lý)
          </h2>
          {flags.data.length === 0 ? (
            <p>Chưa có cảnh báo nào.</p>
          ) : (
            <ol className="integrity-flags">
              {sectionsOf(flags.data).map((section) =>
                section.group ? (
                  <li key={section.group.key}>
                    <FlagGroup group={section.group} flags={section.flags} onDecided={reload} />
                  </li>
                ) : (
                  <li key={section.flags[0]!.id}>
                    <FlagCard flag={section.flags[0]!} onDecided={reload} />
                  </li>
                ),
              )}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

/**
 * What the screening can and cannot see, as measured by `npm run bench:integrity` at province size
 * for each setting of the result review (decision 027, issue 40): "no flag" is not "no copying".
 * Share of the planted pairs copying 70 % or more of their common questions that were flagged.
 */
const measuredPower: { kind: string; after_submit: number; after_exam_window: number }[] = [
  { kind: 'Ngồi cạnh nhau, chép ở mọi lượt thi', after_submit: 97, after_exam_window: 97 },
  { kind: 'Ngồi cạnh nhau, chỉ chép một lượt', after_submit: 63, after_exam_window: 62 },
  { kind: 'Chép lại bài của bạn sau khi bạn đã nộp', after_submit: 0, after_exam_window: 0 },
];

function ScreeningLimits({ keys }: { keys: ReviewCorrectAnswers | undefined }) {
  // A no-break space before "%": a percentage stays on one line on a phone.
  const percent = (value: number) => `${value}\u00a0%`;
  const captionId = 'integrity-power-caption';
  return (
    <details className="integrity-limits">
      <summary>Kiểm tra này phát hiện được gì, và không phát hiện được gì</summary>
      <p>
        Đo trên một tỉnh giả lập (200.000 học sinh, 500.000 bài thi, mỗi đề 20 câu rút từ ngân hàng 60 câu) với tỉ lệ báo nhầm cho phép {percent(1)}: không cặp bài trong
        sạch nào bị báo nhầm, với cả hai cách hiển thị đáp án đúng. Tỉ lệ cặp bị báo, trong các cặp chép từ {percent(70)} số câu chung trở lên:
      </p>
      <TableFrame labelledBy={captionId}>
        <table className="admin-table integrity-power">
          <caption id={captionId}>Tỉ lệ cặp chép bài được phát hiện, theo thời điểm hiển thị đáp án đúng</caption>
          <thead>
            <tr>
              <th scope="col">Cách chép</th>
              {reviewCorrectAnswersOptions.map((option) => (
                <th scope="col" key={option} aria-current={option === keys ? 'true' : undefined}>
                  Đáp án hiện {reviewCorrectAnswersLabels[option].label.toLowerCase()}
                  {option === keys && <span className="integrity-power-current"> (mùa thi này)</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {measuredPower.map((row) => (
              <tr key={row.kind}>
                <th scope="row">{row.kind}</th>
                {reviewCorrectAnswersOptions.map((option) => (
                  <td key={option}>{percent(row[option])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
      {keys && (
        <p data-testid="integrity-keys-setting">
          Mùa thi này hiển thị đáp án đúng <strong>{reviewCorrectAnswersLabels[keys].label.toLowerCase()}</strong> (đổi trong Cài đặt cuộc thi).
        </p>
      )}
      <p>
        Chép sau khi bạn đã nộp bài không để lại dấu vết thời gian, và hai bài chỉ có chung khoảng 7 câu: ở mức báo nhầm này, không phép kiểm định thống kê nào phát
        hiện được quá khoảng một nửa số cặp như vậy. Vì thế, không có cảnh báo không có nghĩa là chắc chắn không có gian lận.
      </p>
      <p>
        Khi đáp án đúng chỉ hiện sau khi đóng thi, bài đã nộp của bạn không còn là đáp án: người chép sau chỉ chép được câu trả lời của bạn, kể cả câu sai, nên không
        được lợi gì hơn bạn. Đó là cách ngăn kiểu chép này, thay cho việc phát hiện nó.
      </p>
    </details>
  );
}

function RunForm({ status, onStarted }: { status: Status | undefined; onStarted: () => void }) {
  const [rate, setRate] = useState('1');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = status?.run;
  const start = async () => {
    // The same rule as the server's (shared schema); an empty or unreadable number is out of range too.
    const parsed = integrityRunRequestSchema.safeParse({ family_rate_percent: rate.trim() === '' ? Number.NaN : Number(rate.replace(',', '.')) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]!.message);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await api.post('/admin/integrity/runs', parsed.data);
      notify('info', 'Đã bắt đầu kiểm tra', 'Danh sách cảnh báo sẽ cập nhật khi kiểm tra xong.');
      onStarted();
    } catch (caught) {
      setError(errorMessage(caught) ?? 'Chưa bắt đầu được.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="admin-card">
      <div className="integrity-run">
        <TextField
          label="Tỉ lệ báo nhầm cho phép (%)"
          inputMode="decimal"
          value={rate}
          onChange={(event) => setRate(event.target.value)}
          error={error ?? undefined}
          hint="Xác suất để toàn bộ danh sách có dù chỉ một cặp bài trong sạch bị báo nhầm là giống nhau. Mặc định 1 %."
        />
        <Button onClick={() => void start()} disabled={busy || status?.running}>
          {status?.running ? 'Đang kiểm tra…' : 'Chạy kiểm tra'}
        </Button>
      </div>
      {run ? (
        <p data-testid="integrity-run">
          Lần kiểm tra gần nhất: {formatDateTime(run.ran_at)} – {formatNumber(run.exams)} bài thi, {formatNumber(run.pairs)} cặp bài được so sánh,{' '}
          {formatNumber(run.tests)} phép so sánh có thể đạt ngưỡng; tỉ lệ báo nhầm cho phép {formatNumber(run.family_rate_percent, Number.isInteger(run.family_rate_percent) ? 0 : 1)} %, chia đều cho bốn
          nhóm (so sánh câu trả lời và trả lời theo sát, mỗi loại cho cặp chung tài khoản hoặc cùng lần đăng nhập và cho cặp cùng lớp), nên một cặp cùng lớp bị báo
          giống nhau khi p ≤ {formatProbability(run.threshold)} (ngưỡng của từng cặp ghi trong chứng cứ). Thời gian chạy {formatNumber(run.seconds, 1)} giây.
        </p>
      ) : (
        <p>Chưa chạy lần kiểm tra nào.</p>
      )}
    </div>
  );
}

type Section = { group: NonNullable<IntegrityFlag['group']> | null; flags: IntegrityFlag[] };

/**
 * The flags in the server's order, those of one family together (at the place of its first): two
 * siblings on one login at once give a flag per pair, reviewed and dismissed as one.
 */
function sectionsOf(flags: IntegrityFlag[]): Section[] {
  const perGroup = new Map<string, number>();
  for (const flag of flags) if (flag.group) perGroup.set(flag.group.key, (perGroup.get(flag.group.key) ?? 0) + 1);
  const sections: Section[] = [];
  const byGroup = new Map<string, Section>();
  for (const flag of flags) {
    const group = flag.group && (perGroup.get(flag.group.key) ?? 0) > 1 ? flag.group : null;
    const existing = group ? byGroup.get(group.key) : undefined;
    if (existing) existing.flags.push(flag);
    else {
      const section = { group, flags: [flag] };
      sections.push(section);
      if (group) byGroup.set(group.key, section);
    }
  }
  return sections;
}

function FlagGroup({ group, flags, onDecided }: { group: NonNullable<IntegrityFlag['group']>; flags: IntegrityFlag[]; onDecided: () => void }) {
  const [dismissing, setDismissing] = useState(false);
  const open = flags.filter((flag) => flag.status === 'open');
  const headingId = `integrity-group-${group.key.replace(/\W/g, '-')}`;
  return (
    <section className="integrity-group" aria-labelledby={headingId}>
      <h3 id={headingId}>{group.label}</h3>
      <p>
        {formatNumber(flags.length)} cảnh báo, {formatNumber(open.length)} chưa xử lý.
      </p>
      {open.length > 0 && (
        <div className="integrity-actions">
          <Button variant="outline" onClick={() => setDismissing(true)}>
            Bỏ qua {formatNumber(open.length)} cảnh báo chưa xử lý của gia đình
          </Button>
        </div>
      )}
      <ol className="integrity-flags">
        {flags.map((flag) => (
          <li key={flag.id}>
            <FlagCard flag={flag} onDecided={onDecided} level={4} />
          </li>
        ))}
      </ol>
      {dismissing && (
        <GroupDismissDialog
          group={group}
          flagIds={open.map((flag) => flag.id)}
          onClose={() => setDismissing(false)}
          onDone={() => {
            setDismissing(false);
            onDecided();
          }}
        />
      )}
    </section>
  );
}

function GroupDismissDialog({ group, flagIds, onClose, onDone }: { group: NonNullable<IntegrityFlag['group']>; flagIds: number[]; onClose: () => void; onDone: () => void }) {
  const form = useForm<z.input<typeof reasonSchema>, unknown, z.output<typeof reasonSchema>>({ resolver: zodResolver(reasonSchema), defaultValues: { reason: '' } });
  const onSubmit = form.handleSubmit(async ({ reason }) => {
    try {
      await api.post('/admin/integrity/flags/dismiss', { flag_ids: flagIds, reason });
      notify('success', `Đã bỏ qua ${formatNumber(flagIds.length)} cảnh báo`);
      onDone();
    } catch (error) {
      reportSaveError(error, form.setError, ['reason'], 'Chưa lưu được', 12_000);
    }
  });
  return (
    <Modal title={`Bỏ qua ${formatNumber(flagIds.length)} cảnh báo chưa xử lý?`} onClose={onClose}>
      <p>{group.label}.</p>
      <p>Các cảnh báo được đánh dấu đã xem xét, cùng một lý do, và giữ nguyên kết quả. Các lần kiểm tra sau không báo lại các cặp bài này.</p>
      <form onSubmit={onSubmit} noValidate>
        <TextField label="Lý do (ghi vào nhật ký)" {...form.register('reason')} error={form.formState.errors.reason?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} submitLabel="Bỏ qua các cảnh báo" />
      </form>
    </Modal>
  );
}

function FlagCard({ flag, onDecided, level = 3 }: { flag: IntegrityFlag; onDecided: () => void; level?: 3 | 4 }) {
  const Heading = level === 3 ? 'h3' : 'h4';
  const [showSheets, setShowSheets] = useState(false);
  const [dialog, setDialog] = useState<{ kind: 'dismiss' } | { kind: 'withhold'; contestantId: number; name: string } | null>(null);
  const headingId = `integrity-flag-${flag.id}`;
  return (
    <article className={`admin-card integrity-flag integrity-${flag.status}`} aria-labelledby={headingId}>
      <Heading id={headingId}>
        {integrityFlagLabels[flag.kind]} <span className="integrity-status">({integrityStatusLabels[flag.status]})</span>
      </Heading>
      <p>
        {flag.contact.length > 0 && <>Liên hệ: {flag.contact.join(', ')}. </>}
        {flag.summary}
      </p>
      <div className="integrity-exams">
        {flag.exams.map((exam) => (
          <dl key={exam.exam_id} className="integrity-exam">
            <dt>Học sinh</dt>
            <dd>
              <strong>{exam.fullname}</strong> – {exam.school}
              {exam.class_name ? `, lớp ${exam.class_name}` : ''}
              {exam.held ? ' (đang tạm giữ giải)' : ''}
            </dd>
            <dt>Bài thi</dt>
            <dd>
              Lần {exam.attempt}, {exam.points === null ? '—' : `${formatNumber(exam.points)} điểm`}
            </dd>
            <dt>Thời gian</dt>
            <dd>
              Bắt đầu {formatDateTime(exam.start_time)}, nộp {exam.submitted_at ? formatDateTime(exam.submitted_at) : '—'}
              {exam.duration_seconds !== null ? ` (${formatDuration(exam.duration_seconds)})` : ''}
            </dd>
            <dt>Thiết bị</dt>
            <dd>{exam.device ? `Lần đăng nhập số ${exam.device.session_id}${exam.device.ip ? `, địa chỉ ${exam.device.ip}` : ''}${exam.device.user_agent ? `, ${exam.device.user_agent}` : ''}` : 'Không rõ'}</dd>
          </dl>
        ))}
      </div>
      {flag.status !== 'open' && (
        <p className="muted">
          {integrityStatusLabels[flag.status]} bởi {flag.decided_by ?? '—'} lúc {flag.decided_at ? formatDateTime(flag.decided_at) : '—'}. Lý do: {flag.reason}
        </p>
      )}
      <div className="integrity-actions">
        <Button variant="outline" aria-expanded={showSheets} onClick={() => setShowSheets((v) => !v)}>
          {showSheets ? 'Ẩn bài làm' : flag.exams.length > 1 ? 'Xem hai bài làm' : 'Xem bài làm'}
        </Button>
        {flag.status === 'open' && (
          <>
            <Button variant="outline" onClick={() => setDialog({ kind: 'dismiss' })}>
              Bỏ qua cảnh báo
            </Button>
            {flag.exams.map((exam) => (
              <Button key={exam.contestant_id} variant="danger" onClick={() => setDialog({ kind: 'withhold', contestantId: exam.contestant_id, name: exam.fullname })}>
                Tạm giữ giải của {exam.fullname}
              </Button>
            ))}
          </>
        )}
      </div>
      {showSheets && <Sheets flag={flag} />}
      {dialog && <DecisionDialog flag={flag} decision={dialog} onClose={() => setDialog(null)} onDone={() => { setDialog(null); onDecided(); }} />}
    </article>
  );
}

type SheetRow = IntegrityFlagDetail['sheet'][number];

function Sheets({ flag }: { flag: IntegrityFlag }) {
  const detail = useApiData<IntegrityFlagDetail>(`/admin/integrity/flags/${flag.id}`);
  if (detail.message) return <p role="alert">{detail.message}</p>;
  const names = flag.exams.map((exam) => exam.fullname);
  return (
    <>
      <SheetTable
        caption={`Bài làm đặt cạnh nhau: ${names.join(' và ')}. Câu cả hai cùng có đứng trước; câu sai giống nhau và câu trả lời giống hệt được lưu ngay sau bài kia (theo sát) được đánh dấu.`}
        exams={flag.exams}
        rows={detail.data?.sheet}
      />
      {detail.data?.more.map((pair) => (
        <SheetTable
          key={pair.exams.map((exam) => exam.exam_id).join('-')}
          caption={`Lượt thi khác cũng làm cùng lúc: ${pair.exams.map((exam) => `lượt ${exam.attempt} của ${exam.fullname}`).join(' và ')}.`}
          exams={pair.exams}
          rows={pair.sheet}
        />
      ))}
    </>
  );
}

function SheetTable({ caption, exams, rows }: { caption: string; exams: IntegrityFlag['exams']; rows: SheetRow[] | undefined }) {
  const answerCell = (answer: SheetRow['answers'][number] | undefined) =>
    !answer || !answer.drew ? <span className="muted">Không có câu này</span> : (
      <>
        {answer.answer ?? <em>Bỏ trống</em>} {answer.right ? '(đúng)' : '(sai)'}
        {answer.answered_at && <span className="muted"> – lưu lúc {formatClock(answer.answered_at)}</span>}
        {answer.first_at && answer.first_at !== answer.answered_at && <span className="muted"> (trả lời lần đầu lúc {formatClock(answer.first_at)})</span>}
      </>
    );
  const sameCell = (row: SheetRow) => (
    <>
      {row.identical_wrong ? <strong className="integrity-same-wrong">Sai giống nhau</strong> : row.identical ? 'Giống' : ''}
      {row.in_step_seconds !== null && <strong className="integrity-in-step"> – theo sát, sau {formatNumber(row.in_step_seconds)} giây</strong>}
    </>
  );
  return (
    <DataTable
      caption={caption}
      captionClass="muted"
      className="integrity-sheet"
      rows={rows}
      loading={!rows}
      rowKey={(row) => row.question_id}
      columns={[
        { header: 'Câu hỏi', rowHeader: true, cell: (row) => row.question },
        { header: 'Đáp án đúng', cell: (row) => row.key ?? '—' },
        ...exams.map((exam, i) => ({ header: `Bài của ${exam.fullname}`, cell: (row: SheetRow) => answerCell(row.answers[i]) })),
        exams.length > 1 && {
          header: 'Giống nhau',
          cell: sameCell,
        },
      ]}
    />
  );
}

const reasonSchema = dismissFlagRequestSchema;

function DecisionDialog({
  flag,
  decision,
  onClose,
  onDone,
}: {
  flag: IntegrityFlag;
  decision: { kind: 'dismiss' } | { kind: 'withhold'; contestantId: number; name: string };
  onClose: () => void;
  onDone: () => void;
}) {
  const form = useForm<z.input<typeof reasonSchema>, unknown, z.output<typeof reasonSchema>>({ resolver: zodResolver(reasonSchema), defaultValues: { reason: '' } });
  const withhold = decision.kind === 'withhold';
  const onSubmit = form.handleSubmit(async ({ reason }) => {
    try {
      if (withhold) await api.post(`/admin/integrity/flags/${flag.id}/withhold`, { contestant_id: decision.contestantId, reason });
      else await api.post(`/admin/integrity/flags/${flag.id}/dismiss`, { reason });
      notify('success', withhold ? `Đã tạm giữ giải của ${decision.name}` : 'Đã bỏ qua cảnh báo', withhold ? 'Áp dụng từ lần tính kết quả sau.' : undefined);
      onDone();
    } catch (error) {
      reportSaveError(error, form.setError, ['reason'], 'Chưa lưu được', 12_000);
    }
  });
  return (
    <Modal title={withhold ? `Tạm giữ giải của ${decision.name}?` : 'Bỏ qua cảnh báo này?'} onClose={onClose}>
      {withhold ? (
        <p>
          Từ lần tính kết quả sau, em được xếp sau mọi học sinh khác (cá nhân và trong trường) nên không nhận giải; người xếp kế tiếp nhận giải thay. Gia đình chỉ
          thấy thông báo kết quả đang được Ban tổ chức xem xét thêm, kèm số đường dây nóng, không thấy lý do.
        </p>
      ) : (
        <p>Cảnh báo được đánh dấu đã xem xét và giữ nguyên kết quả. Các lần kiểm tra sau không báo lại cặp bài này.</p>
      )}
      <form onSubmit={onSubmit} noValidate>
        <TextField label="Lý do (ghi vào nhật ký)" {...form.register('reason')} error={form.formState.errors.reason?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} submitLabel={withhold ? 'Tạm giữ giải' : 'Bỏ qua cảnh báo'} />
      </form>
    </Modal>
  );
}
