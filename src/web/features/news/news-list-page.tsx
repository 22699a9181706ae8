// News list (spec section 2): heading 'Tin tức'; each item's thumbnail, date and title link to
// the article. A load error is only logged (spec section 8).
import { useEffect, useState } from 'react';
import type { NewsSummary } from '../../../shared/schemas/news';
import { api } from '../../lib/api-client';
import { Link } from '../../lib/router';
import { usePageTitle } from '../../lib/use-page-title';
import './news.css';

export function NewsListPage() {
  usePageTitle('Tin tức');
  const [posts, setPosts] = useState<NewsSummary[] | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api.get<{ data: NewsSummary[] }>('/blogs', { signal: controller.signal }).then(
      (response) => setPosts(response.data),
      (error: unknown) => controller.signal.aborted || console.warn('Không tải được tin tức', error),
    );
    return () => controller.abort();
  }, []);

  return (
    <div className="container page news-page">
      <h1 className="news-page-title">Tin tức</h1>
      <ul className="news-list" aria-busy={posts ? undefined : 'true'}>
        {posts?.map((post, index) => (
          <li key={post.slug} className="news-item">
            <Link href={`/tin-tuc/${post.slug}`} className="news-item-thumb" tabIndex={-1} aria-hidden="true">
              <img
                src={post.image}
                width="320"
                height="180"
                alt={`Ảnh minh hoạ: ${post.name}`}
                loading={index < 3 ? 'eager' : 'lazy'}
                decoding="async"
              />
            </Link>
            <div className="news-item-text">
              <time className="news-item-date" dateTime={post.created_at}>
                {post.created_at_format}
              </time>
              <h2 className="news-item-title">
                <Link href={`/tin-tuc/${post.slug}`}>{post.name}</Link>
              </h2>
            </div>
          </li>
        ))}
      </ul>
      {posts?.length === 0 && <p className="muted">Chưa có tin tức nào.</p>}
    </div>
  );
}
