// The latest news on the home page (GET /api/blogs), each with image, date and title.
import { ArrowRight } from '../../components/ui/shell-icons';
import { NewsSummaryItem, useNewsSummaries } from '../../components/news-summary';
import { Link } from '../../lib/router';

const SHOWN = 6;

export function HomeNews() {
  const posts = useNewsSummaries(SHOWN);
  return (
    <section className="container home-section" aria-labelledby="home-news-title">
      <div className="section-head">
        <h2 id="home-news-title" className="section-title">
          Tin tức
        </h2>
        <Link href="/tin-tuc" className="icon-link">
          Xem tất cả
          <ArrowRight aria-hidden="true" size={18} />
        </Link>
      </div>
      <ul className="news-cards" aria-busy={posts ? undefined : 'true'}>
        {(posts ?? []).map((post) => (
          <NewsSummaryItem key={post.slug} post={post} variant="card" heading="h3" />
        ))}
      </ul>
    </section>
  );
}
