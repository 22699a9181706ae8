// /quan-tri/ket-qua: "Kết quả và giải thưởng". Compute the results (a background task on the
// server: this page polls its progress), decide the ties that cross a prize boundary, review the
// prize lists, publish, export the winners and the ceremony's numbers.
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { formatDateTime, formatMoney, formatNumber } from '../../../../shared/format';
import { adminResultsMessages } from '../../../../shared/messages';
import { prizeKindLabels } from '../../../../shared/schemas/admin-contest';
import { taskStageLabels, type ResultExportKind, type ResultsOverview, type ResultTaskView } from '../../../../shared/schemas/admin-results';
import type { Season } from '../../../../shared/schemas/admin-seasons';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/field';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { Loading } from '../../../components/ui/loading';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { laterTask } from './task-state';
import { useApiData } from '../../../lib/use-data';
import { downloadExport } from './download-export';
import { OutOfDateNote, PublishOutOfDateDialog } from './out-of-date';
import { PrizeList } from './prize-list';
import { TieList } from './tie-list';
import { WithdrawalsCard } from './withdraw-prize';
import { WinnersPdfCard } from './winners-pdf-card';
import './results.css';
import { ConfirmDialog } from '../kit/confirm-dialog';
import { DataTable } from '../../../components/ui/data-table';
import { useUnitWords } from '../../../lib/site';

/** How often the page asks for the progress of a running computation. */
const POLL_MS = 1500;

export function ResultsPage() {
  usePageTitle('Kết quả và giải thưởng');
  const [version, setVersion] = useState(0);
  const overview = useApiData<ResultsOverview>('/admin/results', version);
  const refresh = useCallback(() => setVersion((n) => n + 1), []);
  const data = overview.data;
  return (
    <section className="admin-page results-page">
      <h1>Kết quả và giải thưởng</h1>
      {overview.message && <p role="alert" className="field-error">{overview.message}</p>}
      {!data ? (
        !overview.message && <Loading />
      ) : (
        <>
          <RunCard data={data} onChange={refresh} />
          <TieList data={data} onChange={refresh} />
          <PublishCard data={data} onChange={refresh} />
          {data.run && <PrizeList version={version} onChange={refresh} />}
          <WithdrawalsCard withdrawals={data.withdrawals} />
          {data.run && data.ceremony && <CeremonyCard ceremony={data.ceremony} />}
          {data.run?.published_at && <WinnersPdfCard />}
          {data.run && <ExportsCard />}
        </>
      )}
      <EarlierSeasonCard />
    </section>
  );
}

function RunCard({ data, onChange }: { data: ResultsOverview; onChange: () => void }) {
  const [task, setTask] = useState<ResultTaskView | null>(data.task);
  const [draft, setDraft] = useState(false);
  const [busy, setBusy] = useState(false);
  /** A refused or failed start: stays on the page until the organiser has read it (not a toast). */
  const [refusal, setRefusal] = useState<string | null>(null);
  useEffect(() => setTask((shown) => laterTask(shown, data.task)), [data.task]);
  const running = task?.status === 'running';

  // While the task runs, its progress comes from whichever server process is asked.
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      api
        .get<{ data: ResultTaskView | null }>('/admin/results/task')
        .then((answer) => {
          setTask(answer.data);
          if (answer.data?.status !== 'running') onChange();
        })
        .catch(() => {});
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, onChange]);

  const start = async () => {
    setBusy(true);
    setRefusal(null);
    try {
      const answer = await api.post<{ data: ResultTaskView }>('/admin/results/compute', { force: !data.contest.window_closed && draft });
      setTask(answer.data);
    } catch (error) {
      setRefusal(errorMessage(error) ?? adminResultsMessages.taskFailed);
    } finally {
      setBusy(false);
    }
  };

  const run = data.run;
  return (
    <div className="admin-card">
      <h2>Tính kết quả</h2>
      <p>
        Hết giờ thi: <strong>{formatDateTime(data.contest.exam_ends_at)}</strong>. Ngày công bố kết quả: <strong>{formatDateTime(data.contest.results_at)}</strong>.
      </p>
      {run ? (
        <p>
          Lần tính gần nhất: {formatDateTime(run.computed_at)} — {formatNumber(run.participants)} thí sinh, {formatNumber(run.exam_papers)} bài thi.{' '}
          {run.forced && <strong className="results-draft">Kết quả tạm tính (chưa chính thức)</strong>}
          {run.published_at && <strong className="results-published">Đã công bố lúc {formatDateTime(run.published_at)}</strong>}
        </p>
      ) : (
        <p>Chưa tính kết quả.</p>
      )}
      {run?.out_of_date && <OutOfDateNote run={run} outOfDate={run.out_of_date} />}
      {!data.contest.window_closed && (
        <CheckboxField
          label="Tính tạm trước khi hết giờ thi (kết quả chưa chính thức, không công bố được)"
          checked={draft}
          onChange={(event) => setDraft(event.target.checked)}
        />
      )}
      <div className="admin-actions">
        <Button onClick={start} disabled={busy || running || (!data.contest.window_closed && !draft)}>
          {run ? 'Tính lại kết quả' : 'Tính kết quả'}
        </Button>
      </div>
      {!data.contest.window_closed && !draft && <p className="muted">Chỉ tính kết quả chính thức sau khi hết giờ thi.</p>}
      {refusal ? (
        <div role="alert" className="results-refusal">
          <p>
            <strong>{run ? 'Chưa tính lại được kết quả:' : 'Chưa tính được kết quả:'}</strong> {refusal}
          </p>
          <p>{run ? `Kết quả đang có vẫn là của lần tính lúc ${formatDateTime(run.computed_at)}.` : 'Chưa có kết quả nào.'}</p>
          <Button variant="outline" onClick={() => setRefusal(null)}>
            Đã hiểu
          </Button>
        </div>
      ) : (
        task && <TaskProgress task={task} />
      )}
    </div>
  );
}

