// One import screen for every kind (schools, class teachers, school administrators, questions):
// choose a file, see the preview (what would be created, updated or left, or every problem by
// row and column), then store it with one click. Nothing is stored until the preview is clean.
import { useId, useState, type MouseEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../components/ui/notices';
import { ApiRequestError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { downloadFile } from '../../../lib/download';
import { saveBlob } from '../../../lib/certificate-files';
import { getSession } from '../../../lib/session';
import { importColumnsHint, type ImportChanges, type RowProblem, type TemplateKind } from '../../../../shared/schemas/admin';
import { DataTable } from '../../../components/ui/data-table';
import { uploadFile, type UploadProgress } from './upload';
import { formatNumber } from '../../../../shared/format';
import { useUnitWords } from '../../../lib/site';

export interface ImportCountsData extends Partial<ImportChanges> {
  created: number;
  updated: number;
  unchanged: number;
  rows: number;
  file_name: string;
  dry_run: boolean;
  /** What the preview says besides its counts, a line each (a total row skipped). */
  notes?: string[];
  [extra: string]: unknown;
}

interface ImportPanelProps {
  title: string;
  /** POST path under /api, e.g. /admin/schools/import */
  path: string;
  /** Template to download, e.g. schools (GET /api/admin/templates/schools.xlsx); none for free formats. */
  template?: TemplateKind;
  accept: string;
  /** Extra form fields (e.g. mode=replace). */
  fields?: Record<string, string>;
  /** What the file may be, shown under the file input. */
  hint?: ReactNode;
  /** Called after a real (not dry-run) import with its answer. */
  onImported?: (data: ImportCountsData) => void;
  /** Extra content under a stored import's counts (e.g. the set-password links). */
  renderResult?: (data: ImportCountsData) => ReactNode;
  /** Extra content under a preview's counts (e.g. what a replace would remove). */
  renderPreview?: (data: ImportCountsData) => ReactNode;
  /** What the file's rows are ("dòng" by default; a GIFT file's are questions). */
  unit?: (data: ImportCountsData) => string;
  /** The save button's text ("Lưu 120 dòng" by default). */
  saveLabel?: (data: ImportCountsData) => string;
}

type State =
  | { step: 'idle' }
  | { step: 'busy'; progress: UploadProgress; dryRun: boolean }
  | { step: 'preview'; data: ImportCountsData }
  | { step: 'problems'; message: string; problems: RowProblem[]; total: number }
  | { step: 'done'; data: ImportCountsData };

export function ImportPanel({ title, path, template, accept, fields = {}, hint, onImported, renderResult, renderPreview, unit = () => 'dòng', saveLabel }: ImportPanelProps) {
  const say = useUnitWords();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<State>({ step: 'idle' });

  async function send(dryRun: boolean) {
    if (!file) return;
    setState({ step: 'busy', progress: { sent: 0, phase: 'sending' }, dryRun });
    try {
      const answer = await uploadFile<{ data: ImportCountsData }>(path, file, { ...fields, dry_run: dryRun ? '1' : '0' }, (progress) =>
        setState({ step: 'busy', progress, dryRun }),
      );
      if (dryRun) setState({ step: 'preview', data: answer.data });
      else {
        setState({ step: 'done', data: answer.data });
        notify('success', 'Đã nhập dữ liệu', `${answer.data.file_name}: thêm ${answer.data.created}, cập nhật ${answer.data.updated}.`);
        onImported?.(answer.data);
      }
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 422) {
        const total = typeof error.body.errors_total === 'number' ? error.body.errors_total : error.rowProblems.length;
        setState({ step: 'problems', message: error.message, problems: error.rowProblems, total });
      } else {
        setState({ step: 'idle' });
        notify('error', 'Không nhập được tệp', errorMessage(error));
      }
    }
  }

  return (
    <section className="admin-card import-panel" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>{title}</h2>
      {template && (
        <p>
          <a href={`/api/admin/templates/${template}.xlsx`} onClick={(event) => downloadTemplate(event, template)}>
            Tải tệp mẫu (mau-{template}.xlsx)
          </a>{' '}
          — {say(importColumnsHint(template))}
        </p>
      )}
      <div className="field">
        <label htmlFor={inputId}>Chọn tệp</label>
        <input
          id={inputId}
          type="file"
          accept={accept}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setState({ step: 'idle' });
          }}
        />
        {hint && <span className="field-hint">{hint}</span>}
      </div>
      <div className="admin-actions">
        <Button disabled={!file || state.step === 'busy'} onClick={() => void send(true)}>
          Kiểm tra tệp
        </Button>
        {state.step === 'preview' && (
          <Button variant="accent" onClick={() => void send(false)}>
            {saveLabel ? saveLabel(state.data) : `Lưu ${formatNumber(state.data.rows)} ${unit(state.data)}`}
          </Button>
        )}
      </div>
      <div aria-live="polite">
        {state.step === 'busy' && (
          <p className="import-progress">
            <progress max={1} value={state.progress.phase === 'sending' ? state.progress.sent : undefined} />{' '}
            {state.progress.phase === 'sending'
              ? `Đang tải lên ${Math.round(state.progress.sent * 100)}%…`
              : state.dryRun
                ? 'Đang kiểm tra từng dòng…'
                : 'Đang lưu…'}
          </p>
        )}
        {state.step === 'preview' && (
          <div className="import-summary" role="status">
            <p>
              Tệp hợp lệ ({formatNumber(state.data.rows)} {unit(state.data)}): sẽ thêm mới {formatNumber(state.data.created)}, cập nhật {formatNumber(state.data.updated)},
              giữ nguyên {formatNumber(state.data.unchanged)}. Chưa có gì được lưu: bấm “Lưu” để lưu tất cả.
            </p>
            <ImportNotes notes={state.data.notes} />
            <ImportChangeList data={state.data} future />
            {renderPreview?.(state.data)}
          </div>
        )}
        {state.step === 'done' && (
          <div className="import-summary" role="status">
            <p>
              Đã lưu: thêm mới {formatNumber(state.data.created)}, cập nhật {formatNumber(state.data.updated)}, giữ nguyên {formatNumber(state.data.unchanged)}.
            </p>
            <ImportNotes notes={state.data.notes} />
            <ImportChangeList data={state.data} future={false} />
            {renderResult?.(state.data)}
          </div>
        )}
        {state.step === 'problems' && (
          <ImportProblemList message={state.message} problems={state.problems} total={state.total} onDownload={file ? () => void downloadErrors(path, file, fields) : undefined} />
        )}
      </div>
    </section>
  );
}

