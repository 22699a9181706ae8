// The school's certificates in one PDF to print (issue 37): the whole school or one class, built
// by the server in the background (POST), its progress polled (GET) until the file can be
// downloaded: A4, one certificate a page.
import { useEffect, useState, type FormEvent } from 'react';
import { formatNumber } from '../../../shared/format';
import type { Bundle } from '../../../shared/schemas/certificate-printing';
import type { ReportSchoolResponse } from '../../../shared/schemas/reports';
import { Button } from '../../components/ui/button';
import { notify } from '../../components/ui/notices';
import { api } from '../../lib/api-client';
import { fetchCertificateBlob, saveBlob } from '../../lib/certificate-files';
import { errorMessage } from '../../lib/server-errors';

const POLL_MS = 1000;
const WHOLE_SCHOOL = '';

const building = (bundle: Bundle | undefined) => bundle?.status === 'queued' || bundle?.status === 'building';
const scopeName = (bundle: Bundle) => (bundle.class === null ? 'cả trường' : `lớp ${bundle.class}`);

export function CertificateBundle({ report, season }: { report: ReportSchoolResponse; season: number | null }) {
  const [scope, setScope] = useState(WHOLE_SCHOOL);
  const [bundle, setBundle] = useState<Bundle>();
  const [starting, setStarting] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<string>();
  const classes = report.data.class.map((row) => row.class);

  // The school's latest bundle of the season, as the page opens.
  useEffect(() => {
    const controller = new AbortController();
    const query = season === null ? '' : `?season=${season}`;
    api.get<{ data: Bundle[] }>(`/report-school/certificates${query}`, { signal: controller.signal }).then(
      (answer) => setBundle(answer.data[0]),
      (failure: unknown) => {
        if (!controller.signal.aborted) console.warn('Không tải được các tệp giấy chứng nhận', failure);
      },
    );
    return () => controller.abort();
  }, [season]);

  // Its progress, every second while it is being built.
  const id = bundle?.id;
  const polling = building(bundle);
  useEffect(() => {
    if (!polling || id === undefined) return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      api.get<{ data: Bundle }>(`/report-school/certificates/${id}`, { signal: controller.signal }).then(
        (answer) => setBundle(answer.data),
        (failure: unknown) => {
          if (!controller.signal.aborted) console.warn('Không tải được tiến độ', failure);
        },
      );
    }, POLL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [id, polling]);

  const onStart = async (event: FormEvent) => {
    event.preventDefault();
    setStarting(true);
    setError(undefined);
    try {
      const answer = await api.post<{ data: Bundle }>('/report-school/certificates', { ...(scope ? { class: scope } : {}), ...(season === null ? {} : { season }) });
      setBundle(answer.data);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setStarting(false);
    }
  };

  const onDownload = async () => {
    if (!bundle?.pdf_url) return;
    setDownloading(true);
    try {
      saveBlob(await fetchCertificateBlob(bundle.pdf_url), `giay-chung-nhan-${bundle.class === null ? 'ca-truong' : `lop-${bundle.class}`}.pdf`);
    } catch (failure) {
      notify('error', 'Không tải được tệp PDF', errorMessage(failure));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section className="report-bundle" aria-labelledby="report-bundle-title">
      <h2 id="report-bundle-title">In giấy chứng nhận</h2>
      <p className="muted">Tạo một tệp PDF gồm giấy chứng nhận của cả trường hoặc của một lớp, khổ A4, mỗi trang một giấy, để in.</p>
      <form className="report-bundle-form" onSubmit={onStart} noValidate>
        <div className="field">
          <label htmlFor="report-bundle-scope">Giấy chứng nhận của</label>
          <select id="report-bundle-scope" value={scope} onChange={(event) => setScope(event.target.value)} aria-describedby={error ? 'report-bundle-error' : undefined}>
            <option value={WHOLE_SCHOOL}>Cả trường</option>
            {classes.map((name) => (
              <option key={name} value={name}>
                Lớp {name}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="primary" disabled={starting || polling} aria-busy={starting || undefined}>
          Tạo tệp PDF
        </Button>
      </form>
      {error && (
        <p id="report-bundle-error" className="field-error" role="alert">
          {error}
        </p>
      )}
      {bundle && (
        <div className="report-bundle-status" aria-live="polite">
          {polling && (
            <>
              <label htmlFor="report-bundle-progress">
                Đang tạo tệp của {scopeName(bundle)}: {formatNumber(bundle.done)}/{formatNumber(bundle.total)} giấy chứng nhận
              </label>
              <progress id="report-bundle-progress" max={bundle.total || 1} value={bundle.done} />
            </>
          )}
          {bundle.status === 'ready' && (
            <>
              <p>
                Tệp của {scopeName(bundle)} đã sẵn sàng: {formatNumber(bundle.total)} giấy chứng nhận (tạo lúc {bundle.created}).
              </p>
              <Button variant="accent" onClick={onDownload} disabled={downloading} aria-busy={downloading || undefined}>
                Tải tệp PDF
              </Button>
            </>
          )}
          {bundle.status === 'failed' && (
            <p className="field-error" role="alert">
              {bundle.error}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
