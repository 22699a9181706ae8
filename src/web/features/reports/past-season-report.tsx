// An earlier season in the parent's report (issue 26): each child as they were that season (class,
// school), their finished exams, their result once published (score, rank, prize) and that
// season's certificates with their PDF and verification page. Read-only: nothing to start or change.
import { resultMessages } from '../../../shared/messages';
import type { ReportParentResponse, SeasonChild } from '../../../shared/schemas/reports';
import { api } from '../../lib/api-client';
import { Link } from '../../lib/router';
import { useData } from '../../lib/use-data';
import { Loading } from '../../components/ui/loading';
import { CertificateDownload } from '../../components/certificate-download';
import { ChildSection } from './child-block';

export function PastSeasonReport({ seasonId }: { seasonId: number }) {
  const path = `/report-parent?season=${seasonId}`;
  const report = useData(path, (signal) => api.get<ReportParentResponse>(path, { signal }).then((response) => response.data), {
    failed: resultMessages.loadFailed,
    warn: 'Không tải được kết quả mùa thi trước',
  });
  if (report.message) {
    return (
      <p className="alert alert-error" role="alert">
        {report.message}
      </p>
    );
  }
  if (!report.data) return <Loading />;
  const { season, childrens } = report.data;
  return (
    <>
      <p className="alert" role="note">
        {season.name} đã kết thúc: kết quả và giấy chứng nhận của mùa này chỉ để xem.
        {!season.results_published && ` ${resultMessages.announcement(false, season.results_date, 'Kết quả')}`}
      </p>
      {childrens.length === 0 ? (
        <p>Gia đình không có thí sinh nào trong mùa thi này.</p>
      ) : (
        <div className="report-children">
          {childrens.map((child) => (
            <PastChild key={child.id} child={child} published={season.results_published} />
          ))}
        </div>
      )}
    </>
  );
}

function PastChild({ child, published }: { child: SeasonChild; published: boolean }) {
  return (
    <ChildSection child={child}>
      <PastResult child={child} published={published} />
      {child.exams.length > 0 && (
        <ol className="report-exams" aria-label={`Các lần thi của ${child.fullname}`}>
          {child.exams.map((exam) => (
            <li key={exam.slug} className="report-exam">
              <span className="report-exam-attempt">Lần thi {exam.attempt}</span>
              <dl className="report-exam-facts">
                <div>
                  <dt>Điểm</dt>
                  <dd>{exam.points}/100</dd>
                </div>
                <div>
                  <dt>Thời gian</dt>
                  <dd>{exam.duration}</dd>
                </div>
                <div>
                  <dt>Sách</dt>
                  <dd>{exam.book}</dd>
                </div>
              </dl>
              <Link className="btn btn-outline" href={`/ket-qua-thi/${exam.slug}`} aria-label={`Kết quả thi lần ${exam.attempt} của ${child.fullname}`}>
                Kết quả thi
              </Link>
            </li>
          ))}
        </ol>
      )}
      {child.certificates.length > 0 && (
        <ul className="report-certificates" aria-label={`Giấy chứng nhận của ${child.fullname}`}>
          {child.certificates.map((certificate) => (
            <li key={certificate.code}>
              <span className="report-certificate-title">{certificate.title}</span>
              <span className="report-certificate-code">
                Mã: <strong>{certificate.code}</strong> · <Link href={`/xac-minh/${certificate.code}`}>Trang xác minh</Link>
              </span>
              <CertificateDownload certificate={certificate} variant="outline" label="Tải PDF" name={`Tải PDF: ${certificate.title}`} />
            </li>
          ))}
        </ul>
      )}
    </ChildSection>
  );
}

/** The season's result: score, rank and prize once published; a result under review says so, neutrally. */
function PastResult({ child, published }: { child: SeasonChild; published: boolean }) {
  if (child.exams.length === 0) return <p className="report-attempts">Em không thi mùa này.</p>;
  if (child.results_held) {
    return (
      <p className="alert alert-warning" role="status">
        {child.results_held}
      </p>
    );
  }
  if (!published || !child.result) return null;
  const { result } = child;
  return (
    <div className="report-past-result" data-testid="past-result">
      <p className="report-attempts">
        Kết quả: {result.points}/100 điểm, {result.duration}, xếp hạng {result.rank}.
      </p>
      {(result.prize_name || result.school_top) && (
        <p className="alert alert-success">
          {result.prize_name && (
            <>
              Em đạt <strong>{result.prize_name}</strong>.{' '}
            </>
          )}
          {result.school_top && 'Em nằm trong TOP 30 học sinh có kết quả tốt nhất của trường.'}
        </p>
      )}
    </div>
  );
}