function ImportNotes({ notes = [] }: { notes?: string[] }) {
  return notes.map((note) => <p key={note}>{note}</p>);
}

/** The districts and schools an import creates and each row it updates ("Trường X: Số học sinh 450 → 520"), with how many more. */
function ImportChangeList({ data, future }: { data: ImportCountsData; future: boolean }) {
  const say = useUnitWords();
  const { creations = [], creations_total = 0, updates = [], updates_total = 0 } = data;
  const more = (total: number, listed: number) => total > listed && <li>… và {formatNumber(total - listed)} mục khác.</li>;
  return (
    <>
      {creations.length > 0 && (
        <>
          <p>{future ? 'Sẽ thêm mới vào danh mục:' : 'Đã thêm mới vào danh mục:'}</p>
          <ul className="import-changes">
            {creations.map((c, i) => (
              <li key={i}>
                {c.kind === 'district' ? say('Quận/huyện') : c.kind === 'class' ? 'Lớp' : 'Trường'} {c.name}
              </li>
            ))}
            {more(creations_total, creations.length)}
          </ul>
        </>
      )}
      {updates.length > 0 && (
        <>
          <p>{future ? 'Sẽ cập nhật:' : 'Đã cập nhật:'}</p>
          <ul className="import-changes">
            {updates.map((u) => (
              <li key={u.row}>
                Dòng {u.row}, {u.key}: {u.changes.map((c) => `${c.field} ${c.before || '(trống)'} → ${c.after || '(trống)'}`).join('; ')}
              </li>
            ))}
            {more(updates_total, updates.length)}
          </ul>
        </>
      )}
    </>
  );
}

function ImportProblemList({ message, problems, total, onDownload }: { message: string; problems: RowProblem[]; total: number; onDownload?: () => void }) {
  // Problems of the header (row 1) are the file's shape: no list of rows to download.
  const rowProblems = problems.some((problem) => problem.row > 1);
  return (
    <div className="import-problems" role="alert">
      <p>{message}</p>
      {problems.length > 0 && (
        <DataTable
          caption="Các lỗi trong tệp"
          rows={problems}
          rowKey={(_problem, i) => i}
          columns={[
            { header: 'Dòng', cell: (problem) => problem.row },
            { header: 'Cột', cell: (problem) => problem.column },
            { header: 'Lỗi', cell: (problem) => problem.message },
          ]}
        />
      )}
      {total > problems.length && <p>… và {formatNumber(total - problems.length)} lỗi khác.</p>}
      {rowProblems && onDownload && (
        <p>
          <Button variant="outline" onClick={onDownload}>
            Tải toàn bộ {formatNumber(total)} lỗi (.xlsx, lỗi ghi bên cạnh từng dòng)
          </Button>
        </p>
      )}
    </div>
  );
}

/** Every problem of the file as an .xlsx: the same upload with errors=xlsx (nothing is stored). */
async function downloadErrors(path: string, file: File, fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries({ ...fields, dry_run: '1', errors: 'xlsx' })) form.append(key, value);
  form.append('file', file, file.name);
  try {
    const response = await fetch(`/api${path}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${getSession()?.token ?? ''}` } });
    if (!response.ok) throw new Error(String(response.status));
    saveBlob(await response.blob(), `loi-${file.name.replace(/\.[^.]*$/, '')}.xlsx`);
  } catch {
    notify('error', 'Không tải được danh sách lỗi. Vui lòng thử lại.');
  }
}

/** The template needs the session's token, so it is fetched and saved rather than linked. */
function downloadTemplate(event: MouseEvent, template: string) {
  event.preventDefault();
  void downloadFile(`/admin/templates/${template}.xlsx`, `mau-${template}.xlsx`, 'Không tải được tệp mẫu');
}