function TaskProgress({ task }: { task: ResultTaskView }) {
  if (task.status === 'failed') {
    return (
      <p role="alert" className="field-error">
        Lần tính bắt đầu lúc {formatDateTime(task.started_at)} thất bại: {task.error}
      </p>
    );
  }
  if (task.status === 'done') {
    return (
      <p role="status" className="results-task-done">
        Đã tính xong lúc {formatDateTime(task.finished_at!)}
        {task.forced ? ' (tạm tính)' : ''}.
      </p>
    );
  }
  const storing = task.stage === 'storing' && task.total > 0;
  return (
    <div className="results-task" role="status">
      <label htmlFor="results-progress">
        {taskStageLabels[task.stage]}
        {storing && `: ${formatNumber(task.done)} / ${formatNumber(task.total)}`}…
      </label>
      <progress id="results-progress" max={storing ? task.total : undefined} value={storing ? task.done : undefined} />
    </div>
  );
}

function PublishCard({ data, onChange }: { data: ResultsOverview; onChange: () => void }) {
  const [confirming, setConfirming] = useState(false);
  if (!data.run) return null;
  return (
    <div className="admin-card">
      <h2>Công bố kết quả</h2>
      {data.run.published_at ? (
        <p>
          Kết quả đã công bố lúc {formatDateTime(data.run.published_at)}. Tính lại (ví dụ sau khi sửa đáp án) vẫn giữ công bố: phụ huynh thấy kết quả mới ngay. Không có
          thao tác huỷ công bố vì gia đình có thể đã xem và tải giấy chứng nhận.
        </p>
      ) : (
        <>
          <p>Sau khi công bố, phụ huynh và nhà trường xem được giải thưởng và tải giấy chứng nhận đạt giải.</p>
          {data.run.out_of_date && (
            <p className="results-reasons">Kết quả đã cũ (xem các thay đổi ở phần Tính kết quả): hãy tính lại trước khi công bố, hoặc xác nhận kèm lý do.</p>
          )}
          {data.publish.reasons.length > 0 && (
            <ul className="results-reasons" aria-label="Chưa công bố được vì">
              {data.publish.reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          )}
          <Button variant="accent" onClick={() => setConfirming(true)} disabled={!data.publish.allowed}>
            Công bố kết quả
          </Button>
        </>
      )}
      {confirming && data.run.out_of_date && (
        <PublishOutOfDateDialog data={data} summary={<PublishSummary data={data} />} onClose={() => setConfirming(false)} onChange={onChange} />
      )}
      {confirming && !data.run.out_of_date && (
        <ConfirmDialog
          title="Công bố kết quả? Không thể huỷ công bố."
          confirmLabel="Công bố kết quả"
          confirmVariant="primary"
          cancelLabel="Chưa công bố"
          done={['Đã công bố kết quả', adminResultsMessages.published]}
          failed="Chưa công bố được kết quả"
          onConfirm={async () => {
            await api.post('/admin/results/publish');
            onChange();
          }}
          onClose={() => setConfirming(false)}
        >
          <PublishSummary data={data} />
        </ConfirmDialog>
      )}
    </div>
  );
}

/** What becomes public on publishing, and where families will see it. */
function PublishSummary({ data }: { data: ResultsOverview }) {
  const tiers = data.ceremony?.tiers.filter((tier) => tier.winners > 0) ?? [];
  const total = data.ceremony?.total ?? 0;
  return (
    <>
      <p>
        Kết quả tính lúc {formatDateTime(data.run!.computed_at)} ({formatNumber(data.run!.participants)} thí sinh) sẽ được công khai ngay, với các giải sau:
      </p>
      <ul className="results-publish-tiers" aria-label="Các giải sẽ công bố">
        {tiers.map((tier) => (
          <li key={tier.code}>
            {tier.name} <span className="muted">({prizeKindLabels[tier.kind]})</span>: {formatNumber(tier.winners)} giải × {formatMoney(tier.amount)} = {formatMoney(tier.total)}
          </li>
        ))}
      </ul>
      <p>
        Tổng tiền thưởng: <strong>{formatMoney(total)}</strong>.
      </p>
      {data.open_flags > 0 && (
        <p className="results-reasons">
          Còn {formatNumber(data.open_flags)} cảnh báo ở trang <Link href="~/quan-tri/kiem-tra-ket-qua">Kiểm tra kết quả</Link> chưa được xem xét.
        </p>
      )}
      <p>
        Phụ huynh thấy giải của con (tên giải, số tiền) trên trang Giấy chứng nhận của từng thí sinh (mở từ trang kết quả bài thi và từ báo cáo của phụ huynh); giấy
        chứng nhận đạt giải được cấp trong vài phút sau khi công bố để tải về (PDF). Nhà trường thấy giấy chứng nhận giải tập thể trong báo cáo của trường.
      </p>
      <p>
        <strong>Không thể huỷ công bố:</strong> gia đình có thể đã xem và tải giấy chứng nhận. Sau này vẫn tính lại được (ví dụ sau khi sửa đáp án), và phụ huynh sẽ thấy kết
        quả mới.
      </p>
    </>
  );
}

function CeremonyCard({ ceremony }: { ceremony: NonNullable<ResultsOverview['ceremony']> }) {
  return (
    <div className="admin-card">
      <h2>Kinh phí trao giải</h2>
      <DataTable
        caption="Theo cài đặt giải thưởng và theo kết quả đã tính (đồng hạng cùng nhận giải có thể làm tăng số giải)."
        captionClass="muted"
        rows={ceremony.tiers}
        rowKey={(tier) => tier.code}
        columns={[
          {
            header: 'Giải',
            rowHeader: true,
            cell: (tier) => (
              <>
                {tier.name} <span className="muted">({prizeKindLabels[tier.kind]})</span>
              </>
            ),
          },
          { header: 'Một giải', numeric: true, cell: (tier) => formatMoney(tier.amount) },
          { header: 'Số giải (cài đặt)', numeric: true, cell: (tier) => formatNumber(tier.planned_winners) },
          { header: 'Số giải trao', numeric: true, cell: (tier) => formatNumber(tier.winners) },
          { header: 'Thành tiền', numeric: true, cell: (tier) => formatMoney(tier.total) },
        ]}
        footer={
          <tr>
            <th scope="row">Tổng cộng</th>
            <td />
            <td className="num" colSpan={2}>
              theo cài đặt {formatMoney(ceremony.planned_total)}
            </td>
            <td className="num">
              <strong>{formatMoney(ceremony.total)}</strong>
            </td>
          </tr>
        }
      />
    </div>
  );
}

const exportLabels: Record<ResultExportKind, string> = {
  winners: 'Danh sách đoạt giải (có SĐT phụ huynh)',
  contestants: 'Kết quả của mọi thí sinh',
  ceremony: 'Kinh phí trao giải',
};

function ExportsCard() {
  const say = useUnitWords();
  const [busy, setBusy] = useState<ResultExportKind | null>(null);
  const run = async (kind: ResultExportKind) => {
    setBusy(kind);
    try {
      await downloadExport(kind);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="admin-card">
      <h2>Xuất Excel</h2>
      <p className="muted">
        {say(
          'Danh sách đoạt giải có số điện thoại phụ huynh để gọi mời nhận giải: dữ liệu cá nhân, chỉ dùng cho việc trao giải. Mỗi lần xuất được ghi vào nhật ký thao tác. Lọc theo quận/huyện hoặc trường ở mục Danh sách giải.',
        )}
      </p>
      <div className="admin-actions">
        {(Object.keys(exportLabels) as ResultExportKind[]).map((kind) => (
          <Button key={kind} variant="outline" onClick={() => run(kind)} disabled={busy !== null}>
            {busy === kind ? 'Đang xuất…' : exportLabels[kind]}
          </Button>
        ))}
      </div>
    </div>
  );
}

/** An earlier season's prizes and exports, read-only (issue 26): chosen in a season selector. */
function EarlierSeasonCard() {
  const seasons = useApiData<Season[]>('/admin/seasons').data?.filter((season) => !season.is_current) ?? [];
  const [chosen, setChosen] = useState('');
  if (seasons.length === 0) return null;
  const season = Number(chosen) || undefined;
  return (
    <div className="admin-card">
      <h2 id="earlier-season-title">Kết quả các mùa thi trước (chỉ xem)</h2>
      <div className="admin-toolbar">
        <SelectField label="Mùa thi" value={chosen} onChange={(event) => setChosen(event.target.value)}>
          <option value="">Chọn mùa thi</option>
          {seasons.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name}
            </option>
          ))}
        </SelectField>
        {season && (
          <>
            <Button variant="outline" onClick={() => downloadExport('contestants', `?season=${season}`)}>
              Kết quả mọi thí sinh (.xlsx)
            </Button>
            <Button variant="outline" onClick={() => downloadExport('ceremony', `?season=${season}`)}>
              Kinh phí trao giải (.xlsx)
            </Button>
          </>
        )}
      </div>
      {season && <PrizeList key={season} version={0} onChange={() => {}} season={season} />}
    </div>
  );
}
