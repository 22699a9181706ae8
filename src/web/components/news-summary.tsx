// A news post in a list (image, date, title, all leading to the article), and the list itself
// from GET /api/blogs: shared by the home page and the news page.
import { useEffect, useState } from 'react';
import type { NewsSummary } from '../../shared/schemas/news';
import { api } from '../lib/api-client';
import { pageData } from '../lib/page-data';
import { Link } from '../lib/router';
import './news-summary.css';

const firstOf = (posts: NewsSummary[], limit: number | undefined) => (limit === undefined ? posts : posts.slice(0, limit));

/** The published posts, newest first; null while loading. A load error is only logged (spec section 8). */
export function useNewsSummaries(limit?: number): NewsSummary[] | null {
  // The posts the server drew the page with, when it did (lib/page-data.ts).
  const [drawn] = useState(() => pageData<{ data: NewsSummary[] }>('/blogs')?.data);
  const [posts, setPosts] = useState<NewsSummary[] | null>(drawn ? firstOf(drawn, limit) : null);
  useEffect(() => {
    if (drawn) return;
    const controller = new AbortController();
    api.get<{ data: NewsSummary[] }>('/blogs', { signal: controller.signal }).then(
      (response) => setPosts(firstOf(response.data, limit)),
      (error: unknown) => controller.signal.aborted || console.warn('Không tải được tin tức', error),
    );
    return () => controller.abort();
  }, [drawn, limit]);
  return posts;
}

interface NewsSummaryItemProps {
  post: NewsSummary;
  /** 'card': a column of cards from 640 px on (home); 'row': image beside the text (news page). */
  variant: 'card' | 'row';
  heading: 'h2' | 'h3';
  eager?: boolean;
}

export function NewsSummaryItem({ post, variant, heading: Heading, eager }: NewsSummaryItemProps) {
  const href = `/tin-tuc/${post.slug}`;
  return (
    <li className={`news-summary news-summary-${variant}`}>
      <Link href={href} className="news-summary-image" tabIndex={-1} aria-hidden="true">
        <img
          className="news-image"
          src={post.image}
          width="480"
          height="270"
          alt={`Ảnh minh hoạ: ${post.name}`}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
        />
      </Link>
      <div className="news-summary-text">
        <time className="news-summary-date" dateTime={post.created_at}>
          {post.created_at_format}
        </time>
        <Heading className="news-summary-title">
          <Link href={href}>{post.name}</Link>
        </Heading>
      </div>
    </li>
  );
}
