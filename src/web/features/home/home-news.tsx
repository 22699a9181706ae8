// The latest news on the home page (GET /api/blogs), each with image, date and title.
import { useEffect, useState } from 'react';
import { ArrowRight } from 'lucide-react';
import type { NewsSummary } from '../../../shared/schemas/news';
import { api } from '../../lib/api-client';
import { Link } from '../../lib/router';

const SHOWN = 6;

export function HomeNews() {
  const [posts, setPosts] = useState<NewsSummary[] | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api.get<{ data: NewsSummary[] }>('/blogs', { signal: controller.signal }).then(
      (response) => setPosts(response.data.slice(0, SHOWN)),
      (error: unknown) => controller.signal.aborted || console.warn('Không tải được tin tức', error),
    );
    return () => controller.abort();
  }, []);

  return (
    <section className="container home-section" aria-labelledby="home-news-title">
      <div className="section-head">
        <h2 id="home-news-title" className="section-title">
          Tin tức
        </h2>
        <Link href="/tin-tuc" className="section-more">
          Xem tất cả
          <ArrowRight aria-hidden="true" size={18} />
        </Link>
      </div>
      <ul className="news-cards" aria-busy={posts ? undefined : 'true'}>
        {(posts ?? []).map((post) => (
          <li key={post.slug} className="news-card">
            <Link href={`/tin-tuc/${post.slug}`} className="news-card-image" tabIndex={-1} aria-hidden="true">
              <img src={post.image} width="480" height="270" alt={`Ảnh minh hoạ: ${post.name}`} loading="lazy" decoding="async" />
            </Link>
            <div className="news-card-body">
              <time className="news-card-date" dateTime={post.created_at}>
                {post.created_at_format}
              </time>
              <h3 className="news-card-title">
                <Link href={`/tin-tuc/${post.slug}`}>{post.name}</Link>
              </h3>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
