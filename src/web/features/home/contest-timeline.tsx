// The contest timeline of spec section 2, drawn from the contest's settings (GET /api/site), so
// it always agrees with the rules page and the exam window.
import { formatDate } from '../../../shared/format';
import { winnersMessages } from '../../../shared/messages/winners';
import { ArrowRight } from '../../components/ui/shell-icons';
import { Link } from '../../lib/router';
import { useSite } from '../../lib/site';
import './contest-timeline.css';

const range = (from: string, to: string) => `${formatDate(from)} – ${formatDate(to)}`;

export function ContestTimeline() {
  const contest = useSite()?.contest;
  const steps = contest
    ? [
        { stage: 'Đọc sách và phát động cuộc thi', time: range(contest.reading_starts_at, contest.reading_ends_at) },
        { stage: 'Thi trực tuyến', time: range(contest.exam_starts_at, contest.exam_ends_at) },
        { stage: 'Công bố kết quả', time: formatDate(contest.results_at) },
        { stage: 'Lễ trao giải', time: range(contest.ceremony_starts_at, contest.ceremony_ends_at) },
      ]
    : [];
  return (
    <section className="container home-section" aria-labelledby="timeline-title">
      <h2 id="timeline-title" className="section-title">
        Lịch trình cuộc thi
      </h2>
      <ol className="contest-timeline" aria-busy={!contest}>
        {steps.map((step, index) => (
          <li key={step.stage} className="contest-timeline-step">
            <span className="contest-timeline-number" aria-hidden="true">
              {index + 1}
            </span>
            <span className="contest-timeline-stage">{step.stage}</span>
            <span className="contest-timeline-time">{step.time}</span>
          </li>
        ))}
      </ol>
      <p className="contest-timeline-winners">
        <Link href="/danh-sach-doat-giai" className="icon-link">
          {winnersMessages.homeLink}
          <ArrowRight aria-hidden="true" size={18} />
        </Link>
      </p>
    </section>
  );
}
