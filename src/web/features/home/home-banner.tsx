import { Link } from '../../lib/router';
import { yearOf } from '../../../shared/format';
import { useSite } from '../../lib/site';
import { isSchoolAdmin, mayTakeExams, useSession } from '../../lib/session';

export function HomeBanner() {
  const session = useSession();
  const contest = useSite()?.contest;
  return (
    <section className="home-banner" aria-labelledby="home-title">
      <div className="container home-banner-inner">
        <div className="home-banner-text">
          <p className="home-banner-kicker">Cuộc thi trực tuyến dành cho học sinh tiểu học</p>
          <h1 id="home-title" className="home-banner-title">
            Đại sứ <span>Văn hoá đọc</span>
            {contest ? (
              ` ${yearOf(contest.exam_starts_at)}`
            ) : (
              // Until the contest arrives, an invisible year of the same width: the title wraps as it
              // will with the year, and the page below does not move when the year comes (issue 38.2).
              <span className="home-banner-year-placeholder" aria-hidden="true">
                {' 0000'}
              </span>
            )}
          </h1>
          <p className="home-banner-lead">
            Đọc một cuốn sách hay, làm bài thi 20 phút và nhận giấy chứng nhận trực tuyến. Miễn phí cho học sinh từ lớp 1 đến lớp 5.
          </p>
          <div className="home-banner-actions">
            {isSchoolAdmin(session) && (
              <Link href="/bao-cao" className="btn btn-accent">
                Xem báo cáo
              </Link>
            )}
            {mayTakeExams(session) && (
              <Link href="/du-thi" className="btn btn-accent">
                Vào thi
              </Link>
            )}
            <Link href="/the-le" className="btn btn-outline home-banner-secondary">
              Xem thể lệ
            </Link>
          </div>
        </div>
        <picture className="home-banner-art">
          <source media="(min-width: 760px)" srcSet="/images/banner-wide.svg" width="520" height="400" />
          <img src="/images/banner-narrow.svg" width="328" height="136" alt="" decoding="async" fetchPriority="high" />
        </picture>
      </div>
    </section>
  );
}
