// The school administrator's report (spec section 2): the school prize certificate, totals,
// 'Xuất excel' and three tabs (pupils by class, TOP 30 scores, classes and their teachers).
import { useCallback, useRef, useState, type KeyboardEvent } from 'react';
import { formatAverage, formatDate, formatNumber } from '../../../shared/format';
import { messages, resultMessages } from '../../../shared/messages';
import { TOP_SCORES_SHOWN } from '../../../shared/rules';
import type { ReportSchoolResponse } from '../../../shared/schemas/reports';
import { Button } from '../../components/ui/button';
import { notify } from '../../components/ui/notices';
import { api } from '../../lib/api-client';
import { useData } from '../../lib/use-data';
import { useCertificateImage } from '../../lib/certificate-files';
import { exportReport } from './export-excel';
import { Loading } from '../../components/ui/loading';
import { Modal } from '../../components/ui/modal';
import { CertificateBundle } from './certificate-bundle';

const TABS = [
  { id: 'pupils', label: 'Tổng số học sinh' },
  { id: 'scores', label: 'Điểm thi - TOP 30' },
  { id: 'classes', label: 'Lớp - Giáo viên truyền lửa' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export function SchoolReport() {
  // An earlier season on request (issue 26); none: the current one.
  const [season, setSeason] = useState<number | null>(null);
  const path = season === null ? '/report-school' : `/report-school?season=${season}`;
  // Report load errors are only logged (spec section 8): the page keeps showing it is loading.
  const report = useData(path, (signal) => api.get<ReportSchoolResponse>(path, { signal }), {
    warn: 'Không tải được báo cáo của trường',
  }).data;
  const [tab, setTab] = useState<TabId>('pupils');
  const [exporting, setExporting] = useState(false);
  // The spec's 'Thành công' popup after the export (not a toast).
  const [exported, setExported] = useState(false);
  const closeExported = useCallback(() => setExported(false), []);

  const onExport = async () => {
    if (!report) return;
    setExporting(true);
    try {
      await exportReport(report.data);
      setExported(true);
    } catch (error) {
      console.warn('Xuất excel thất bại', error);
      notify('error', messages.failedTitle, resultMessages.exportFailed);
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <h1>Báo cáo cho trường</h1>
      {!report ? (
        <Loading />
      ) : (
        <>
          <p className="report-school-name">{report.data.school.name}</p>
          {report.seasons && report.seasons.length > 1 && (
            <label className="report-season">
              Mùa thi
              <select value={report.seasons.find((item) => item.selected)?.id ?? ''} onChange={(event) => setSeason(Number(event.target.value))}>
                {report.seasons.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.is_current ? item.name : `${item.name} (đã kết thúc)`}
                  </option>
                ))}
              </select>
            </label>
          )}
          <SchoolPrize report={report} />
          {report.results_published && <CertificateBundle report={report} season={season} />}
          <div className="report-totals">
            <div className="report-total">
              <span className="report-total-label">Số học sinh đăng ký</span>
              <strong data-testid="total-register">{formatNumber(report.data.total_register)}</strong>
            </div>
            <div className="report-total">
              <span className="report-total-label">Số học sinh đã thi</span>
              <strong data-testid="total-done">{formatNumber(report.data.total_done)}</strong>
            </div>
            <Button variant="accent" onClick={onExport} disabled={exporting} aria-busy={exporting || undefined}>
              Xuất excel
            </Button>
          </div>
          <Tabs current={tab} onChange={setTab} />
          <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} tabIndex={0} className="report-panel">
            {tab === 'pupils' && <PupilsTable report={report} />}
            {tab === 'scores' && <ScoresTable report={report} />}
            {tab === 'classes' && <ClassesTable report={report} />}
          </div>
        </>
      )}
      {exported && (
        <Modal
          title={messages.successTitle}
          onClose={closeExported}
          actions={
            <Button variant="primary" onClick={closeExported}>
              Đóng
            </Button>
          }
        >
          <p>{messages.exportSuccess}</p>
        </Modal>
      )}
    </>
  );
}

