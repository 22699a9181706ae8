// /giay-chung-nhan/:childId (spec section 2): 'Chưa có giấy chứng nhận' until the child has
// finished an exam; then the certificates (preview and PDF download) and, from the results date,
// the prize.
import { formatMoney } from '../../../shared/format';
import { messages, resultMessages } from '../../../shared/messages';
import type { CertificateView, ChildCertificateResponse } from '../../../shared/schemas/certificates';
import { api } from '../../lib/api-client';
import { useData } from '../../lib/use-data';
import { Link, useParams } from '../../lib/router';
import { usePageTitle } from '../../lib/use-page-title';
import { useRequireAuth } from '../../lib/use-require-auth';
import { useCertificateImage } from '../../lib/certificate-files';
import { CertificateDownload } from '../../components/certificate-download';
import './certificates.css';
import { Loading } from '../../components/ui/loading';

export function CertificatePage() {
  usePageTitle('Giấy chứng nhận');
  const session = useRequireAuth(messages.pleaseLogin);
  const { childId } = useParams<{ childId: string }>();
  const certificates = useData(
    session ? childId : null,
    (signal) => api.get<ChildCertificateResponse>(`/chilren-certificate?child_id=${encodeURIComponent(childId)}`, { signal }),
    { failed: resultMessages.loadFailed, warn: 'Không tải được giấy chứng nhận' },
  );

  return (
    <div className="container page certificate-page">
      <h1>Giấy chứng nhận</h1>
      {!session ? null : certificates.loading ? (
        <Loading />
      ) : certificates.message || !certificates.data ? (
        <p className="alert alert-error" role="alert">
          {certificates.message}
        </p>
      ) : (
        <ChildCertificates response={certificates.data} />
      )}
    </div>
  );
}

function ChildCertificates({ response }: { response: ChildCertificateResponse }) {
  const child = response.data;
  return (
    <>
      <section className="card certificate-child" aria-label="Thí sinh">
        <h2>{child.fullname}</h2>
        <p className="muted">
          Lớp {child.class} – {child.school.name}
        </p>
        {!response.season.is_current && <p className="muted">{response.season.name} (đã kết thúc)</p>}
        {response.exam_lastest && (
          <Link className="btn btn-outline" href={`/ket-qua-thi/${response.exam_lastest.slug}`}>
            Xem kết quả thi
          </Link>
        )}
      </section>

      <PrizeNotice response={response} />
      {child.revoked_certificates.length > 0 && <RevokedCertificates response={response} />}

      {!child.path_certificate ? (
        <div className="alert alert-warning certificate-none">
          <p>{messages.noCertificate}</p>
          {response.season.is_current && <Link href="/du-thi">Vào thi</Link>}
        </div>
      ) : (
        <div className="certificate-list">
          {child.certificates.map((certificate) => (
            <CertificateCard key={certificate.code} certificate={certificate} name={child.fullname} />
          ))}
        </div>
      )}
    </>
  );
}

function PrizeNotice({ response }: { response: ChildCertificateResponse }) {
  const child = response.data;
  if (!response.results_published) {
    return <p className="alert">{resultMessages.announcement(false, response.results_date, 'Kết quả và giải thưởng của cuộc thi')}</p>;
  }
  // A result under review says so, neutrally, with the hotline (never why).
  if (child.results_held) {
    return (
      <p className="alert alert-warning" role="status">
        {child.results_held}
      </p>
    );
  }
  // A withdrawn prize is said so (not "not awarded"); a revoked certificate is only a void paper.
  const withdrawn = child.withdrawn_prizes.map((prize) => prize.prize_name);
  if (!child.prize_personal && !child.is_top_30) {
    return withdrawn.length > 0 ? (
      <p className="alert alert-warning" role="status">
        Ban tổ chức đã rút lại {withdrawn.join(', ')} của em. Phụ huynh vui lòng liên hệ Ban tổ chức nếu cần biết thêm.
      </p>
    ) : (
      <p className="alert">
        Kết quả đã công bố ngày {response.results_date}. Em chưa đạt giải lần này — cảm ơn em đã tham gia cuộc thi!
      </p>
    );
  }
  return (
    <div className="alert alert-success certificate-prize" role="status">
      {child.prize_personal && (
        <p>
          Chúc mừng em đạt <strong>{child.prize_personal.prize_name}</strong> – {formatMoney(child.prize_personal.money)}. {child.prize_personal.desc}
        </p>
      )}
      {child.is_top_30 === 1 && <p>Em nằm trong TOP 30 học sinh có kết quả tốt nhất của trường.</p>}
      {withdrawn.length > 0 && <p>Ban tổ chức đã rút lại {withdrawn.join(', ')} của em.</p>}
      <p className="muted">Kết quả công bố ngày {response.results_date}.</p>
    </div>
  );
}

/** Codes the organisers revoked: no longer valid; the new certificate (if any) is listed below. */
function RevokedCertificates({ response }: { response: ChildCertificateResponse }) {
  const child = response.data;
  const entitled = { participation: true, prize: Boolean(child.prize_personal), top30: child.is_top_30 === 1, school: false };
  return (
    <div className="alert certificate-revoked" role="note">
      {response.data.revoked_certificates.map((certificate) => (
        <p key={certificate.code}>
          {certificate.title} mã <strong>{certificate.code}</strong> đã được Ban tổ chức thu hồi ngày {certificate.revoked_date} và không còn giá trị.{' '}
          {certificate.reissued ? 'Giấy chứng nhận mới được cấp lại với mã mới ở dưới.' : entitled[certificate.kind] ? 'Giấy chứng nhận mới đang được cấp lại.' : ''}
        </p>
      ))}
    </div>
  );
}

function CertificateCard({ certificate, name }: { certificate: CertificateView; name: string }) {
  const image = useCertificateImage(certificate.image_url);
  const verifyPath = `/xac-minh/${certificate.code}`;

  return (
    <article className="card certificate-card" aria-label={certificate.title}>
      <h3>{certificate.title}</h3>
      <div className="certificate-preview">
        {image.url ? (
          <img src={image.url} alt={`${certificate.title} của ${name}`} width={1400} height={990} />
        ) : (
          <div className="certificate-placeholder" aria-busy={!image.failed}>
            {image.failed ? resultMessages.loadFailed : 'Đang tải giấy chứng nhận…'}
          </div>
        )}
      </div>
      <div className="certificate-actions">
        <CertificateDownload certificate={certificate} />
        <p className="certificate-code">
          Mã chứng nhận: <strong>{certificate.code}</strong> · <Link href={verifyPath}>Trang xác minh</Link>
        </p>
      </div>
    </article>
  );
}
