// The parent's report (spec section 2): one block per child with the remaining attempts, the
// finished exams ('Kết quả thi') and the exam in progress ('Tiếp tục thi'). A family with an
// earlier season (issue 26) gets a season selector: that season's results and certificates.
import { useState } from 'react';
import { formatDuration, formatNumber } from '../../../shared/format';
import { MAX_ATTEMPTS_PER_CONTESTANT } from '../../../shared/rules';
import { attemptRemarks, type Contestant, type ContestantExam, type ProfileResponse } from '../../../shared/schemas/profile';
import type { ReportParentSeasonsResponse } from '../../../shared/schemas/reports';
import { api } from '../../lib/api-client';
import { Link } from '../../lib/router';
import { useSite } from '../../lib/site';
import { useData } from '../../lib/use-data';
import { attemptsNote } from './attempts';
import { Loading } from '../../components/ui/loading';
import { SelectField } from '../../components/ui/field';
import { NoContestantsWarning } from '../../components/no-contestants-warning';
import { PastSeasonReport } from './past-season-report';
import { ChildSection } from './child-block';

export function ParentReport() {
  // Report load errors are only logged (spec section 8): the page keeps showing it is loading.
  const children = useData(
    'profile',
    (signal) => api.get<ProfileResponse>('/profile', { signal }).then((response) => response.data.childrens),
    { warn: 'Không tải được báo cáo' },
  ).data;
  const seasons = useData('report-parent-seasons', (signal) => api.get<ReportParentSeasonsResponse>('/report-parent/seasons', { signal }).then((response) => response.data), {
    warn: 'Không tải được các mùa thi',
  }).data;
  // An earlier season on request; none: the current one.
  const [chosen, setChosen] = useState('');
  const past = seasons?.find((season) => String(season.id) === chosen && !season.is_current);

  return (
    <>
      <h1>Báo cáo</h1>
      {seasons && seasons.length > 1 && (
        <div className="report-season">
          <SelectField label="Mùa thi" value={past ? chosen : ''} onChange={(event) => setChosen(event.target.value)}>
            {seasons.map((season) => (
              <option key={season.id} value={season.is_current ? '' : season.id}>
                {season.is_current ? season.name : `${season.name} (đã kết thúc)`}
              </option>
            ))}
          </SelectField>
        </div>
      )}
      {past ? (
        <PastSeasonReport key={past.id} seasonId={past.id} />
      ) : !children ? (
        <Loading />
      ) : children.length === 0 ? (
        <NoContestantsWarning />
      ) : (
        <div className="report-children">
          {children.map((child) => (
            <ChildBlock key={child.id} child={child} />
          ))}
        </div>
      )}
    </>
  );
}

function ChildBlock({ child }: { child: Contestant }) {
  // The contest's attempts plus the extra one the organiser may have given after an incident.
  const attemptsAllowed = (useSite()?.contest?.attempts_per_contestant ?? MAX_ATTEMPTS_PER_CONTESTANT) + child.extra_attempts;
  const exams = [...child.exams].sort((a, b) => a.attempt - b.attempt);
  return (
    <ChildSection child={child}>
      <p className="report-attempts" data-testid="attempts-note">
        {attemptsNote(exams.length, attemptsAllowed)}
      </p>
      {exams.length > 0 && (
        <ol className="report-exams" aria-label={`Các lần thi của ${child.fullname}`}>
          {exams.map((exam) => (
            <ExamItem key={exam.id} exam={exam} childId={child.id} />
          ))}
        </ol>
      )}
    </ChildSection>
  );
}

function ExamItem({ exam, childId }: { exam: ContestantExam; childId: number }) {
  if (exam.status === 2) {
    return (
      <li className="report-exam report-exam-doing">
        <span className="report-exam-attempt">
          Lần thi {exam.attempt}
          {attemptRemarks(exam) && <span className="report-exam-remarks"> ({attemptRemarks(exam)})</span>}
        </span>
        <span className="report-exam-status">đang thi</span>
        <Link className="btn btn-accent" href={`/bat-dau-thi/${exam.book_id}/${childId}/${exam.slug}`}>
          Tiếp tục thi
        </Link>
      </li>
    );
  }
  const seconds = (exam.time_complete_minutes ?? 0) * 60 + (exam.time_complete_seconds ?? 0);
  return (
    <li className="report-exam">
      <span className="report-exam-attempt">
          Lần thi {exam.attempt}
          {attemptRemarks(exam) && <span className="report-exam-remarks"> ({attemptRemarks(exam)})</span>}
        </span>
      <dl className="report-exam-facts">
        <div>
          <dt>Điểm</dt>
          <dd>{exam.points ?? 0}/100</dd>
        </div>
        <div>
          <dt>Thời gian</dt>
          <dd>{formatDuration(seconds)}</dd>
        </div>
        <div>
          <dt>Dự đoán số bài thi</dt>
          <dd>{exam.prediction === null ? '—' : formatNumber(exam.prediction)}</dd>
        </div>
      </dl>
      <Link className="btn btn-outline" href={`/ket-qua-thi/${exam.slug}`}>
        Kết quả thi
      </Link>
    </li>
  );
}