/** WAI-ARIA tabs: arrow keys, Home and End move between tabs (automatic activation). */
function Tabs({ current, onChange }: { current: TabId; onChange: (tab: TabId) => void }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent) => {
    const index = TABS.findIndex((t) => t.id === current);
    const next =
      event.key === 'ArrowRight' ? (index + 1) % TABS.length
      : event.key === 'ArrowLeft' ? (index - 1 + TABS.length) % TABS.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? TABS.length - 1
      : -1;
    if (next < 0) return;
    event.preventDefault();
    onChange(TABS[next]!.id);
    refs.current[next]?.focus();
  };
  return (
    <div className="tabs report-tabs" role="tablist" aria-label="Báo cáo của trường" onKeyDown={onKeyDown}>
      {TABS.map((t, index) => (
        <button
          key={t.id}
          ref={(element) => {
            refs.current[index] = element;
          }}
          type="button"
          role="tab"
          id={`tab-${t.id}`}
          className="tab"
          aria-selected={current === t.id}
          aria-controls={`panel-${t.id}`}
          tabIndex={current === t.id ? 0 : -1}
          onClick={() => onChange(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

function SchoolPrize({ report }: { report: ReportSchoolResponse }) {
  const image = useCertificateImage(report.prize.image_cer);
  if (!report.results_published || !report.prize.image_cer) {
    return <p className="alert">{resultMessages.announcement(report.results_published, formatDate(report.results_at))}</p>;
  }
  return (
    <figure className="report-prize">
      {image.url ? (
        <img src={image.url} alt={`Giấy chứng nhận ${report.prize.prize_name ?? ''} của ${report.data.school.name}`} width={1400} height={990} />
      ) : (
        <div className="report-prize-placeholder" aria-busy={!image.failed}>
          {image.failed ? resultMessages.loadFailed : 'Đang tải giấy chứng nhận…'}
        </div>
      )}
      <figcaption>
        <strong>{report.prize.prize_name}</strong> — {report.prize.desc}
      </figcaption>
    </figure>
  );
}

function PupilsTable({ report }: { report: ReportSchoolResponse }) {
  return (
    <table className="table table-responsive">
      <caption className="visually-hidden">Số học sinh theo lớp</caption>
      <thead>
        <tr>
          <th scope="col">Lớp</th>
          <th scope="col">Số học sinh đăng ký</th>
          <th scope="col">Số học sinh đã thi</th>
        </tr>
      </thead>
      <tbody>
        {report.data.quantity_students.map((row) => (
          <tr key={row.class}>
            <td data-label="Lớp">{row.class}</td>
            <td data-label="Số học sinh đăng ký">{formatNumber(row.total_register)}</td>
            <td data-label="Số học sinh đã thi">{formatNumber(row.total_done)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ScoresTable({ report }: { report: ReportSchoolResponse }) {
  const rows = report.data.score.slice(0, TOP_SCORES_SHOWN);
  if (rows.length === 0) return <p className="muted">Chưa có học sinh nào của trường hoàn thành bài thi.</p>;
  return (
    <table className="table table-responsive">
      <caption className="visually-hidden">Điểm thi - TOP 30</caption>
      <thead>
        <tr>
          <th scope="col">Hạng</th>
          <th scope="col">Họ và tên</th>
          <th scope="col">Lớp</th>
          <th scope="col">Số lần thi</th>
          <th scope="col">Điểm</th>
          <th scope="col">Thời gian</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={`${row.rank}-${index}`}>
            <td data-label="Hạng">
              {row.rank}
              {row.tied && <span className="report-tied"> (đồng hạng)</span>}
            </td>
            <td data-label="Họ và tên">{row.fullname}</td>
            <td data-label="Lớp">{row.class}</td>
            <td data-label="Số lần thi">{row.count_exam}</td>
            <td data-label="Điểm">{row.points}</td>
            <td data-label="Thời gian">{row.duration}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ClassesTable({ report }: { report: ReportSchoolResponse }) {
  return (
    <>
      {report.prizes_class.length > 0 && (
        <ul className="report-congratulations">
          {report.prizes_class.map((prize) => (
            <li key={prize.class_room.name} className="alert alert-success">
              Chúc mừng giáo viên <strong>{prize.teacher_name}</strong> và lớp <strong>{prize.class_room.name}</strong> đạt{' '}
              <strong>{prize.prize_name}</strong>. {prize.desc}
            </li>
          ))}
        </ul>
      )}
      <table className="table table-responsive">
        <caption className="visually-hidden">Lớp - Giáo viên truyền lửa</caption>
        <thead>
          <tr>
            <th scope="col">Lớp</th>
            <th scope="col">Số học sinh dự thi</th>
            <th scope="col">Điểm trung bình</th>
            <th scope="col">Thời gian trung bình</th>
          </tr>
        </thead>
        <tbody>
          {report.data.class.map((row) => (
            <tr key={row.class}>
              <td data-label="Lớp">{row.class}</td>
              <td data-label="Số học sinh dự thi">{formatNumber(row.total_done)}</td>
              <td data-label="Điểm trung bình">{formatAverage(row.avg_score)}</td>
              <td data-label="Thời gian trung bình">{row.avg_duration_format}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
