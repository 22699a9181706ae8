// News list (spec section 2): heading 'Tin tức'; each item's thumbnail, date and title link to
// the article. A load error is only logged (spec section 8).
import { NewsSummaryItem, useNewsSummaries } from '../../components/news-summary';
import { usePageTitle } from '../../lib/use-page-title';
import './news.css';

export function NewsListPage() {
  usePageTitle('Tin tức');
  const posts = useNewsSummaries();
  return (
    <div className="container page news-page">
      <h1 className="news-page-title">Tin tức</h1>
      <ul className="news-list" aria-busy={posts ? undefined : 'true'}>
        {posts?.map((post, index) => (
          <NewsSummaryItem key={post.slug} post={post} variant="row" heading="h2" eager={index < 3} />
        ))}
      </ul>
      {posts?.length === 0 && <p className="muted">Chưa có tin tức nào.</p>}
    </div>
  );
}
